"""One embedder per database: recorded, checked on open and before use, changed by `reembed`.

The embedders here are small deterministic ones of our own (each text gets a
vector derived from its hash, different per model name), so that which model
made a stored vector can be read back from the store.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import timedelta

import numpy as np
import pytest

from somna.config import Settings
from somna.embed.base import Vectors, l2_normalize
from somna.errors import ConfigurationError, EmbeddingError
from somna.memory import Memory
from somna.memory.reembed import reembed
from somna.model import FactStatus, Summary, SummaryKind
from somna.store import Eligibility, FactFilter, Store
from somna.store.embedders import EmbedderRecord, EmbedderState
from tests.support import Clock


class Hashed:
    """Vectors from the sha256 of (name, text): another name, another space."""

    def __init__(self, name: str, dim: int = 8, fail_after: int | None = None) -> None:
        self.name = name
        self.dim = dim
        self.calls = 0
        self.fail_after = fail_after

    def vector(self, text: str) -> np.ndarray:
        digest = hashlib.sha256(f"{self.name}|{text}".encode()).digest()
        return np.frombuffer(digest, dtype=np.uint8)[: self.dim].astype(np.float32) - 127.5

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.calls += 1
        if self.fail_after is not None and self.calls > self.fail_after:
            raise EmbeddingError("The test embedder stops here.")
        rows = np.vstack([self.vector(t) for t in texts]) if texts else np.zeros((0, self.dim))
        return l2_normalize(rows)


FACTS = [
    "Keeps bees on the roof of the workshop.",
    "Repairs old clocks on Saturdays.",
    "Learned to sail on a lake in the mountains.",
    "Prefers the night train to flying.",
    "Writes letters with a fountain pen.",
]


def filled(store: Store, clock: Clock, embedder: Hashed) -> Memory:
    """A profile with five facts (one retired) and a summary, embedded by `embedder`."""
    memory = Memory(store=store, embedder=embedder, settings=Settings(), clock=clock)
    memory.create_profile("alice")
    added = [memory.add_fact("alice", text).fact for text in FACTS]
    memory.delete("alice", added[-1].id)
    summary = Summary(
        profile_id="alice",
        kind=SummaryKind.SESSION,
        text="Talked about a week of sailing and the clocks waiting at home.",
        period_start=clock.now - timedelta(days=1),
        created_at=clock.now,
    )
    with store.write("alice") as tx:
        tx.add_summary(summary, memory.embedder.embed([summary.text])[0].tolist())
    return memory


def made_by(store: Store, embedder: Hashed, text: str, clock: Clock) -> bool:
    """Whether the stored vector of the fact worded `text` is `embedder`'s."""
    eligible = Eligibility(at=clock.now, now=clock.now, include_superseded=True)
    with store.read("alice") as tx:
        [(_, cosine)] = tx.vector_search(embedder.embed([text])[0], eligible, 1)
    return cosine > 0.999


def test_a_database_records_the_embedder_of_its_first_vector(store: Store, clock: Clock) -> None:
    assert store.embedders().state() is None
    filled(store, clock, Hashed("model-a"))
    assert store.embedders().state() == EmbedderState(EmbedderRecord("model-a", 8))


def test_opening_with_another_configured_embedder_is_refused_naming_reembed(
    store: Store, clock: Clock
) -> None:
    filled(store, clock, Hashed("model-a"))
    with pytest.raises(ConfigurationError, match=r"model-a \(8 dimensions\).*`somna reembed`"):
        Memory(store=store, settings=Settings(embedder="bundled"), clock=clock)


def test_another_embedder_is_refused_before_its_first_vector_is_used(
    store: Store, clock: Clock
) -> None:
    filled(store, clock, Hashed("model-a"))
    for other in (Hashed("model-b"), Hashed("model-a", dim=6)):
        memory = Memory(store=store, embedder=other, settings=Settings(), clock=clock)
        with pytest.raises(ConfigurationError, match="somna reembed"):
            memory.add_fact("alice", "Grows lemons in pots.")
        with pytest.raises(ConfigurationError, match="somna reembed"):
            memory.search("alice", "what does she grow?")
    with store.read("alice") as tx:
        assert len(tx.list_facts(FactFilter(limit=100), clock.now)) == len(FACTS) - 1


