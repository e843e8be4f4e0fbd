"""The `EmbedderLedger` of a SQLite file (see `somna.store.embedders`)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Sequence

import numpy as np

from somna.store.embedders import (
    CLAIM,
    FINISH,
    PENDING_FACTS,
    PENDING_SUMMARIES,
    REMAINING,
    STATE,
    TOTAL,
    EmbedderRecord,
    EmbedderState,
    PendingText,
    start_sql,
    state_from_row,
)

__all__ = ["SQLiteLedger"]


class SQLiteLedger:
    """Runs on the store's connection under its lock; `forget` drops its vector caches."""

    def __init__(
        self, conn: sqlite3.Connection, lock: threading.RLock, forget: Callable[[], None]
    ) -> None:
        self._conn = conn
        self._lock = lock
        self._forget = forget

    def state(self) -> EmbedderState | None:
        with self._lock:
            return state_from_row(self._conn.execute(STATE).fetchone())

    def claim(self, record: EmbedderRecord) -> EmbedderState:
        with self._lock:
            self._conn.execute(CLAIM, {"name": record.name, "dim": record.dim})
            state = self.state()
        assert state is not None
        return state

    def start(self, target: EmbedderRecord) -> EmbedderState:
        with self._lock:
            self._conn.execute(
                start_sql(self.state(), target), {"name": target.name, "dim": target.dim}
            )
            state = self.state()
        assert state is not None
        return state

    def pending(self, limit: int) -> list[PendingText]:
        with self._lock:
            facts = self._conn.execute(PENDING_FACTS, {"limit": limit}).fetchall()
            found = [PendingText("fact", row[0], row[1]) for row in facts]
            if len(found) < limit:
                summaries = self._conn.execute(
                    PENDING_SUMMARIES, {"limit": limit - len(found)}
                ).fetchall()
                found += [PendingText("summary", row[0], row[1]) for row in summaries]
        return found

    def counts(self) -> tuple[int, int]:
        with self._lock:
            total = int(self._conn.execute(TOTAL).fetchone()[0])
            remaining = int(self._conn.execute(REMAINING).fetchone()[0])
        return total - remaining, total

    def save(self, rows: Sequence[tuple[PendingText, np.ndarray]]) -> None:
        if not rows:
            return
        with self._lock:
            conn = self._conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                for kind, table in (("fact", "facts"), ("summary", "summaries")):
                    mine = [(row, vector) for row, vector in rows if row.kind == kind]
                    if not mine:
                        continue
                    conn.executemany(
                        f"UPDATE {table} SET embedding = ? WHERE id = ?",
                        [(_blob(vector), row.id) for row, vector in mine],
                    )
                    conn.execute(
                        f"UPDATE embedder SET {table}_after = ?", (max(r.id for r, _ in mine),)
                    )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def finish(self) -> EmbedderState:
        with self._lock:
            conn = self._conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute(FINISH)
                # Every process's cached vector index of every profile is now stale.
                conn.execute("UPDATE profiles SET facts_rev = facts_rev + 1")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            self._forget()
            state = self.state()
        assert state is not None
        return state


def _blob(vector: np.ndarray) -> bytes:
    return np.asarray(vector, dtype="<f4").tobytes()
