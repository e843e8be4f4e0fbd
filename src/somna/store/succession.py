"""What stands now for a superseded fact: the active end of its chain of replacements.

A question or a newer value may still be worded like an old value ("how many guests?",
when "around 90 guests" became "we'll finally be 104"): what finds the old one finds,
through it, the one that holds now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from somna.model import Fact
from somna.store.base import Eligibility, Reader

__all__ = ["replaced_by_words", "successors"]

_CHAIN = 4
"""How many replacements a superseded fact is followed through to the active one."""


def replaced_by_words(
    tx: Reader, words: str, eligible: Eligibility, limit: int
) -> list[tuple[Fact, float]]:
    """The superseded facts a full-text search for `words` finds, best first."""
    hits = tx.text_search(words, replace(eligible, replaced=True), limit)
    facts = {f.id: f for f in tx.get_facts([fact_id for fact_id, _ in hits])}
    return [(facts[fact_id], score) for fact_id, score in hits if fact_id in facts]


def successors(tx: Reader, older: Sequence[Fact]) -> dict[str, str]:
    """For each superseded fact of `older`, by id, the active fact that replaced it,
    through a chain of replacements; none where the chain ends in no active fact."""
    found: dict[str, str] = {}
    at = {fact.id: fact.superseded_by for fact in older if fact.superseded_by}
    for _ in range(_CHAIN):
        facts = {f.id: f for f in tx.get_facts(list(set(at.values())))}
        following: dict[str, str] = {}
        for origin, fact_id in at.items():
            fact = facts.get(fact_id)
            if fact is not None and fact.is_active:
                found[origin] = fact_id
            elif fact is not None and fact.superseded_by:
                following[origin] = fact.superseded_by
        if not following:
            break
        at = following
    return found
