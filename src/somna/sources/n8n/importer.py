"""The import of a chat table's new rows into a store, by watermarks, and the purge of
what was consolidated (see `somna.sources.n8n` for the whole story)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from somna.errors import InvalidInputError
from somna.model import Profile, Session, SessionStatus, utc
from somna.sources.n8n.messages import RowKind, SourceRow, read_chat_message
from somna.sources.n8n.names import ProfileFrom, session_key
from somna.sources.n8n.table import N8nTable
from somna.sources.tombstones import Tombstones
from somna.store import NewMessage, SourceCursor, Store, Writer

__all__ = ["N8nImport", "N8nReport"]

_LIVE = (SessionStatus.OPEN, SessionStatus.CLOSED)


@dataclass
class N8nReport:
    """What one import did: `kinds` counts the rows kept by kind, `skipped` those left out."""

    source: str
    rows: int = 0
    messages: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    sessions: int = 0
    new_sessions: int = 0
    profiles: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    purged_sessions: int = 0
    purged_rows: int = 0
    forgotten_rows: int = 0
    """Rows of profiles erased by `forget` (a tombstone), left out and read again next time."""

    @property
    def skipped_rows(self) -> int:
        return sum(self.skipped.values())


class N8nImport:
    """Imports the new rows of one chat table into a store; purges what was consolidated.

    >>> with N8nTable(dsn) as table:  # doctest: +SKIP
    ...     report = N8nImport(store, table, idle_hours=3, clock=utcnow).run()

    `source` names the table among the store's cursors (default `table.name`):
    give one to each of two n8n instances whose database and table names are
    the same. `batch_rows` bounds the rows read at once. The rows of a profile
    erased by `forget` are skipped (`somna.sources.tombstones`) unless
    `allow_forgotten` admits it again.
    """

    def __init__(
        self,
        store: Store,
        table: N8nTable,
        *,
        idle_hours: float,
        clock: Callable[[], datetime],
        profile_from: ProfileFrom | None = None,
        source: str | None = None,
        batch_rows: int = 1000,
        allow_forgotten: bool = False,
    ) -> None:
        if idle_hours < 0:
            raise InvalidInputError(f"idle_hours must be 0 or more, not {idle_hours}.")
        if batch_rows < 1:
            raise InvalidInputError(f"batch_rows must be at least 1, not {batch_rows}.")
        self.store = store
        self.table = table
        self.idle = timedelta(hours=idle_hours)
        self.clock = clock
        self.profile_from = profile_from or ProfileFrom()
        self.source = source or table.name
        self.batch_rows = batch_rows
        self.allow_forgotten = allow_forgotten
        self._profiles: set[str] = set()
        self._touched: set[tuple[str, str]] = set()  # (profile, session key) given messages
        self._opened: set[tuple[str, str]] = set()  # those of them that this run opened

    def run(self, *, purge: bool = False) -> N8nReport:
        """Import every new row; then, with `purge`, delete the archived sessions' rows."""
        report = N8nReport(self.source)
        self._profiles.clear()  # a profile may have been erased since the last run
        self._touched.clear()
        self._opened.clear()
        self._import(report)
        report.sessions, report.new_sessions = len(self._touched), len(self._opened)
        if purge:
            self._purge(report)
        return report

    # -- import ---------------------------------------------------------------------------

    def _import(self, report: N8nReport) -> None:
        latest = {c.key: c for c in self.store.source_cursors(self.source)}  # max segment wins
        forgotten = Tombstones(self.store, allow_forgotten=self.allow_forgotten)
        above = 0
        while True:
            watermarks = {key: cursor.last_row_id for key, cursor in latest.items()}
            rows = self.table.read(watermarks, above=above, limit=self.batch_rows)
            if not rows:
                return
            report.rows += len(rows)
            above = rows[-1].id
            now = utc(self.clock())
            grouped: dict[str, dict[str, list[SourceRow]]] = {}
            for row in rows:
                profile = self.profile_from.profile_for(row.session_id)
                grouped.setdefault(profile, {}).setdefault(row.session_id, []).append(row)
            for profile_id, conversations in grouped.items():
                if forgotten.skips(profile_id):
                    report.forgotten_rows += sum(len(taken) for taken in conversations.values())
                    continue
                self._ensure_profile(profile_id, next(iter(conversations)), now, report)
                with self.store.write(profile_id) as tx:
                    for key, taken in conversations.items():
                        latest[key] = self._take(tx, key, taken, latest.get(key), now, report)
            if len(rows) < self.batch_rows:
                return

    def _ensure_profile(self, profile_id: str, key: str, now: datetime, report: N8nReport) -> None:
        if profile_id in self._profiles or self.store.get_profile(profile_id) is not None:
            self._profiles.add(profile_id)
            return
        mapping = self.profile_from
        name = mapping.user_of(key)
        if mapping.fixed is not None:
            name = profile_id
        try:
            self.store.create_profile(Profile(id=profile_id, name=name, created_at=now))
            report.profiles += 1
        except InvalidInputError:
            if self.store.get_profile(profile_id) is None:
                raise  # not a profile created meanwhile by another import: a real refusal
        self._profiles.add(profile_id)

    def _take(
        self,
        tx: Writer,
        key: str,
        rows: list[SourceRow],
        cursor: SourceCursor | None,
        now: datetime,
        report: N8nReport,
    ) -> SourceCursor:
        """Add one source session's new rows to its segment, or to a new one; move its cursor."""
        messages = []
        for row in rows:
            try:
                said = read_chat_message(row.message)
            except ValueError as exc:
                report.skipped[str(exc)] = report.skipped.get(str(exc), 0) + 1
                continue
            report.kinds[said.kind.value] = report.kinds.get(said.kind.value, 0) + 1
            meta: dict[str, Any] = {"source": "n8n", "row_id": row.id, "session_id": key}
            if said.kind is RowKind.TOOL_CALL:
                meta["tool_call"] = True  # kept for provenance, never a source of facts
            messages.append(NewMessage(said.role, said.content, now, meta))
        last = rows[-1].id
        expected: int | None
        if cursor is not None and not self._opens_segment(tx, cursor, now):
            moved = replace(cursor, last_row_id=last, last_change_seen_at=now)
            expected = cursor.last_row_id
        else:
            segment = 1 if cursor is None else cursor.segment + 1
            moved = SourceCursor(
                source=self.source,
                key=key,
                segment=segment,
                profile_id=tx.profile_id,
                session_key=session_key(key, segment),
                after_row_id=0 if cursor is None else cursor.last_row_id,
                last_row_id=last,
                last_change_seen_at=now,
            )
            expected = None
        if messages:
            before = tx.latest_session(moved.session_key)
            tx.add_messages(moved.session_key, messages)
            report.messages += len(messages)
            self._touched.add((tx.profile_id, moved.session_key))
            if before is None or before.status not in _LIVE:
                self._opened.add((tx.profile_id, moved.session_key))
        tx.save_source_cursor(moved, expected_last_row_id=expected)
        return moved

    def _opens_segment(self, tx: Writer, cursor: SourceCursor, now: datetime) -> bool:
        """Whether new rows after `cursor` start the next Somna session instead of its own."""
        if cursor.profile_id != tx.profile_id:
            return True  # the mapping changed: the new profile gets a new session
        session = tx.latest_session(cursor.session_key)
        if session is None:
            return False  # nothing of this segment was kept (malformed rows): go on with it
        if session.status not in _LIVE:
            return True  # consolidated already
        return now - cursor.last_change_seen_at >= self.idle

    # -- purge ----------------------------------------------------------------------------

    def _purge(self, report: N8nReport) -> None:
        pending: dict[str, list[SourceCursor]] = {}
        for cursor in self.store.source_cursors(self.source):
            if cursor.purged_at is None:
                pending.setdefault(cursor.profile_id, []).append(cursor)
        for profile_id, cursors in pending.items():
            with self.store.read(profile_id) as tx:
                archived = [c for c in cursors if _archived(tx.latest_session(c.session_key))]
            for cursor in archived:
                # One source transaction per session, then its cursor marks it purged: a
                # crash in between deletes nothing more the next time, and marks it then.
                report.purged_rows += self.table.delete_rows(
                    cursor.key, cursor.after_row_id, cursor.last_row_id
                )
                purged = replace(cursor, purged_at=utc(self.clock()))
                with self.store.write(profile_id) as tx:
                    tx.save_source_cursor(purged, expected_last_row_id=cursor.last_row_id)
                report.purged_sessions += 1


def _archived(session: Session | None) -> bool:
    return session is not None and session.status is SessionStatus.ARCHIVED
