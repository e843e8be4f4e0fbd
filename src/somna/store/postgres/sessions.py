"""The conversation side of a Postgres scope: sessions, messages, leases, archive, cursors."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from psycopg import Cursor

from somna.errors import ConflictStateError, InvalidInputError
from somna.model import Message, Session, SessionStatus, new_id
from somna.store.base import NewMessage, SourceCursor
from somna.store.postgres.rows import MESSAGE_COLUMNS, jsonb, message_from_row, session_from_row

__all__ = ["SessionQueries"]

_LIVE = sorted(s.value for s in (SessionStatus.OPEN, SessionStatus.CLOSED))
# Sessions a consolidation worker may take: live, quiet long enough, and not held.
_DUE = (
    "profile_id = %(profile)s AND status = ANY(%(live)s) AND last_message_at <= %(idle_before)s "
    "AND (lease_until IS NULL OR lease_until <= %(now)s) "
    "AND (next_attempt_at IS NULL OR next_attempt_at <= %(now)s)"
)


class SessionQueries:
    """Session and message queries of one profile's transaction (mixed into the scope)."""

    _cur: Cursor[dict[str, Any]]
    _profile_id: str

    def latest_session(self, key: str) -> Session | None:
        row = self._cur.execute(
            "SELECT * FROM sessions WHERE profile_id = %s AND key = %s "
            "ORDER BY started_at DESC, id DESC LIMIT 1",
            (self._profile_id, key),
        ).fetchone()
        return session_from_row(row) if row else None

    def sessions(self, limit: int = 100) -> list[Session]:
        rows = self._cur.execute(
            "SELECT * FROM sessions WHERE profile_id = %s "
            "ORDER BY started_at DESC, id DESC LIMIT %s",
            (self._profile_id, limit),
        ).fetchall()
        return [session_from_row(row) for row in rows]

    def window(self, key: str, n: int) -> list[Message]:
        rows = self._cur.execute(
            "SELECT m.id, m.session_id, m.seq, m.role, m.content, m.created_at, m.meta "
            "FROM messages m JOIN sessions s "
            "ON s.profile_id = m.profile_id AND s.id = m.session_id "
            "WHERE s.profile_id = %s AND s.key = %s "
            "ORDER BY m.created_at DESC, s.started_at DESC, m.seq DESC LIMIT %s",
            (self._profile_id, key, n),
        ).fetchall()
        return [message_from_row(row) for row in reversed(rows)]

    def session_messages(self, session_id: str) -> list[Message]:
        rows = self._cur.execute(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE profile_id = %s AND session_id = %s "
            "ORDER BY seq",
            (self._profile_id, session_id),
        ).fetchall()
        return [message_from_row(row) for row in rows]

    def messages_by_id(self, message_ids: Sequence[str]) -> list[Message]:
        if not message_ids:
            return []
        rows = self._cur.execute(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE profile_id = %(profile)s "
            f"AND id = ANY(%(ids)s) UNION ALL SELECT {MESSAGE_COLUMNS} FROM archived_messages "
            "WHERE profile_id = %(profile)s AND id = ANY(%(ids)s)",
            {"profile": self._profile_id, "ids": list(message_ids)},
        ).fetchall()
        return [message_from_row(row) for row in rows]

    def add_messages(self, key: str, messages: Sequence[NewMessage]) -> Session:
        row = self._cur.execute(
            "SELECT * FROM sessions WHERE profile_id = %s AND key = %s AND status = ANY(%s)",
            (self._profile_id, key, _LIVE),
        ).fetchone()
        first = min(m.created_at for m in messages)
        last = max(m.created_at for m in messages)
        if row is None:
            session = Session(
                profile_id=self._profile_id, key=key, started_at=first, last_message_at=last
            )
            self._cur.execute(
                "INSERT INTO sessions (id, profile_id, key, started_at, last_message_at, status) "
                "VALUES (%s, %s, %s, %s, %s, %s)",
                (session.id, self._profile_id, key, first, last, session.status.value),
            )
            seq = 0
        else:
            session = session_from_row(row)
            session.last_message_at = max(session.last_message_at, last)
            session.status = SessionStatus.OPEN
            self._cur.execute(
                "UPDATE sessions SET last_message_at = %s, status = %s "
                "WHERE id = %s AND profile_id = %s",
                (session.last_message_at, session.status.value, session.id, self._profile_id),
            )
            found = self._cur.execute(
                "SELECT coalesce(max(seq) + 1, 0) AS next FROM messages "
                "WHERE profile_id = %s AND session_id = %s",
                (self._profile_id, session.id),
            ).fetchone()
            seq = int(found["next"]) if found else 0
        self._cur.executemany(
            "INSERT INTO messages (id, session_id, profile_id, seq, role, content, created_at, "
            "meta) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            [
                (
                    new_id("msg"),
                    session.id,
                    self._profile_id,
                    seq + offset,
                    message.role.value,
                    message.content,
                    message.created_at,
                    jsonb(message.meta),
                )
                for offset, message in enumerate(messages)
            ],
        )
        return session

    # -- consolidation leases -----------------------------------------------------------

    def due_sessions(self, *, idle_before: datetime, now: datetime, limit: int) -> list[Session]:
        rows = self._cur.execute(
            f"SELECT * FROM sessions WHERE {_DUE} ORDER BY last_message_at, id LIMIT %(limit)s",
            self._due_params(idle_before, now, limit),
        ).fetchall()
        return [session_from_row(row) for row in rows]

    def held_sessions(self, *, idle_before: datetime, now: datetime) -> list[Session]:
        rows = self._cur.execute(
            "SELECT * FROM sessions WHERE profile_id = %s AND status = ANY(%s) "
            "AND last_message_at <= %s AND lease_until > %s ORDER BY lease_until",
            (self._profile_id, _LIVE, idle_before, now),
        ).fetchall()
        return [session_from_row(row) for row in rows]

    def lease_sessions(
        self, *, idle_before: datetime, now: datetime, owner: str, until: datetime, limit: int
    ) -> list[Session]:
        # SKIP LOCKED: a session another worker is leasing right now is left to it.
        rows = self._cur.execute(
            "UPDATE sessions SET lease_owner = %(owner)s, lease_until = %(until)s "
            f"WHERE profile_id = %(profile)s AND id IN (SELECT id FROM sessions WHERE {_DUE} "
            "ORDER BY last_message_at, id LIMIT %(limit)s FOR UPDATE SKIP LOCKED) RETURNING *",
            {**self._due_params(idle_before, now, limit), "owner": owner, "until": until},
        ).fetchall()
        sessions = [session_from_row(row) for row in rows]
        return sorted(sessions, key=lambda s: (s.last_message_at, s.id))

    def _due_params(self, idle_before: datetime, now: datetime, limit: int) -> dict[str, Any]:
        return {
            "profile": self._profile_id,
            "live": _LIVE,
            "idle_before": idle_before,
            "now": now,
            "limit": limit,
        }

    def release_session(self, session_id: str, owner: str, *, retry_at: datetime | None) -> None:
        self._cur.execute(
            "UPDATE sessions SET lease_owner = NULL, lease_until = NULL, "
            "attempts = attempts + %s, next_attempt_at = coalesce(%s, next_attempt_at) "
            "WHERE profile_id = %s AND id = %s AND lease_owner = %s",
            (int(retry_at is not None), retry_at, self._profile_id, session_id, owner),
        )

    def renew_lease(self, session_id: str, owner: str, *, until: datetime) -> bool:
        renewed = self._cur.execute(
            "UPDATE sessions SET lease_until = %s WHERE profile_id = %s AND id = %s "
            "AND lease_owner = %s AND status = ANY(%s)",
            (until, self._profile_id, session_id, owner, _LIVE),
        ).rowcount
        return bool(renewed)

    def finish_session(
        self,
        session_id: str,
        owner: str,
        *,
        at: datetime,
        purge_after: datetime,
        through_seq: int,
    ) -> int:
        held = self._cur.execute(
            "UPDATE sessions SET status = 'archived', consolidated_at = %s, lease_owner = NULL, "
            "lease_until = NULL WHERE profile_id = %s AND id = %s AND lease_owner = %s "
            "AND status = ANY(%s)",
            (at, self._profile_id, session_id, owner, _LIVE),
        ).rowcount
        if not held:
            raise ConflictStateError(
                f"Session {session_id!r} is not leased by {owner!r} any more; "
                "another worker has taken it."
            )
        moved = self._cur.execute(
            "WITH moved AS (DELETE FROM messages WHERE profile_id = %s AND session_id = %s "
            "AND seq <= %s RETURNING *) INSERT INTO archived_messages (id, session_id, "
            "profile_id, seq, role, content, created_at, meta, archived_at, purge_after) "
            "SELECT id, session_id, profile_id, seq, role, content, created_at, meta, %s, %s "
            "FROM moved",
            (self._profile_id, session_id, through_seq, at, purge_after),
        ).rowcount
        self._reopen_unread(session_id, through_seq)
        return int(moved)

    def _reopen_unread(self, session_id: str, through_seq: int) -> None:
        """Messages that arrived while the session was read move to a new live session."""
        span = self._cur.execute(
            "SELECT min(created_at) AS first, max(created_at) AS last FROM messages "
            "WHERE profile_id = %s AND session_id = %s",
            (self._profile_id, session_id),
        ).fetchone()
        if span is None or span["first"] is None:
            return
        fresh = new_id("ses")
        self._cur.execute(
            "INSERT INTO sessions (id, profile_id, key, started_at, last_message_at, status) "
            "SELECT %s, profile_id, key, %s, %s, 'open' FROM sessions "
            "WHERE profile_id = %s AND id = %s",
            (fresh, span["first"], span["last"], self._profile_id, session_id),
        )
        self._cur.execute(
            "UPDATE messages SET session_id = %s, seq = seq - %s WHERE profile_id = %s "
            "AND session_id = %s",
            (fresh, through_seq + 1, self._profile_id, session_id),
        )

    def purge_archive(self, now: datetime) -> int:
        purged = self._cur.execute(
            "DELETE FROM archived_messages WHERE profile_id = %s AND purge_after <= %s",
            (self._profile_id, now),
        ).rowcount
        return int(purged)

    # -- source cursors -----------------------------------------------------------------

    def save_source_cursor(self, cursor: SourceCursor, *, expected_last_row_id: int | None) -> None:
        if cursor.profile_id != self._profile_id:
            raise InvalidInputError(
                f"A cursor of profile {cursor.profile_id!r} cannot be saved in profile "
                f"{self._profile_id!r}."
            )
        params = {**vars(cursor), "expected": expected_last_row_id}
        if expected_last_row_id is None:
            saved = self._cur.execute(
                "INSERT INTO source_cursors (profile_id, source, key, segment, session_key, "
                "after_row_id, last_row_id, last_change_seen_at, purged_at) VALUES "
                "(%(profile_id)s, %(source)s, %(key)s, %(segment)s, %(session_key)s, "
                "%(after_row_id)s, %(last_row_id)s, %(last_change_seen_at)s, %(purged_at)s) "
                "ON CONFLICT DO NOTHING",
                params,
            ).rowcount
        else:
            saved = self._cur.execute(
                "UPDATE source_cursors SET session_key = %(session_key)s, last_row_id = "
                "%(last_row_id)s, last_change_seen_at = %(last_change_seen_at)s, purged_at = "
                "%(purged_at)s WHERE profile_id = %(profile_id)s AND source = %(source)s "
                "AND key = %(key)s AND segment = %(segment)s AND last_row_id = %(expected)s",
                params,
            ).rowcount
        if not saved:
            raise ConflictStateError(
                f"The cursor of {cursor.key!r} (segment {cursor.segment}) in {cursor.source!r} "
                "moved since it was read: another import of that source ran at the same time. "
                "Nothing was written; run the import again."
            )
