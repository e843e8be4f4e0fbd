"""Bringing conversations in: whole ones read from a source (`ingest`), and a transcript that
grows (`capture`): a coding assistant's session file, read again each time the session ends,
adds only the turns said since the last capture of its key."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from somna.memory.inputs import new_message
from somna.memory.results import Ingested
from somna.model import Profile, Session
from somna.sources.base import Conversation, Turn
from somna.store import Store

__all__ = ["Captured", "as_messages", "capture", "ingest", "new_turns"]

AddMessages = Callable[[str, str, list[dict[str, Any]]], Session]
CreateProfile = Callable[[str, str | None, Mapping[str, Any] | None], Profile]


@dataclass(frozen=True)
class Captured:
    """What a capture did: the session the turns went to (None if nothing new), and counts."""

    profile: str
    session_key: str
    session: Session | None
    added: int
    skipped: int


def new_turns(store: Store, profile: str, session_key: str, turns: Sequence[Turn]) -> list[Turn]:
    """The turns said after the latest message already stored under `session_key`."""
    with store.read(profile) as tx:
        latest = tx.latest_session(session_key)
    if latest is None:
        return list(turns)
    return [turn for turn in turns if turn.at > latest.last_message_at]


def as_messages(turns: Sequence[Turn], device: str | None) -> list[dict[str, Any]]:
    """The turns as `add_messages` takes them, stamped with the device they came from."""
    return [{**turn.as_message(), **({"device": device} if device else {})} for turn in turns]


def capture(
    store: Store,
    add: AddMessages,
    profile: str,
    session_key: str,
    turns: Sequence[Turn],
    device: str | None,
) -> Captured:
    """Add the new turns of a transcript to `session_key` (nothing new: nothing written)."""
    fresh = new_turns(store, profile, session_key, turns)
    session = add(profile, session_key, as_messages(fresh, device)) if fresh else None
    return Captured(profile, session_key, session, len(fresh), len(turns) - len(fresh))


def ingest(
    store: Store,
    conversations: Iterable[Conversation],
    now: datetime,
    create: CreateProfile,
    add: AddMessages,
) -> Ingested:
    """Add each conversation whose key its profile does not have yet, creating profiles as
    needed; every message is checked before anything is written."""
    report = Ingested()
    conversations = list(conversations)
    for conversation in conversations:
        for turn in conversation.turns:
            new_message(turn.as_message(), now)
    for conversation in conversations:
        if store.get_profile(conversation.profile) is None:
            create(conversation.profile, conversation.profile_name, conversation.profile_settings)
            report.profiles += 1
        with store.read(conversation.profile) as tx:
            seen = tx.latest_session(conversation.session_key) is not None
        if seen or not conversation.turns:
            report.skipped += 1
            continue
        add(
            conversation.profile,
            conversation.session_key,
            [turn.as_message() for turn in conversation.turns],
        )
        report.sessions += 1
        report.messages += len(conversation.turns)
    return report
