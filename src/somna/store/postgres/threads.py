"""The live-conversation side of a Postgres scope: whole transcripts, running summaries, merges."""

from __future__ import annotations

from typing import Any

from psycopg import Cursor

from somna.errors import ConflictStateError, NotFoundError
from somna.model import Message, Session, SessionStatus
from somna.store.base import ThreadState
from somna.store.postgres.rows import MESSAGE_COLUMNS, message_from_row, session_from_row

__all__ = ["ThreadQueries"]

_LIVE = (SessionStatus.OPEN, SessionStatus.CLOSED)


class ThreadQueries:
    """Mixed into `PostgresScope`: queries of one profile's live threads."""

    _cur: Cursor[dict[str, Any]]
    _profile_id: str

    def session_transcript(self, session_id: str) -> list[Message]:
        rows = self._cur.execute(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE profile_id = %(p)s "
            f"AND session_id = %(s)s UNION ALL SELECT {MESSAGE_COLUMNS} FROM archived_messages "
            "WHERE profile_id = %(p)s AND session_id = %(s)s ORDER BY seq",
            {"p": self._profile_id, "s": session_id},
        ).fetchall()
        return [message_from_row(row) for row in rows]

    def thread_state(self, session_id: str) -> ThreadState | None:
        row = self._cur.execute(
            "SELECT session_id, folded_seq, summary, updated_at FROM session_threads "
            "WHERE profile_id = %s AND session_id = %s",
            (self._profile_id, session_id),
        ).fetchone()
        return None if row is None else ThreadState(**row)

    def save_thread_state(self, state: ThreadState) -> None:
        self._live(state.session_id)
        self._cur.execute(
            "INSERT INTO session_threads (session_id, profile_id, folded_seq, summary, updated_at) "
            "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (session_id) DO UPDATE SET "
            "folded_seq = excluded.folded_seq, summary = excluded.summary, "
            "updated_at = excluded.updated_at",
            (state.session_id, self._profile_id, state.folded_seq, state.summary,
             state.updated_at),
        )  # fmt: skip

    def merge_sessions(self, into_id: str, other_id: str) -> Session:
        into, other = self._live(into_id), self._live(other_id)
        rows = self._cur.execute(
            "SELECT id FROM messages WHERE profile_id = %s AND session_id = ANY(%s) "
            "ORDER BY created_at, session_id = %s, seq",
            (self._profile_id, [into_id, other_id], other_id),
        ).fetchall()
        # Two passes through negative numbers, so (session_id, seq) stays unique throughout.
        self._cur.executemany(
            "UPDATE messages SET seq = %s, meta = CASE WHEN session_id = %s "
            "THEN meta || jsonb_build_object('merged_from', %s::text) ELSE meta END, "
            "session_id = %s WHERE profile_id = %s AND id = %s",
            [
                (-1 - i, other_id, other.key, into_id, self._profile_id, row["id"])
                for i, row in enumerate(rows)
            ],
        )
        self._cur.execute(
            "UPDATE messages SET seq = -1 - seq WHERE profile_id = %s AND session_id = %s",
            (self._profile_id, into_id),
        )
        self._cur.execute(
            "DELETE FROM session_threads WHERE profile_id = %s AND session_id = ANY(%s)",
            (self._profile_id, [into_id, other_id]),
        )
        self._cur.execute(
            "DELETE FROM sessions WHERE profile_id = %s AND id = %s", (self._profile_id, other_id)
        )
        merged = into.model_copy(
            update={
                "started_at": min(into.started_at, other.started_at),
                "last_message_at": max(into.last_message_at, other.last_message_at),
                "status": SessionStatus.OPEN,
            }
        )
        self._cur.execute(
            "UPDATE sessions SET started_at = %s, last_message_at = %s, status = %s "
            "WHERE profile_id = %s AND id = %s",
            (merged.started_at, merged.last_message_at, merged.status.value, self._profile_id,
             into_id),
        )  # fmt: skip
        return merged

    def _live(self, session_id: str) -> Session:
        row = self._cur.execute(
            "SELECT * FROM sessions WHERE profile_id = %s AND id = %s",
            (self._profile_id, session_id),
        ).fetchone()
        if row is None:
            raise NotFoundError(f"There is no session with id {session_id!r} in this profile.")
        session = session_from_row(row)
        if session.status not in _LIVE:
            raise ConflictStateError(
                f"Session {session.key!r} was already consolidated; only live sessions change."
            )
        return session
