"""The conversation side of a Postgres scope: what its sessions' SQL does not share with SQLite."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from psycopg import Cursor

from somna.store.sessions import SessionQueries

__all__ = ["PostgresSessions"]


class PostgresSessions(SessionQueries):
    """Mixed into `PostgresScope`: the archive's move."""

    _cur: Cursor[dict[str, Any]]
    _profile_id: str
    # A session another worker is leasing right now is left to it.
    _SKIP_LOCKED = " FOR UPDATE SKIP LOCKED"

    def _archive_messages(
        self, session_id: str, through_seq: int, at: datetime, purge_after: datetime
    ) -> int:
        moved = self._cur.execute(
            "WITH moved AS (DELETE FROM messages WHERE profile_id = %s AND session_id = %s "
            "AND seq <= %s RETURNING *) INSERT INTO archived_messages (id, session_id, "
            "profile_id, seq, role, content, created_at, meta, archived_at, purge_after) "
            "SELECT id, session_id, profile_id, seq, role, content, created_at, meta, %s, %s "
            "FROM moved",
            (self._profile_id, session_id, through_seq, at, purge_after),
        ).rowcount
        return int(moved)
