"""How sessions take messages, are leased and finished, for both backends.

`SessionQueries` holds the decisions: which session a new message joins (the
live one of its key, else a new one), how a session's window is chosen, which
sessions are due and in what order leased ones come back, what a finished
session leaves behind (messages that came after the read open a new live
session), and when a source cursor counts as moved. Its statements read the
same on both backends; a backend supplies the few that do not.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import asdict
from datetime import datetime

from somna.errors import ConflictStateError, InvalidInputError
from somna.model import Message, Session, SessionStatus, new_id
from somna.store.base import Finished, NewMessage, SourceCursor
from somna.store.columns import MESSAGE_COLUMNS, MESSAGE_FIELDS, Row, session_from_row
from somna.store.sql import Json, Params, Statements

__all__ = ["LIVE", "LIVE_SQL", "SOURCE_CURSORS", "SessionQueries"]

LIVE = (SessionStatus.OPEN, SessionStatus.CLOSED)
"""The statuses of a session that may still change: not consolidated yet."""
LIVE_SQL = f"status IN ({', '.join(repr(s.value) for s in LIVE)})"


SOURCE_CURSORS = (
    "SELECT * FROM source_cursors c WHERE source = :source AND (purged_at IS NULL OR "
    "segment = (SELECT max(segment) FROM source_cursors d WHERE d.source = c.source "
    "AND d.key = c.key)) ORDER BY key, segment, profile_id"
)
"""The cursors of one source (`Store.source_cursors`): the latest segment of every key,
and every segment not purged yet."""

# Sessions a consolidation worker may take: live, quiet long enough, and not held.
_DUE = (
    f"profile_id = :profile AND {LIVE_SQL} AND last_message_at <= :idle_before "
    "AND (lease_until IS NULL OR lease_until <= :now) "
    "AND (next_attempt_at IS NULL OR next_attempt_at <= :now)"
)


class SessionQueries(Statements):
    """Mixed into a backend's scope: the sessions and messages of one profile."""

    _profile_id: str
    _SKIP_LOCKED = ""
    """What the backend adds to the due sessions' subquery of a lease, to pass over rows
    another worker is leasing at that moment."""

    def latest_session(self, key: str) -> Session | None:
        row = self._one(
            "SELECT * FROM sessions WHERE profile_id = :profile AND key = :key "
            "ORDER BY started_at DESC, id DESC LIMIT 1",
            {"profile": self._profile_id, "key": key},
        )
        return session_from_row(row) if row else None

    def sessions(self, limit: int = 100) -> list[Session]:
        rows = self._all(
            "SELECT * FROM sessions WHERE profile_id = :profile "
            "ORDER BY started_at DESC, id DESC LIMIT :limit",
            {"profile": self._profile_id, "limit": limit},
        )
        return [session_from_row(row) for row in rows]

    def window(self, key: str, n: int) -> list[Message]:
        # Newest first: by time, then the later session, then the later turn.
        rows = self._all(
            f"SELECT {', '.join(f'm.{c}' for c in MESSAGE_FIELDS)} FROM messages m "
            "JOIN sessions s ON s.profile_id = m.profile_id AND s.id = m.session_id "
            "WHERE s.profile_id = :profile AND s.key = :key "
            "ORDER BY m.created_at DESC, s.started_at DESC, m.seq DESC LIMIT :n",
            {"profile": self._profile_id, "key": key, "n": n},
        )
        return [self._message(row) for row in reversed(rows)]

    def session_messages(self, session_id: str) -> list[Message]:
        rows = self._all(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE profile_id = :profile "
            "AND session_id = :id ORDER BY seq",
            {"profile": self._profile_id, "id": session_id},
        )
        return [self._message(row) for row in rows]

    def session_transcript(self, session_id: str) -> list[Message]:
        rows = self._all(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE profile_id = :profile "
            f"AND session_id = :id UNION ALL SELECT {MESSAGE_COLUMNS} FROM archived_messages "
            "WHERE profile_id = :profile AND session_id = :id ORDER BY seq",
            {"profile": self._profile_id, "id": session_id},
        )
        return [self._message(row) for row in rows]

    def messages_by_id(self, message_ids: Sequence[str]) -> list[Message]:
        if not message_ids:
            return []
        where, params = self._one_of("id", "id", list(message_ids))
        rows = self._all(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE profile_id = :profile AND {where} "
            f"UNION ALL SELECT {MESSAGE_COLUMNS} FROM archived_messages "
            f"WHERE profile_id = :profile AND {where}",
            {"profile": self._profile_id, **params},
        )
        return [self._message(row) for row in rows]

    def _message(self, row: Row) -> Message:
        return Message.model_validate(
            {**{name: row[name] for name in MESSAGE_FIELDS}, "meta": self._json(row["meta"])}
        )

    # -- adding messages -------------------------------------------------------------------

    def add_messages(self, key: str, messages: Sequence[NewMessage]) -> Session:
        first = min(m.created_at for m in messages)
        last = max(m.created_at for m in messages)
        profile = self._profile_id
        row = self._one(
            f"SELECT * FROM sessions WHERE profile_id = :profile AND key = :key AND {LIVE_SQL}",
            {"profile": profile, "key": key},
        )
        if row is None:
            session = Session(profile_id=profile, key=key, started_at=first, last_message_at=last)
            self._count(
                "INSERT INTO sessions (id, profile_id, key, started_at, last_message_at, status) "
                "VALUES (:id, :profile, :key, :first, :last, :status)",
                {"id": session.id, "profile": profile, "key": key, "first": first, "last": last,
                 "status": session.status.value},
            )  # fmt: skip
            seq = 0
        else:
            session = session_from_row(row)
            session.last_message_at = max(session.last_message_at, last)
            session.status = SessionStatus.OPEN
            self._count(
                "UPDATE sessions SET last_message_at = :last, status = :status "
                "WHERE profile_id = :profile AND id = :id",
                {"last": session.last_message_at, "status": session.status.value,
                 "profile": profile, "id": session.id},
            )  # fmt: skip
            found = self._one(
                "SELECT coalesce(max(seq) + 1, 0) AS next FROM messages "
                "WHERE profile_id = :profile AND session_id = :session",
                {"profile": profile, "session": session.id},
            )
            seq = int(found["next"]) if found else 0
        self._many(
            "INSERT INTO messages (id, session_id, profile_id, seq, role, content, created_at, "
            "meta) VALUES (:id, :session, :profile, :seq, :role, :content, :at, :meta)",
            [
                {"id": new_id("msg"), "session": session.id, "profile": profile,
                 "seq": seq + offset, "role": message.role.value, "content": message.content,
                 "at": message.created_at, "meta": Json(message.meta)}
                for offset, message in enumerate(messages)
            ],
        )  # fmt: skip
        return session

    # -- consolidation leases --------------------------------------------------------------

    def due_sessions(self, *, idle_before: datetime, now: datetime, limit: int) -> list[Session]:
        rows = self._all(
            f"SELECT * FROM sessions WHERE {_DUE} ORDER BY last_message_at, id LIMIT :limit",
            self._due(idle_before, now, limit),
        )
        return [session_from_row(row) for row in rows]

    def held_sessions(self, *, idle_before: datetime, now: datetime) -> list[Session]:
        rows = self._all(
            f"SELECT * FROM sessions WHERE profile_id = :profile AND {LIVE_SQL} "
            "AND last_message_at <= :idle_before AND lease_until > :now ORDER BY lease_until",
            {"profile": self._profile_id, "idle_before": idle_before, "now": now},
        )
        return [session_from_row(row) for row in rows]

    def lease_owners(self, *, now: datetime) -> list[str]:
        rows = self._all(
            "SELECT DISTINCT lease_owner FROM sessions WHERE profile_id = :profile "
            f"AND {LIVE_SQL} AND lease_owner IS NOT NULL AND lease_until > :now "
            "ORDER BY lease_owner",
            {"profile": self._profile_id, "now": now},
        )
        return [str(row["lease_owner"]) for row in rows]

    def lease_sessions(
        self, *, idle_before: datetime, now: datetime, owner: str, until: datetime, limit: int
    ) -> list[Session]:
        rows = self._all(
            "UPDATE sessions SET lease_owner = :owner, lease_until = :until "
            f"WHERE profile_id = :profile AND id IN (SELECT id FROM sessions WHERE {_DUE} "
            f"ORDER BY last_message_at, id LIMIT :limit{self._SKIP_LOCKED}) RETURNING *",
            {**self._due(idle_before, now, limit), "owner": owner, "until": until},
        )
        leased = [session_from_row(row) for row in rows]
        return sorted(leased, key=lambda s: (s.last_message_at, s.id))

    def _due(self, idle_before: datetime, now: datetime, limit: int) -> Params:
        return {"profile": self._profile_id, "idle_before": idle_before, "now": now,
                "limit": limit}  # fmt: skip

    def release_session(self, session_id: str, owner: str, *, retry_at: datetime | None) -> None:
        self._count(
            "UPDATE sessions SET lease_owner = NULL, lease_until = NULL, "
            "attempts = attempts + :failed, next_attempt_at = coalesce(:retry_at, next_attempt_at) "
            "WHERE profile_id = :profile AND id = :id AND lease_owner = :owner",
            {"failed": int(retry_at is not None), "retry_at": retry_at,
             "profile": self._profile_id, "id": session_id, "owner": owner},
        )  # fmt: skip

    def release_leases(self, owner: str) -> int:
        return self._count(
            "UPDATE sessions SET lease_owner = NULL, lease_until = NULL "
            "WHERE profile_id = :profile AND lease_owner = :owner",
            {"profile": self._profile_id, "owner": owner},
        )

    def renew_lease(self, session_id: str, owner: str, *, until: datetime) -> bool:
        renewed = self._count(
            "UPDATE sessions SET lease_until = :until WHERE profile_id = :profile AND id = :id "
            f"AND lease_owner = :owner AND {LIVE_SQL}",
            {"until": until, "profile": self._profile_id, "id": session_id, "owner": owner},
        )
        return bool(renewed)

    # -- finishing and the archive ---------------------------------------------------------

    def finish_session(self, finished: Finished) -> int:
        session_id, owner, at = finished.session_id, finished.owner, finished.at
        through_seq = finished.through_seq
        where = {"profile": self._profile_id, "id": session_id}
        held = self._count(
            "UPDATE sessions SET status = 'archived', consolidated_at = :at, lease_owner = NULL, "
            "lease_until = NULL WHERE profile_id = :profile AND id = :id "
            f"AND lease_owner = :owner AND {LIVE_SQL}",
            {**where, "at": at, "owner": owner},
        )
        if not held:
            raise ConflictStateError(
                f"Session {session_id!r} is not leased by {owner!r} any more; "
                "another worker has taken it."
            )
        moved = self._archive_messages(session_id, through_seq, at, finished.purge_after)
        # Messages that arrived while the session was read move to a new live session.
        span = self._one(
            "SELECT min(created_at) AS first, max(created_at) AS last FROM messages "
            "WHERE profile_id = :profile AND session_id = :id",
            where,
        )
        if span is not None and span["first"] is not None:
            fresh = new_id("ses")
            self._count(
                "INSERT INTO sessions (id, profile_id, key, started_at, last_message_at, status) "
                "SELECT :fresh, profile_id, key, :first, :last, 'open' FROM sessions "
                "WHERE profile_id = :profile AND id = :id",
                {**where, "fresh": fresh, "first": span["first"], "last": span["last"]},
            )
            self._count(
                "UPDATE messages SET session_id = :fresh, seq = seq - :shift "
                "WHERE profile_id = :profile AND session_id = :id",
                {**where, "fresh": fresh, "shift": through_seq + 1},
            )
        return moved

    def purge_archive(self, now: datetime) -> int:
        return self._count(
            "DELETE FROM archived_messages WHERE profile_id = :profile AND purge_after <= :now",
            {"profile": self._profile_id, "now": now},
        )

    # -- source cursors --------------------------------------------------------------------

    def save_source_cursor(self, cursor: SourceCursor, *, expected_last_row_id: int | None) -> None:
        if cursor.profile_id != self._profile_id:
            raise InvalidInputError(
                f"A cursor of profile {cursor.profile_id!r} cannot be saved in profile "
                f"{self._profile_id!r}."
            )
        if expected_last_row_id is None:
            saved = self._insert_cursor(cursor)
        else:
            saved = self._count(
                "UPDATE source_cursors SET session_key = :session_key, last_row_id = "
                ":last_row_id, last_change_seen_at = :last_change_seen_at, purged_at = "
                ":purged_at WHERE profile_id = :profile_id AND source = :source AND key = :key "
                "AND segment = :segment AND last_row_id = :expected",
                {**asdict(cursor), "expected": expected_last_row_id},
            )
        if not saved:
            raise ConflictStateError(
                f"The cursor of {cursor.key!r} (segment {cursor.segment}) in {cursor.source!r} "
                "moved since it was read: another import of that source ran at the same time. "
                "Nothing was written; run the import again."
            )

    # -- what differs between the backends -------------------------------------------------

    @abstractmethod
    def _archive_messages(
        self, session_id: str, through_seq: int, at: datetime, purge_after: datetime
    ) -> int:
        """Move the session's messages up to `through_seq` to the archive; how many."""

    def _insert_cursor(self, cursor: SourceCursor) -> int:
        """Add a new segment; 0 when it is there already."""
        return self._count(
            "INSERT INTO source_cursors (profile_id, source, key, segment, session_key, "
            "after_row_id, last_row_id, last_change_seen_at, purged_at) VALUES "
            "(:profile_id, :source, :key, :segment, :session_key, :after_row_id, "
            ":last_row_id, :last_change_seen_at, :purged_at) ON CONFLICT DO NOTHING",
            asdict(cursor),
        )
