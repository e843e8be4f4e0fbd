"""The `EmbedderLedger` of a SQLite file (see `somna.store.embedders`)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from somna.store.embedders import (
    FINISH,
    EmbedderRecord,
    EmbedderState,
    LedgerReads,
    PendingText,
    start_sql,
)
from somna.store.sql import Params
from somna.store.sqlite.transactions import roll_back

__all__ = ["SQLiteLedger"]


class SQLiteLedger(LedgerReads):
    """Runs on the store's connection under its lock; `forget` drops its vector caches."""

    def __init__(
        self, conn: sqlite3.Connection, lock: threading.RLock, forget: Callable[[], None]
    ) -> None:
        self._conn = conn
        self._lock = lock
        self._forget = forget

    def _rows(self, sql: str, params: Params | None = None) -> list[Any]:
        with self._lock:
            return self._conn.execute(sql, params or {}).fetchall()

    def start(self, target: EmbedderRecord) -> EmbedderState:
        with self._lock:
            self._conn.execute(
                start_sql(self.state(), target), {"name": target.name, "dim": target.dim}
            )
            state = self.state()
        assert state is not None
        return state

    def save(self, rows: Sequence[tuple[PendingText, np.ndarray]]) -> None:
        if not rows:
            return
        with self._lock:
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
                for table, vectors, last in self._by_table(rows):
                    conn.executemany(
                        f"UPDATE {table} SET embedding = ? WHERE id = ?",
                        [(_blob(vector), row_id) for row_id, vector in vectors],
                    )
                    conn.execute(f"UPDATE embedder SET {table}_after = ?", (last,))
                conn.execute("COMMIT")
            except BaseException:
                roll_back(conn)
                raise

    def finish(self) -> EmbedderState:
        with self._lock:
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute(FINISH)
                # Every process's cached vector index of every profile is now stale.
                conn.execute("UPDATE profiles SET facts_rev = facts_rev + 1")
                conn.execute("COMMIT")
            except BaseException:
                roll_back(conn)
                raise
            self._forget()
            state = self.state()
        assert state is not None
        return state


def _blob(vector: np.ndarray) -> bytes:
    return np.asarray(vector, dtype="<f4").tobytes()
