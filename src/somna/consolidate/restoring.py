"""A retired or expired fact said again: found by its wording, so it can come back whole.

Forgetting must not lose history: when someone says again what Somna had let go of,
through `add_fact` or in a conversation the nightly job reads, the old fact is restored
(`lifecycle.restore`) with its evidence and events, rather than a second fact with the
same wording starting from nothing. Both paths go through `restore_said_again`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from somna.model import Evidence, Fact, FactType, lifecycle
from somna.model.lifecycle import Change

__all__ = ["restore_said_again"]


class _FindsGone(Protocol):
    """A store's scope, or a write staged over one (`StagedWrite`)."""

    def find_gone(self, type: FactType, subject: str, text_hash: str) -> Fact | None: ...


def restore_said_again(
    tx: _FindsGone, fact: Fact, evidence: Sequence[Evidence], *, at: datetime, actor: str
) -> Change | None:
    """The restoring of the fact ``fact`` says again, its new evidence moved onto it; None
    when no retired or expired fact has that wording."""
    gone = tx.find_gone(fact.type, fact.subject, fact.text_hash)  # the latest of that wording
    if gone is None:
        return None
    moved = [e.model_copy(update={"fact_id": gone.id}) for e in evidence]
    return lifecycle.restore(gone, at=at, actor=actor, evidence=moved)
