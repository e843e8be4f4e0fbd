"""What every backend checks before it writes a `Change`: the same rules, in one place."""

from __future__ import annotations

from collections.abc import Iterable

from somna.errors import InvalidInputError, StoreError
from somna.model.lifecycle import Change

__all__ = ["check_change", "require_facts"]


def check_change(change: Change, profile_id: str) -> list[str]:
    """Refuse a change that would break history (invariant 4) or cross profiles (7).

    Returns the ids of facts the change refers to without carrying them (evidence,
    events or conflicts about stored facts): the backend must find each of them
    in the profile, with `require_facts`.
    """
    with_events = {event.fact_id for event in change.events}
    for fact in change.facts:
        if fact.profile_id != profile_id:
            raise InvalidInputError(
                f"Fact {fact.id!r} belongs to profile {fact.profile_id!r}, not {profile_id!r}."
            )
        if fact.id not in with_events:
            raise StoreError(f"Refusing to change fact {fact.id!r} without a history event.")
    for conflict in change.conflicts:
        if conflict.profile_id != profile_id:
            raise InvalidInputError(
                f"Conflict {conflict.id!r} does not belong to profile {profile_id!r}."
            )
    in_change = {fact.id for fact in change.facts}
    referenced = {e.fact_id for e in change.evidence} | with_events
    referenced |= {c.fact_a_id for c in change.conflicts} | {c.fact_b_id for c in change.conflicts}
    return sorted(referenced - in_change)


def require_facts(profile_id: str, wanted: Iterable[str], found: Iterable[str]) -> None:
    """Raise for the first wanted fact id that the profile does not have."""
    known = set(found)
    for fact_id in wanted:
        if fact_id not in known:
            raise InvalidInputError(f"Profile {profile_id!r} has no fact with id {fact_id!r}.")
