"""What `Memory` calls return, beyond the domain entities themselves."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypeVar

from somna.model import Conflict, Evidence, Fact, FactEvent, Message, RecalledKind, Summary

__all__ = [
    "Added",
    "Block",
    "ConflictPair",
    "Found",
    "History",
    "Ingested",
    "Outcome",
    "Quote",
    "Recalled",
    "SearchHit",
    "Similar",
    "StoreInfo",
]

_T = TypeVar("_T")


class Found(list[_T]):
    """Results of a search or recall, best first, and what was down while they were found:
    `degraded` holds one sentence per part that failed and was done without (the embedder,
    query rewriting); it is empty when everything worked."""

    def __init__(self, items: Iterable[_T] = (), degraded: Iterable[str] = ()) -> None:
        super().__init__(items)
        self.degraded: list[str] = list(degraded)

    @classmethod
    def of(cls, items: Iterable[_T], degraded: Iterable[str] = ()) -> Found[_T]:
        """`items` with `degraded` added to what they already say."""
        return cls(items, [*degraded, *getattr(items, "degraded", ())])


class Block(str):
    """The prompt block, a plain string, and like `Found` what was down while it was made."""

    degraded: list[str]

    def __new__(cls, text: str, degraded: Iterable[str] = ()) -> Block:
        block = super().__new__(cls, text)
        block.degraded = list(degraded)
        return block


@dataclass(frozen=True)
class Similar:
    """An active fact close to another, with their cosine similarity."""

    fact: Fact
    similarity: float


@dataclass(frozen=True)
class Added:
    """The result of `add_fact`: the stored fact, and neighbors for the caller to judge.

    `created` is False when the text was already known: the existing fact was
    reinforced instead of stored twice.
    """

    fact: Fact
    created: bool
    similar: list[Similar] = field(default_factory=list)
    candidates: list[Similar] = field(default_factory=list)
    """Facts of the same subject under `neighbor_floor` but at least `judge_floor`, or in the
    same sentence frame with another value whatever their cosine ("Lives in Paris." /
    "Lives in Berlin."): too far apart to be near-duplicates, close enough to contradict."""


@dataclass(frozen=True)
class Outcome:
    """The facts a `resolve` call touched, as they now are, and the conflict it opened."""

    facts: list[Fact]
    conflict: Conflict | None = None


@dataclass(frozen=True)
class ConflictPair:
    """A conflict with its two facts loaded, and the fact a person wrote to settle it when
    neither was right: what a reviewer reads to decide."""

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


@dataclass(frozen=True)
class Quote:
    """A fact's evidence with where it was said: the message (live or archived) and the
    key of its conversation, when the quote came from one."""

    evidence: Evidence
    message: Message | None
    session_key: str | None


@dataclass(frozen=True)
class StoreInfo:
    """Where a `Memory` keeps its data, for people (`somna init`)."""

    location: str
    """A file path, or a server without its password."""
    schema_version: int
    """The number of the last migration applied."""


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

    kind: RecalledKind
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

    def compact(self) -> dict[str, str]:
        """What an agent's tool needs, each once: `id`, `text`, `date` (when it became true,
        else when it was recorded) and `status` (the fact's, or `summary`)."""
        status = "summary" if self.fact is None else self.fact.status.value
        date = (self.valid_from or self.recorded_at).date().isoformat()
        return {"id": self.id, "text": self.text, "date": date, "status": status}
