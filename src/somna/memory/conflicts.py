"""Settling a conflict: who loses is retired, who wins comes back once nothing holds it.

A fact retired by one conflict contradicts nothing any more, so its other open
pairs settle in favour of their other side, in the same transaction.
"""

from __future__ import annotations

from datetime import datetime

import numpy as np

from somna.memory.lookups import fetch_fact
from somna.model import Conflict, ConflictStatus, Fact, FactStatus, Resolution, lifecycle
from somna.model.lifecycle import Change
from somna.store import Reader

__all__ = ["UNSETTLED", "settle_conflict"]

UNSETTLED = (ConflictStatus.OPEN, ConflictStatus.DEFERRED)


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
    a, b = fetch_fact(tx, conflict.fact_a), fetch_fact(tx, conflict.fact_b)
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
            loser_is_a = other.fact_a == loser.id
            settled[other.id] = lifecycle.settle(
                other, Resolution.B_TRUE if loser_is_a else Resolution.A_TRUE, at=now, actor=actor
            )
            survivor = fetch_fact(tx, other.fact_b if loser_is_a else other.fact_a)
            survivors[survivor.id] = survivor
    for survivor in survivors.values():
        unsettled = [
            c for c in tx.list_conflicts(UNSETTLED, fact_id=survivor.id) if c.id not in settled
        ]
        change = change.merge(
            lifecycle.restore_if_settled(survivor, unsettled=len(unsettled), at=now, actor=actor)
        )
    return change.merge(Change(conflicts=list(settled.values())))