def test_reembed_replaces_every_vector_and_records_the_new_embedder(
    store: Store, clock: Clock
) -> None:
    old, new = Hashed("model-a"), Hashed("model-b")
    filled(store, clock, old)
    seen: list[tuple[int, int]] = []
    done = reembed(store, new, batch=2, progress=lambda d, t: seen.append((d, t)))
    assert (done.before, done.after, done.rows) == (
        EmbedderRecord("model-a", 8),
        EmbedderRecord("model-b", 8),
        len(FACTS) + 1,
    )
    assert seen == [(0, 6), (2, 6), (4, 6), (6, 6)]
    assert store.embedders().state() == EmbedderState(EmbedderRecord("model-b", 8))
    assert all(made_by(store, new, text, clock) for text in FACTS[:-1])
    summary_text = "Talked about a week of sailing and the clocks waiting at home."
    with store.read("alice") as tx:
        [(_, cosine)] = tx.summary_vector_search(
            new.embed([summary_text])[0], [SummaryKind.SESSION], clock.now, 1
        )
        retired = tx.list_facts(FactFilter(statuses=[FactStatus.RETIRED], limit=10), clock.now)
    assert cosine > 0.999
    assert [f.text for f in retired] == [FACTS[-1]]
    memory = Memory(store=store, embedder=new, settings=Settings(), clock=clock)
    [hit] = memory.search("alice", FACTS[1], k=1)
    assert hit.fact.text == FACTS[1] and hit.vector_rank == 1
    assert reembed(store, new).rows == 0  # already there: nothing to do


def test_an_interrupted_reembed_blocks_the_database_and_goes_on_where_it_stopped(
    store: Store, clock: Clock
) -> None:
    filled(store, clock, Hashed("model-a"))
    with pytest.raises(EmbeddingError):
        reembed(store, Hashed("model-b", fail_after=1), batch=2)
    assert store.embedders().state() == EmbedderState(
        EmbedderRecord("model-a", 8), target=EmbedderRecord("model-b", 8)
    )
    for name in ("model-a", "model-b"):
        with pytest.raises(ConfigurationError, match=r"interrupted.*`somna reembed`"):
            Memory(store=store, embedder=Hashed(name), settings=Settings(), clock=clock).search(
                "alice", "clocks"
            )
    seen: list[tuple[int, int]] = []
    again = Hashed("model-b")
    assert reembed(store, again, batch=2, progress=lambda d, t: seen.append((d, t))).rows == 4
    assert seen[0] == (2, 6) and again.calls == 2
    assert all(made_by(store, again, text, clock) for text in FACTS[:-1])


def test_a_reembed_to_another_target_starts_over(store: Store, clock: Clock) -> None:
    filled(store, clock, Hashed("model-a"))
    with pytest.raises(EmbeddingError):
        reembed(store, Hashed("model-b", fail_after=1), batch=2)
    other = Hashed("model-c")
    assert reembed(store, other, batch=2).rows == len(FACTS) + 1
    assert all(made_by(store, other, text, clock) for text in FACTS[:-1])


def test_reembed_to_another_dimension_leaves_a_database_that_works(
    store: Store, clock: Clock
) -> None:
    filled(store, clock, Hashed("model-a", dim=8))
    wider = Hashed("model-w", dim=12)
    reembed(store, wider)
    memory = Memory(store=store, embedder=wider, settings=Settings(), clock=clock)
    memory.add_fact("alice", "Grows lemons in pots.")
    [hit] = memory.search("alice", "Grows lemons in pots.", k=1)
    assert hit.fact.text == "Grows lemons in pots." and hit.vector_rank == 1
    assert made_by(store, wider, FACTS[0], clock)
