"""Capturing a transcript that grows: a coding assistant's session file, read again each time
the session ends, adds only the turns said since the last capture of its key."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from somna.model import Session
from somna.sources.base import Turn
from somna.store import Store

__all__ = ["Captured", "as_messages", "capture", "new_turns"]


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
    add: Callable[[str, str, list[dict[str, Any]]], Session],
    profile: str,
    session_key: str,
    turns: Sequence[Turn],
    device: str | None,
) -> Captured:
    """Add the new turns of a transcript to `session_key` (nothing new: nothing written)."""
    fresh = new_turns(store, profile, session_key, turns)
    session = add(profile, session_key, as_messages(fresh, device)) if fresh else None
    return Captured(profile, session_key, session, len(fresh), len(turns) - len(fresh))
