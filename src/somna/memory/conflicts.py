"""Conflicts: listing the pairs that wait for a person, and settling one.

Who loses is retired, who wins comes back once nothing holds it. A fact retired
by one conflict contradicts nothing any more, so its other open pairs settle in
favour of their other side, in the same transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import numpy as np

from somna.errors import ConflictStateError, InvalidInputError
from somna.memory.approval import require_person
from somna.memory.inputs import checked
from somna.memory.lookups import fetch_conflict, fetch_fact
from somna.memory.results import ConflictPair
from somna.model import Conflict, ConflictStatus, Fact, FactStatus, Resolution, lifecycle
from somna.model.lifecycle import Change
from somna.store import Reader, Store

__all__ = ["UNSETTLED", "conflict_pairs", "resolve_conflict", "settle_conflict"]

UNSETTLED = (ConflictStatus.OPEN, ConflictStatus.DEFERRED)


def conflict_pairs(
    store: Store, profile: str, wanted: ConflictStatus, now: datetime
) -> list[ConflictPair]:
    """The profile's conflicts of one status; `open` includes deferred ones whose delay is over."""
    with store.read(profile) as tx:
        if wanted is ConflictStatus.OPEN:
            found = [
                c
                for c in tx.list_conflicts(UNSETTLED)
                if c.status is ConflictStatus.OPEN
                or (c.deferred_until is not None and c.deferred_until <= now)
            ]
        else:
            found = tx.list_conflicts([wanted])
        return [_pair(tx, c) for c in found]


def resolve_conflict(
    store: Store,
    embed: Callable[[str], np.ndarray],
    profile: str,
    conflict_id: str,
    choice: Resolution,
    correction: str | None,
    *,
    now: datetime,
    defer_for: timedelta,
    actor: str,
) -> ConflictPair:
    """Settle the conflict as `choice`, or defer it by `defer_for`, in one transaction."""
    if (choice is Resolution.CORRECTED) != (correction is not None):
        raise InvalidInputError(
            "Give a correction text with the 'corrected' resolution, and only with it."
        )
    with store.read(profile) as tx:
        pair = _pair(tx, fetch_conflict(tx, conflict_id))
    if choice is not Resolution.DEFER:  # the fact that wins, or the correction, is verified
        require_person(actor, (pair.fact_a.type, pair.fact_b.type), "settle a conflict about")
    correction_fact, vector = None, None
    if correction is not None:
        a = pair.fact_a
        correction_fact = checked(
            lambda: Fact(
                profile_id=profile,
                type=a.type,
                category=a.category,
                subject=a.subject,
                text=correction,
                status=FactStatus.VERIFIED,
                confidence=1.0,
                valid_from=min(a.valid_from, pair.fact_b.valid_from),
                recorded_at=now,
                first_observed_at=now,
                last_verified_at=now,
            )
        )
        vector = embed(correction_fact.text)
    with store.write(profile) as tx:
        conflict = fetch_conflict(tx, conflict_id)
        if conflict.status is ConflictStatus.RESOLVED:
            raise ConflictStateError(f"Conflict {conflict_id!r} is already resolved.")
        if choice is Resolution.DEFER:
            deferred = {"status": ConflictStatus.DEFERRED, "deferred_until": now + defer_for}
            change = Change(conflicts=[conflict.model_copy(update=deferred)])
        else:
            change = settle_conflict(
                tx, conflict, choice, correction_fact, vector, now=now, actor=actor
            )
        tx.apply(change)
        return _pair(tx, fetch_conflict(tx, conflict_id))


def _pair(tx: Reader, conflict: Conflict) -> ConflictPair:
    correction = None
    if conflict.correction_fact_id:
        correction = tx.get_fact(conflict.correction_fact_id)
    return ConflictPair(
        conflict, fetch_fact(tx, conflict.fact_a_id), fetch_fact(tx, conflict.fact_b_id), correction
    )


def settle_conflict(
    tx: Reader,
    conflict: Conflict,
    resolution: Resolution,
    correction: Fact | None,
    vector: np.ndarray | None,
    *,
    now: datetime,
    actor: str,
) -> Change:
    """The change that settles `conflict` as `resolution` (with its correction, if any)."""
    a, b = fetch_fact(tx, conflict.fact_a_id), fetch_fact(tx, conflict.fact_b_id)
    winners = {Resolution.A_TRUE: [a], Resolution.B_TRUE: [b]}.get(resolution, [])
    losers = [f for f in (a, b) if f not in winners]
    change = Change()
    if correction is not None and vector is not None:
        known = tx.find_active(correction.type, correction.subject, correction.text_hash)
        if known is None:
            change = lifecycle.create(
                correction, vector=vector.tolist(), actor=actor, note={"corrects": [a.id, b.id]}
            )
        else:
            change = lifecycle.reinforce(known, at=now, actor=actor)
            correction = known
    settled = {
        conflict.id: lifecycle.settle(
            conflict, resolution, at=now, actor=actor, correction=correction
        )
    }
    survivors = {f.id: f for f in winners}
    for loser in losers:
        if loser.status is not FactStatus.RETIRED:
            reason = f"conflict {conflict.id} resolved as {resolution.value}"
            change = change.merge(lifecycle.retire(loser, at=now, actor=actor, reason=reason))
        for other in tx.list_conflicts(UNSETTLED, fact_id=loser.id):
            if other.id in settled:
                continue
            loser_is_a = other.fact_a_id == loser.id
            settled[other.id] = lifecycle.settle(
                other, Resolution.B_TRUE if loser_is_a else Resolution.A_TRUE, at=now, actor=actor
            )
            survivor = fetch_fact(tx, other.fact_b_id if loser_is_a else other.fact_a_id)
            survivors[survivor.id] = survivor
    for survivor in survivors.values():
        unsettled = [
            c for c in tx.list_conflicts(UNSETTLED, fact_id=survivor.id) if c.id not in settled
        ]
        change = change.merge(
            lifecycle.restore_if_settled(survivor, unsettled=len(unsettled), at=now, actor=actor)
        )
    return change.merge(Change(conflicts=list(settled.values())))
