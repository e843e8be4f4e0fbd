"""What `Memory` calls return, beyond the domain entities themselves."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from somna.model import Conflict, Evidence, Fact, FactEvent, Summary

__all__ = [
    "Added",
    "ConflictPair",
    "History",
    "Ingested",
    "Outcome",
    "Recalled",
    "SearchHit",
    "Similar",
]


@dataclass(frozen=True)
class Similar:
    """An active fact close to another, with their cosine similarity."""

    fact: Fact
    similarity: float


@dataclass(frozen=True)
class Added:
    """The result of `add_fact`: the stored fact, and neighbours for the caller to judge.

    `created` is False when the text was already known: the existing fact was
    reinforced instead of stored twice.
    """

    fact: Fact
    created: bool
    similar: list[Similar] = field(default_factory=list)


@dataclass(frozen=True)
class Outcome:
    """The facts a `resolve` call touched, as they now are, and the conflict it opened."""

    facts: list[Fact]
    conflict: Conflict | None = None


@dataclass(frozen=True)
class ConflictPair:
    conflict: Conflict
    fact_a: Fact
    fact_b: Fact
    correction: Fact | None = None


@dataclass(frozen=True)
class History:
    """A fact's version chain (oldest first), every event and every piece of evidence."""

    fact: Fact
    versions: list[Fact]
    events: list[FactEvent]
    evidence: list[Evidence]


@dataclass(frozen=True)
class SearchHit:
    """A fact found by `search`, with the signals that found it.

    `text_rank` and `vector_rank` are 1-based ranks in each candidate list
    (None when that signal did not find it); `similarity` is the cosine.
    """

    fact: Fact
    score: float
    text_rank: int | None = None
    vector_rank: int | None = None
    similarity: float | None = None


@dataclass
class Ingested:
    """What an import did: profiles created, sessions and messages added, sessions skipped."""

    profiles: int = 0
    sessions: int = 0
    messages: int = 0
    skipped: int = 0


@dataclass(frozen=True)
class Recalled:
    """One thing recall brings back: a fact or a summary, with why it came and its dates.

    `signals` holds what found it and how it was weighed: `text_rank`, `bm25`,
    `vector_rank`, `cosine` (for each signal that found it), `rrf`, `recency`,
    `confidence`, `strength`. `quote` is the fact's first verbatim evidence.
    """

    kind: str
    text: str
    score: float
    signals: dict[str, float]
    valid_from: datetime | None
    recorded_at: datetime
    fact: Fact | None = None
    summary: Summary | None = None
    quote: str | None = None

    @property
    def id(self) -> str:
        if self.fact is not None:
            return self.fact.id
        assert self.summary is not None
        return self.summary.id
