"""What one session will write, decided before its transaction opens.

The stages between the lease and the write fill it in: the extraction proposes, the
grounding keeps the candidates whose quotes are verbatim, the judge gives each its
verdicts on its neighbors; the write then only stages and applies.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from somna.model import Evidence, Fact, Session, Verdict

__all__ = ["Candidate", "Plan"]


@dataclass
class Candidate:
    """A fact the model proposed that passed verification, with its evidence."""

    fact: Fact
    evidence: list[Evidence]
    vector: np.ndarray
    neighbors: list[Fact] = field(default_factory=list)
    verdicts: dict[str, Verdict] = field(default_factory=dict)
    rule: str | None = None
    """The extraction rule that proposed it, kept in its `created` event."""
    rests: dict[str, Candidate] = field(default_factory=dict)
    """By neighbor it supersedes or contradicts, what that neighbor still tells once the
    part this fact replaces or disputes is left out (`somna.llm.rules.remainder.rest_of`):
    written as a fact of its own."""
    own_rests: dict[str, Candidate] = field(default_factory=dict)
    """By neighbor it contradicts, what this fact still tells once the part in dispute is
    left out: written as a fact of its own, active while the two wait for a person."""


@dataclass
class Plan:
    """Everything one session will write."""

    session: Session
    summary: str
    candidates: list[Candidate]
    through_seq: int = -1
    """The last message read: only messages up to it are archived."""
    summary_vector: np.ndarray | None = None
