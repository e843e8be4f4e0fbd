"""The conversation side of a SQLite scope: what its sessions' SQL does not share with Postgres."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from somna.store.sessions import SessionQueries
from somna.store.sqlite.rows import ts

__all__ = ["SQLiteSessions"]


class SQLiteSessions(SessionQueries):
    """Mixed into `SQLiteScope`: the archive's move."""

    _conn: sqlite3.Connection
    _profile_id: str

    def _archive_messages(
        self, session_id: str, through_seq: int, at: datetime, purge_after: datetime
    ) -> int:
        moved = self._conn.execute(
            "INSERT INTO archived_messages (id, session_id, profile_id, seq, role, content, "
            "created_at, meta, archived_at, purge_after) "
            "SELECT id, session_id, profile_id, seq, role, content, created_at, meta, ?, ? "
            "FROM messages WHERE profile_id = ? AND session_id = ? AND seq <= ?",
            (ts(at), ts(purge_after), self._profile_id, session_id, through_seq),
        ).rowcount
        self._conn.execute(
            "DELETE FROM messages WHERE profile_id = ? AND session_id = ? AND seq <= ?",
            (self._profile_id, session_id, through_seq),
        )
        return int(moved)
