"""A retired or expired fact said again: found by its wording, so it can come back whole.

Forgetting must not lose history: when someone says again what Somna had let go of,
through `add_fact` or in a conversation the nightly job reads, the old fact is restored
(`lifecycle.restore`) with its evidence and events, rather than a second fact with the
same wording starting from nothing. Both paths go through `restore_said_again`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from somna.model import Evidence, Fact, FactStatus, lifecycle
from somna.model.lifecycle import Change
from somna.store import FactFilter, Reader

__all__ = ["restore_said_again", "said_again"]

_GONE = [FactStatus.RETIRED, FactStatus.EXPIRED]
_WORD = re.compile(r"\w+")


def said_again(tx: Reader, fact: Fact, now: datetime) -> Fact | None:
    """The most recent retired or expired fact of ``fact``'s type, subject and wording."""
    longest = max(_WORD.findall(fact.text), key=len, default="")
    found = tx.list_facts(
        FactFilter(
            types=[fact.type],
            statuses=_GONE,
            subject=fact.subject,
            text=longest or None,
            limit=10_000,
        ),
        now,
    )
    same = [f for f in found if f.text_hash == fact.text_hash]
    return max(same, key=lambda f: f.recorded_at, default=None)


def restore_said_again(
    tx: Reader, fact: Fact, evidence: Sequence[Evidence], *, at: datetime, actor: str
) -> Change | None:
    """The restoring of the fact ``fact`` says again, its new evidence moved onto it; None
    when no retired or expired fact has that wording."""
    gone = said_again(tx, fact, at)
    if gone is None:
        return None
    moved = [e.model_copy(update={"fact_id": gone.id}) for e in evidence]
    return lifecycle.restore(gone, at=at, actor=actor, evidence=moved)
