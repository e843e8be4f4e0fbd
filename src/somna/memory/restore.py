"""A person takes back a deletion: a retired or expired fact becomes active again.

The fact comes back unverified, with its whole history, so a restored rule
waits for approval again like any proposed one. It is refused when another
active fact already says the same thing (DESIGN invariant 1).
"""

from __future__ import annotations

from datetime import datetime

from somna.errors import ConflictStateError
from somna.memory.facts import require
from somna.memory.lookups import fetch_fact
from somna.model import Fact, FactStatus, lifecycle
from somna.store import Store

__all__ = ["restore_fact"]


def restore_fact(store: Store, profile: str, fact_id: str, *, now: datetime, actor: str) -> Fact:
    """Bring back the retired or expired fact `fact_id` of `profile`, in one transaction."""
    with store.write(profile) as tx:
        fact = fetch_fact(tx, fact_id)
        require(fact, {FactStatus.RETIRED, FactStatus.EXPIRED}, "restore")
        if tx.find_active(*fact.wording) is not None:
            raise ConflictStateError(
                "Another active fact already says the same thing, so this one stays retired."
            )
        change = lifecycle.restore(fact, at=now, actor=actor)
        tx.apply(change)
    return change.fact(fact_id)
