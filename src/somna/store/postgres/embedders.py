"""The `EmbedderLedger` of a Postgres database (see `somna.store.embedders`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

import numpy as np
from psycopg import Connection

from somna.store.embedders import (
    FINISH,
    STATE,
    EmbedderRecord,
    EmbedderState,
    LedgerReads,
    PendingText,
    start_sql,
    state_from_row,
)
from somna.store.postgres.queries import named
from somna.store.sql import Params

__all__ = ["PostgresLedger"]

Connect = Callable[[], AbstractContextManager[Connection[Any]]]


class PostgresLedger(LedgerReads):
    """Runs on pooled connections; `forget` drops the store's caches of these profiles."""

    def __init__(self, connect: Connect, forget: Callable[[list[str]], None]) -> None:
        self._connect = connect
        self._forget = forget

    def _rows(self, sql: str, params: Params | None = None) -> list[Any]:
        with self._connect() as conn:
            cursor = conn.execute(named(sql), params)
            return cursor.fetchall() if cursor.description else []

    def start(self, target: EmbedderRecord) -> EmbedderState:
        with self._connect() as conn, conn.transaction():
            conn.execute("LOCK TABLE embedder IN EXCLUSIVE MODE")
            before = state_from_row(conn.execute(STATE).fetchone())
            conn.execute(named(start_sql(before, target)), {"name": target.name, "dim": target.dim})
            state = state_from_row(conn.execute(STATE).fetchone())
        assert state is not None
        return state

    def save(self, rows: Sequence[tuple[PendingText, np.ndarray]]) -> None:
        if not rows:
            return
        with self._connect() as conn, conn.transaction(), conn.cursor() as cursor:
            for table, vectors, last in self._by_table(rows):
                cursor.executemany(
                    f"UPDATE {table} SET embedding = %s WHERE id = %s",
                    [(np.asarray(vector, dtype=np.float32), row_id) for row_id, vector in vectors],
                )
                cursor.execute(f"UPDATE embedder SET {table}_after = %s", (last,))

    def finish(self) -> EmbedderState:
        with self._connect() as conn, conn.transaction():
            conn.execute(FINISH)
            state = state_from_row(conn.execute(STATE).fetchone())
            assert state is not None and state.current is not None
            # Each profile that has vectors is held to the new dimension, and every
            # process's cached indexes of it are now stale.
            profiles = conn.execute(
                "UPDATE profiles SET facts_rev = facts_rev + 1, "
                "summaries_rev = summaries_rev + 1, "
                "embedding_dim = CASE WHEN embedding_dim IS NULL THEN NULL ELSE %s END "
                "RETURNING id",
                (state.current.dim,),
            ).fetchall()
        self._forget([str(row[0]) for row in profiles])
        return state
