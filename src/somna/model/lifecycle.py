"""The rules of a fact's life, as pure functions.

Each function takes facts as they are and returns a `Change`: the facts as they
must become, plus the events, evidence and conflicts that explain it. A store
applies a `Change` in one transaction, and refuses one that changes a fact
without an event (DESIGN invariant 4), so history can never fall behind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import Any

from somna.model.entities import Conflict, Evidence, Fact, FactEvent, new_id
from somna.model.enums import ConflictStatus, EventAction, FactStatus, Resolution

__all__ = [
    "Change",
    "absorb",
    "correct",
    "create",
    "dispute",
    "expire",
    "reinforce",
    "restore",
    "restore_if_settled",
    "retire",
    "settle",
    "supersede",
    "transition",
    "verify",
]

# How much of the remaining doubt one more observation removes.
_REINFORCE_GAIN = 0.3


@dataclass
class Change:
    """Everything one operation writes; applied atomically by a store."""

    facts: list[Fact] = field(default_factory=list)
    """Facts to insert (new id) or to update (known id)."""
    vectors: dict[str, list[float]] = field(default_factory=dict)
    """Embeddings of new facts, by fact id."""
    evidence: list[Evidence] = field(default_factory=list)
    events: list[FactEvent] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    """Conflicts to insert or update."""

    def merge(self, other: Change) -> Change:
        """This change followed by `other`; a fact changed twice keeps its last state."""
        facts = {fact.id: fact for fact in [*self.facts, *other.facts]}
        conflicts = {c.id: c for c in [*self.conflicts, *other.conflicts]}
        return Change(
            facts=list(facts.values()),
            vectors={**self.vectors, **other.vectors},
            evidence=[*self.evidence, *other.evidence],
            events=[*self.events, *other.events],
            conflicts=list(conflicts.values()),
        )

    def fact(self, fact_id: str) -> Fact:
        """The state this change gives to one of its facts."""
        for candidate in reversed(self.facts):
            if candidate.id == fact_id:
                return candidate
        raise KeyError(fact_id)


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    return value


def transition(
    fact: Fact, action: EventAction, *, at: datetime, actor: str, **changes: Any
) -> tuple[Fact, FactEvent]:
    """The fact with `changes` applied, and the event recording the fields that moved."""
    updated = fact.model_copy(update=changes)
    updated = Fact.model_validate(updated.model_dump())
    before = {k: _plain(getattr(fact, k)) for k in changes if getattr(fact, k) != changes[k]}
    after = {k: _plain(getattr(updated, k)) for k in before}
    event = FactEvent(
        fact_id=fact.id, at=at, action=action, actor=actor, before=before or None, after=after
    )
    return updated, event


def _changed(
    fact: Fact,
    action: EventAction,
    *,
    at: datetime,
    actor: str,
    note: dict[str, Any] | None = None,
    evidence: list[Evidence] = (),  # type: ignore[assignment]
    **changes: Any,
) -> Change:
    """`transition` as a `Change` of one fact, its event noting `note` besides what moved."""
    updated, event = transition(fact, action, at=at, actor=actor, **changes)
    if note:
        event.after = {**(event.after or {}), **note}
    return Change(facts=[updated], evidence=list(evidence), events=[event])


def create(
    fact: Fact,
    *,
    vector: list[float],
    actor: str,
    evidence: list[Evidence] = (),  # type: ignore[assignment]
    note: dict[str, Any] | None = None,
) -> Change:
    event = FactEvent(
        fact_id=fact.id,
        at=fact.recorded_at,
        action=EventAction.CREATED,
        actor=actor,
        after={"text": fact.text, "status": fact.status.value, **(note or {})},
    )
    return Change(facts=[fact], vectors={fact.id: vector}, evidence=list(evidence), events=[event])


def reinforce(
    fact: Fact,
    *,
    at: datetime,
    actor: str,
    evidence: list[Evidence] = (),  # type: ignore[assignment]
) -> Change:
    """The fact was observed again: more confident, fresher, stronger."""
    confidence = round(fact.confidence + (1.0 - fact.confidence) * _REINFORCE_GAIN, 6)
    return _changed(
        fact,
        EventAction.REINFORCED,
        at=at,
        actor=actor,
        evidence=[ev.model_copy(update={"fact_id": fact.id}) for ev in evidence],
        confidence=confidence,
        last_verified_at=at,
        strength=1.0,
    )


def absorb(
    duplicate: Fact, into: Fact, *, evidence: list[Evidence], at: datetime, actor: str
) -> Change:
    """`duplicate` says what `into` says: it is retired, and `into` is reinforced with a copy
    of its evidence (`evidence`, the duplicate's), so every quote stays behind one fact."""
    copies = [e.model_copy(update={"id": new_id("evd")}) for e in evidence]
    retired = retire(duplicate, at=at, actor=actor, reason=f"duplicate of {into.id}")
    return retired.merge(reinforce(into, at=at, actor=actor, evidence=copies))


def _replaced(
    old: Fact, new: Fact, action: EventAction, *, valid_to: datetime, at: datetime, actor: str
) -> Change:
    """`old` gives way to `new` at `at`, holding in the world until `valid_to`."""
    return _changed(
        old,
        action,
        at=at,
        actor=actor,
        status=FactStatus.SUPERSEDED,
        valid_to=valid_to,
        superseded_at=at,
        superseded_by=new.id,
    )


def supersede(old: Fact, new: Fact, *, at: datetime, actor: str) -> Change:
    """`new` replaces `old` in the world from `new.valid_from` on (DESIGN invariant 8)."""
    valid_to = max(new.valid_from, old.valid_from)
    return _replaced(old, new, EventAction.SUPERSEDED, valid_to=valid_to, at=at, actor=actor)


def correct(old: Fact, new: Fact, *, vector: list[float], at: datetime, actor: str) -> Change:
    """`new` is what `old` should always have said: a new version, the old one kept in history.

    The correction takes over the old version's whole valid time, so an as-of
    question about the past gets the corrected text.
    """
    new = new.model_copy(update={"valid_from": old.valid_from})
    replaced = _replaced(old, new, EventAction.UPDATED, valid_to=old.valid_from, at=at, actor=actor)
    return replaced.merge(create(new, vector=vector, actor=actor, note={"corrects": old.id}))


def _withdrawn(
    fact: Fact,
    action: EventAction,
    status: FactStatus,
    *,
    at: datetime,
    actor: str,
    reason: str,
    **changes: Any,
) -> Change:
    """The fact leaves recall with `status`, its event saying why; history keeps it."""
    note = {"reason": reason}
    return _changed(fact, action, at=at, actor=actor, note=note, status=status, **changes)


def retire(fact: Fact, *, at: datetime, actor: str, reason: str) -> Change:
    """A fact no longer stands: it leaves recall with its reason, and stays in history."""
    action, status = EventAction.RETIRED, FactStatus.RETIRED
    return _withdrawn(fact, action, status, at=at, actor=actor, reason=reason, retired_at=at)


def expire(fact: Fact, *, at: datetime, actor: str, reason: str) -> Change:
    """A fact outlived its time to live: it leaves recall, and stays in history."""
    action, status = EventAction.EXPIRED, FactStatus.EXPIRED
    return _withdrawn(fact, action, status, at=at, actor=actor, reason=reason)


def restore(
    fact: Fact,
    *,
    at: datetime,
    actor: str,
    evidence: list[Evidence] = (),  # type: ignore[assignment]
) -> Change:
    """A retired or expired fact said again comes back with its history, instead of a copy.

    It is active again (unverified: saying it again is not confirming it), seen now, with
    a fresh strength and no expiry; the new evidence joins the old.
    """
    return _changed(
        fact,
        EventAction.RESTORED,
        at=at,
        actor=actor,
        note={"was": fact.status.value},
        evidence=evidence,
        status=FactStatus.UNVERIFIED,
        retired_at=None,
        expires_at=None,
        last_verified_at=at,
        strength=1.0,
    )


def dispute(new: Fact, existing: Fact, *, at: datetime, actor: str) -> Change:
    """Two facts disagree and nothing settles it: both leave recall, a pair is opened."""
    conflict = Conflict(
        profile_id=new.profile_id, fact_a_id=existing.id, fact_b_id=new.id, created_at=at
    )
    change = Change(conflicts=[conflict])
    for fact in (existing, new):
        if fact.status is FactStatus.DISPUTED:
            continue
        note = {"conflict": conflict.id}
        disputed = _changed(
            fact, EventAction.DISPUTED, at=at, actor=actor, note=note, status=FactStatus.DISPUTED
        )
        change = change.merge(disputed)
    return change


def restore_if_settled(fact: Fact, *, unsettled: int, at: datetime, actor: str) -> Change:
    """A disputed fact that won its conflict comes back, verified, once no other pair holds it."""
    if fact.status is not FactStatus.DISPUTED or unsettled:
        return Change()
    return verify(fact, at=at, actor=actor, action=EventAction.RESOLVED)


def verify(
    fact: Fact, *, at: datetime, actor: str, action: EventAction = EventAction.VERIFIED
) -> Change:
    """The fact is verified as of `at`: a person approved it, or it won its conflict."""
    return _changed(
        fact, action, at=at, actor=actor, status=FactStatus.VERIFIED, last_verified_at=at
    )


def settle(
    conflict: Conflict,
    resolution: Resolution,
    *,
    at: datetime,
    actor: str,
    correction: Fact | None = None,
) -> Conflict:
    """The conflict as it reads once settled; the facts are handled by the caller.

    `Resolution.DEFER` settles nothing (the conflict is put off, still unsettled), so it
    is refused here rather than stored as a resolution."""
    if resolution is Resolution.DEFER:
        raise ValueError("A deferred conflict is not settled: put it off instead.")
    return conflict.model_copy(
        update={
            "status": ConflictStatus.RESOLVED,
            "resolution": resolution,
            "correction": correction.text if correction else None,
            "correction_fact_id": correction.id if correction else None,
            "resolved_at": at,
            "resolved_by": actor,
        }
    )
