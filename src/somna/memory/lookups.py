"""Finding a fact or a conflict in a profile, or saying clearly that it is not there."""

from __future__ import annotations

from somna.errors import ConflictNotFoundError, FactNotFoundError
from somna.model import Conflict, Fact
from somna.store import Reader

__all__ = ["fetch_conflict", "fetch_fact"]


def fetch_fact(tx: Reader, fact_id: str) -> Fact:
    fact = tx.get_fact(fact_id)
    if fact is None:
        raise FactNotFoundError(fact_id, tx.profile_id)
    return fact


def fetch_conflict(tx: Reader, conflict_id: str) -> Conflict:
    conflict = tx.get_conflict(conflict_id)
    if conflict is None:
        raise ConflictNotFoundError(conflict_id, tx.profile_id)
    return conflict
