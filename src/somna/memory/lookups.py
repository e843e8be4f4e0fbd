"""Finding a fact, a conflict or a fact's quotes in a profile, or saying clearly that a fact
or a conflict is not there."""

from __future__ import annotations

from collections.abc import Sequence

from somna.errors import ConflictNotFoundError, FactNotFoundError
from somna.memory.results import Quote
from somna.model import Conflict, Fact
from somna.store import Reader

__all__ = ["fetch_conflict", "fetch_fact", "quotes"]

_ALL = 1_000_000


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


def quotes(tx: Reader, fact_ids: Sequence[str]) -> list[Quote]:
    """The evidence of the facts, each with its message and its conversation's key."""
    evidence = tx.evidence(fact_ids)
    messages = {
        m.id: m for m in tx.messages_by_id([e.message_id for e in evidence if e.message_id])
    }
    keys = (
        {s.id: s.key for s in tx.sessions(limit=_ALL)}
        if any(e.session_id for e in evidence)
        else {}
    )
    return [
        Quote(e, messages.get(e.message_id or ""), keys.get(e.session_id or "")) for e in evidence
    ]
