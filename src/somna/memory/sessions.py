"""A profile's conversations across devices: list them, resume the latest, merge two.

A message may carry the id of the device it was typed on (`meta.device`); a
session's device is that of its latest message, so a person who starts on a phone
and goes on at a desk sees one conversation that moved. Merging joins two live
sessions of one profile into one, their turns interleaved by time, so the nightly
job reads (and summarises) one conversation.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from somna.errors import ConflictStateError, InvalidInputError, NotFoundError
from somna.model import Message, Session, SessionStatus, SummaryKind
from somna.store import Reader, Store

__all__ = ["LIVE", "SessionInfo", "Sessions", "device_of", "shown_status"]

LIVE = (SessionStatus.OPEN, SessionStatus.CLOSED)
_SCAN = 5_000  # sessions read to order a profile's conversations by their last message
_PREVIEW = 200


def device_of(messages: Sequence[Message]) -> str | None:
    """The device of the latest message that names one."""
    for message in reversed(messages):
        device = message.meta.get("device")
        if isinstance(device, str) and device:
            return device
    return None


def shown_status(session: Session, now: datetime, idle: timedelta) -> SessionStatus:
    """The session's status as people read it: an open session quiet for `idle` is closed."""
    if session.status is SessionStatus.OPEN and session.last_message_at <= now - idle:
        return SessionStatus.CLOSED
    return session.status


@dataclass(frozen=True)
class SessionInfo:
    """One conversation as a list shows it."""

    session: Session
    status: SessionStatus
    """`closed` once quiet for `idle_hours` (and not yet consolidated)."""
    device: str | None
    messages: int
    last_message: str | None
    """The start of the latest message, while the session still holds it."""
    summary: str | None
    """The nightly summary once consolidated, else the running summary of a long thread."""


class Sessions:
    """The session operations of `Memory`, over one store."""

    def __init__(self, store: Store, idle_hours: float) -> None:
        self._store = store
        self._idle = timedelta(hours=idle_hours)

    def list(
        self,
        profile: str,
        now: datetime,
        *,
        limit: int = 20,
        status: SessionStatus | None = None,
        device: str | None = None,
    ) -> builtins.list[SessionInfo]:
        """The profile's sessions, the latest message first."""
        if limit < 1:
            raise InvalidInputError("The session limit must be at least 1.")
        with self._store.read(profile) as tx:
            found = sorted(
                tx.sessions(limit=_SCAN), key=lambda s: (s.last_message_at, s.id), reverse=True
            )
            infos: builtins.list[SessionInfo] = []
            for session in found:
                info = self._info(tx, session, now)
                if status is not None and info.status is not status:
                    continue
                if device is not None and info.device != device:
                    continue
                infos.append(info)
                if len(infos) == limit:
                    break
            return self._with_summaries(tx, infos)

    def resume(self, profile: str, now: datetime) -> SessionInfo:
        """The live session with the latest message, to go on with from any device."""
        with self._store.read(profile) as tx:
            live = [s for s in tx.sessions(limit=_SCAN) if s.status in LIVE]
            if not live:
                raise NotFoundError(
                    f"Profile {profile!r} has no open session to resume; "
                    "its conversations are all consolidated."
                )
            latest = max(live, key=lambda s: (s.last_message_at, s.id))
            return self._with_summaries(tx, [self._info(tx, latest, now)])[0]

    def merge(self, profile: str, into_key: str, other_key: str, now: datetime) -> SessionInfo:
        """Move the turns of session `other_key` into `into_key`, interleaved by time."""
        if into_key == other_key:
            raise InvalidInputError("A session cannot be merged with itself; name two sessions.")
        with self._store.write(profile) as tx:
            into, other = _live(tx, into_key), _live(tx, other_key)
            merged = tx.merge_sessions(into.id, other.id)
            return self._info(tx, merged, now)

    def _info(self, tx: Reader, session: Session, now: datetime) -> SessionInfo:
        messages = tx.session_transcript(session.id)
        status = shown_status(session, now, self._idle)
        last = " ".join(messages[-1].content.split())[:_PREVIEW] if messages else None
        state = tx.thread_state(session.id) if session.status in LIVE else None
        return SessionInfo(
            session,
            status,
            device_of(messages),
            len(messages),
            last,
            None if state is None else state.summary,
        )

    @staticmethod
    def _with_summaries(
        tx: Reader, infos: builtins.list[SessionInfo]
    ) -> builtins.list[SessionInfo]:
        done = [i for i in infos if i.session.status not in LIVE]
        if not done:
            return infos
        since = min(i.session.started_at for i in done)
        nightly = {
            s.session_id: s.text
            for s in tx.summaries(SummaryKind.SESSION, limit=_SCAN, since=since)
            if s.session_id is not None
        }
        return [
            SessionInfo(
                i.session,
                i.status,
                i.device,
                i.messages,
                i.last_message,
                nightly.get(i.session.id, i.summary),
            )
            for i in infos
        ]


def _live(tx: Reader, key: str) -> Session:
    session = tx.latest_session(key)
    if session is None:
        raise NotFoundError(f"There is no session {key!r} in this profile.")
    if session.status not in LIVE:
        raise ConflictStateError(
            f"Session {key!r} was already consolidated into facts; only live sessions merge."
        )
    return session
