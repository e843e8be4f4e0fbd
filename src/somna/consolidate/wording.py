"""The cheap part of judging two facts, before any model is asked.

Shared by the pipeline (a candidate against its neighbor) and the nightly re-check
(a fact added through the API against its neighbor), so both decide alike.
"""

from __future__ import annotations

from somna.llm.rules.extract import LANGUAGES
from somna.model import normalize_text, word_overlap

__all__ = ["ONE_OFF", "same_wording"]

_SAME_WORDING = 0.9  # word overlap from which a pair is a duplicate without asking the model
ONE_OFF = frozenset({"event", "observation"})
"""Categories of dated happenings: two of them never supersede or contradict each other, so
only the cheap duplicate pass looks at their neighbors and the model is not asked."""

_NEGATIONS: frozenset[str] = frozenset().union(*(language.negations for language in LANGUAGES))
"""Words (as `normalize_text` leaves them: "don't" is "don t") that flip a statement."""


def same_wording(a: str, b: str) -> bool:
    """Nearly the same words, and not one of them negating the other: a duplicate for sure."""
    if word_overlap(a, b) < _SAME_WORDING:
        return False
    differing = set(normalize_text(a).split()) ^ set(normalize_text(b).split())
    return not differing & _NEGATIONS
