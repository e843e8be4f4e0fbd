"""The live-conversation side of a SQLite scope: whole transcripts, running summaries, merges."""

from __future__ import annotations

import sqlite3

from somna.errors import ConflictStateError, NotFoundError
from somna.model import Message, Session, SessionStatus, utc
from somna.store.base import ThreadState
from somna.store.sqlite.queries import parse_ts
from somna.store.sqlite.rows import message_from_row, session_from_row, ts

__all__ = ["ThreadQueries"]

_COLUMNS = "id, session_id, profile_id, seq, role, content, created_at, meta"
_LIVE = (SessionStatus.OPEN, SessionStatus.CLOSED)


class ThreadQueries:
    """Mixed into `SQLiteScope`: queries of one profile's live threads."""

    _conn: sqlite3.Connection
    _profile_id: str

    def session_transcript(self, session_id: str) -> list[Message]:
        rows = self._conn.execute(
            f"SELECT {_COLUMNS} FROM messages WHERE profile_id = ? AND session_id = ? "
            f"UNION ALL SELECT {_COLUMNS} FROM archived_messages "
            "WHERE profile_id = ? AND session_id = ? ORDER BY seq",
            (self._profile_id, session_id, self._profile_id, session_id),
        ).fetchall()
        return [message_from_row(row) for row in rows]

    def thread_state(self, session_id: str) -> ThreadState | None:
        row = self._conn.execute(
            "SELECT session_id, folded_seq, summary, updated_at FROM session_threads "
            "WHERE profile_id = ? AND session_id = ?",
            (self._profile_id, session_id),
        ).fetchone()
        if row is None:
            return None
        updated = parse_ts(row["updated_at"])
        assert updated is not None  # the column is NOT NULL
        return ThreadState(row["session_id"], row["folded_seq"], row["summary"], utc(updated))

    def save_thread_state(self, state: ThreadState) -> None:
        self._live(state.session_id)
        self._conn.execute(
            "INSERT INTO session_threads (session_id, profile_id, folded_seq, summary, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET "
            "folded_seq = excluded.folded_seq, summary = excluded.summary, "
            "updated_at = excluded.updated_at",
            (state.session_id, self._profile_id, state.folded_seq, state.summary,
             ts(state.updated_at)),
        )  # fmt: skip

    def merge_sessions(self, into_id: str, other_id: str) -> Session:
        into, other = self._live(into_id), self._live(other_id)
        rows = self._conn.execute(
            "SELECT id, session_id, seq FROM messages WHERE profile_id = ? AND session_id IN (?, ?)"
            " ORDER BY created_at, session_id = ?, seq",
            (self._profile_id, into_id, other_id, other_id),
        ).fetchall()
        # Two passes through negative numbers, so (session_id, seq) stays unique throughout.
        self._conn.executemany(
            "UPDATE messages SET session_id = ?, seq = ?, meta = CASE WHEN session_id = ? "
            "THEN json_set(meta, '$.merged_from', ?) ELSE meta END WHERE profile_id = ? AND id = ?",
            [
                (into_id, -1 - i, other_id, other.key, self._profile_id, row["id"])
                for i, row in enumerate(rows)
            ],
        )
        self._conn.execute(
            "UPDATE messages SET seq = -1 - seq WHERE profile_id = ? AND session_id = ?",
            (self._profile_id, into_id),
        )
        self._conn.execute(
            "DELETE FROM session_threads WHERE profile_id = ? AND session_id IN (?, ?)",
            (self._profile_id, into_id, other_id),
        )
        self._conn.execute(
            "DELETE FROM sessions WHERE profile_id = ? AND id = ?", (self._profile_id, other_id)
        )
        merged = into.model_copy(
            update={
                "started_at": min(into.started_at, other.started_at),
                "last_message_at": max(into.last_message_at, other.last_message_at),
                "status": SessionStatus.OPEN,
            }
        )
        self._conn.execute(
            "UPDATE sessions SET started_at = ?, last_message_at = ?, status = ? "
            "WHERE profile_id = ? AND id = ?",
            (
                ts(merged.started_at),
                ts(merged.last_message_at),
                merged.status.value,
                self._profile_id,
                into_id,
            ),
        )
        return merged

    def _live(self, session_id: str) -> Session:
        row = self._conn.execute(
            "SELECT * FROM sessions WHERE profile_id = ? AND id = ?",
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
