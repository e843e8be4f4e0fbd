"""The live-thread side of a Postgres scope: its running summary as stored, and merges in jsonb."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from psycopg import Cursor

from somna.store.threads import ThreadQueries

__all__ = ["PostgresThreads"]


class PostgresThreads(ThreadQueries):
    """Mixed into `PostgresScope`: what its live threads' SQL does not share with SQLite."""

    _cur: Cursor[dict[str, Any]]
    _profile_id: str

    def _renumber_into(
        self, into_id: str, other_id: str, other_key: str, ordered: Sequence[str]
    ) -> None:
        self._cur.executemany(
            "UPDATE messages SET seq = %s, meta = CASE WHEN session_id = %s "
            "THEN meta || jsonb_build_object('merged_from', %s::text) ELSE meta END, "
            "session_id = %s WHERE profile_id = %s AND id = %s",
            [
                (-1 - i, other_id, other_key, into_id, self._profile_id, message_id)
                for i, message_id in enumerate(ordered)
            ],
        )
        self._cur.execute(
            "UPDATE messages SET seq = -1 - seq WHERE profile_id = %s AND session_id = %s",
            (self._profile_id, into_id),
        )
