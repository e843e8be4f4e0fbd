"""The live-thread side of a SQLite scope: its running summary as stored, and merges in JSON."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from somna.store.threads import ThreadQueries

__all__ = ["SQLiteThreads"]


class SQLiteThreads(ThreadQueries):
    """Mixed into `SQLiteScope`: what its live threads' SQL does not share with Postgres."""

    _conn: sqlite3.Connection
    _profile_id: str

    def _renumber_into(
        self, into_id: str, other_id: str, other_key: str, ordered: Sequence[str]
    ) -> None:
        self._conn.executemany(
            "UPDATE messages SET session_id = ?, seq = ?, meta = CASE WHEN session_id = ? "
            "THEN json_set(meta, '$.merged_from', ?) ELSE meta END WHERE profile_id = ? AND id = ?",
            [
                (into_id, -1 - i, other_id, other_key, self._profile_id, message_id)
                for i, message_id in enumerate(ordered)
            ],
        )
        self._conn.execute(
            "UPDATE messages SET seq = -1 - seq WHERE profile_id = ? AND session_id = ?",
            (self._profile_id, into_id),
        )
