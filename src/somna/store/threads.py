"""How a live thread changes, for both backends: its running summary, and merging two sessions.

`ThreadQueries` holds the decisions (which sessions may change, in what order
merged messages are numbered, what the merged session spans); its statements
read the same on both backends, but for the few a backend supplies.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence

from somna.errors import ConflictStateError, NotFoundError
from somna.model import Session, SessionStatus
from somna.store.base import ThreadState
from somna.store.columns import instant, session_from_row
from somna.store.sessions import LIVE
from somna.store.sql import Statements

__all__ = ["ThreadQueries"]


class ThreadQueries(Statements):
    """Mixed into a backend's scope: the live threads of one profile."""

    _profile_id: str

    def thread_state(self, session_id: str) -> ThreadState | None:
        row = self._one(
            "SELECT session_id, folded_seq, summary, updated_at FROM session_threads "
            "WHERE profile_id = :profile AND session_id = :session",
            {"profile": self._profile_id, "session": session_id},
        )
        if row is None:
            return None
        return ThreadState(
            row["session_id"], row["folded_seq"], row["summary"], instant(row["updated_at"])
        )

    def save_thread_state(self, state: ThreadState) -> None:
        self._live(state.session_id)
        self._count(
            "INSERT INTO session_threads (session_id, profile_id, folded_seq, summary, updated_at) "
            "VALUES (:session, :profile, :folded_seq, :summary, :updated_at) "
            "ON CONFLICT (session_id) DO UPDATE SET folded_seq = excluded.folded_seq, "
            "summary = excluded.summary, updated_at = excluded.updated_at",
            {"session": state.session_id, "profile": self._profile_id,
             "folded_seq": state.folded_seq, "summary": state.summary,
             "updated_at": state.updated_at},
        )  # fmt: skip

    def merge_sessions(self, into_id: str, other_id: str) -> Session:
        into, other = self._live(into_id), self._live(other_id)
        both = {"profile": self._profile_id, "into": into_id, "other": other_id}
        # In time order; at the same instant, the kept session's messages first.
        rows = self._all(
            "SELECT id FROM messages WHERE profile_id = :profile "
            "AND session_id IN (:into, :other) ORDER BY created_at, session_id = :other, seq",
            both,
        )
        self._renumber_into(into_id, other_id, other.key, [row["id"] for row in rows])
        self._count(
            "DELETE FROM session_threads WHERE profile_id = :profile "
            "AND session_id IN (:into, :other)",
            both,
        )
        self._count("DELETE FROM sessions WHERE profile_id = :profile AND id = :other", both)
        merged = into.model_copy(
            update={
                "started_at": min(into.started_at, other.started_at),
                "last_message_at": max(into.last_message_at, other.last_message_at),
                "status": SessionStatus.OPEN,
            }
        )
        self._count(
            "UPDATE sessions SET started_at = :started_at, last_message_at = :last_message_at, "
            "status = :status WHERE profile_id = :profile AND id = :into",
            {**both, "started_at": merged.started_at, "last_message_at": merged.last_message_at,
             "status": merged.status.value},
        )  # fmt: skip
        return merged

    def _live(self, session_id: str) -> Session:
        row = self._one(
            "SELECT * FROM sessions WHERE profile_id = :profile AND id = :id",
            {"profile": self._profile_id, "id": session_id},
        )
        if row is None:
            raise NotFoundError(f"There is no session with id {session_id!r} in this profile.")
        session = session_from_row(row)
        if session.status not in LIVE:
            raise ConflictStateError(
                f"Session {session.key!r} was already consolidated; only live sessions change."
            )
        return session

    # -- what differs between the backends -------------------------------------------------

    @abstractmethod
    def _renumber_into(
        self, into_id: str, other_id: str, other_key: str, ordered: Sequence[str]
    ) -> None:
        """Move the messages into `into_id` as seq 0, 1, ... in `ordered` order, marking
        those of `other_id` with `meta.merged_from = other_key`. Two passes through
        negative numbers, so (session_id, seq) stays unique throughout."""
