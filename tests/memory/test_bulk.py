"""`Memory.add_facts`: a batch is reconciled as the same facts added one by one."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from somna import FactStatus, InvalidInputError, Memory, Settings
from somna.embed import BundledEmbedder
from somna.memory.bulk import MAX_BATCH, _Batch
from somna.memory.results import Added
from somna.memory.writes import NewFact
from somna.model import lifecycle
from somna.store import Eligibility
from somna.store.sqlite import SQLiteStore
from tests.support import Clock

BATCH = [
    NewFact(text="Keeps three hives of bees behind the barn.", category="hobby"),
    NewFact(text="Drives a green van to the market."),
    NewFact(text="Keeps three hives of bees behind the barn.", quote="my three hives"),
    NewFact(text="Keeps four hives of bees behind the barn."),
    NewFact(text="Sells honey at the Saturday market.", verified=True),
    NewFact(text="Was born in a small coastal town."),
]


def seeded(memory: Memory) -> None:
    """What the profile holds before the batch: one text it repeats, one it says again
    after a retirement."""
    memory.create_profile("ann")
    memory.add_fact("ann", "Drives a green van to the market.")
    born = memory.add_fact("ann", "Was born in a small coastal town.").fact
    memory.delete("ann", born.id)


def summary(added: list[Added]) -> list[tuple[object, ...]]:
    return [
        (
            a.fact.text,
            a.fact.status,
            a.created,
            a.fact.confidence,
            sorted(s.fact.text for s in a.similar),
            sorted(s.fact.text for s in a.candidates),
        )
        for a in added
    ]


def state(memory: Memory) -> list[tuple[object, ...]]:
    every = list(FactStatus)
    facts = memory.list_facts("ann", status=every, limit=memory.count_facts("ann", status=every))
    return sorted(
        (f.text, f.status, f.confidence, len(memory.history("ann", f.id).events)) for f in facts
    )


@pytest.fixture
def one_by_one(tmp_path: Path, embedder: BundledEmbedder, clock: Clock) -> Memory:
    store = SQLiteStore(tmp_path / "one.db")
    return Memory(store=store, embedder=embedder, settings=Settings(), clock=clock)


def added_alike(memory: Memory, one_by_one: Memory, facts: list[NewFact]) -> list[Added]:
    """Add `facts` as one batch to `memory` and one by one to `one_by_one`, both seeded
    alike; assert that both answer and end the same, and return the batch's answer."""
    seeded(memory)
    seeded(one_by_one)
    batch = memory.add_facts("ann", facts)
    single = [one_by_one.add_fact("ann", new) for new in facts]
    assert summary(batch) == summary(single)
    assert state(memory) == state(one_by_one)
    return batch


def test_a_batch_ends_as_the_same_facts_added_one_by_one(
    memory: Memory, one_by_one: Memory
) -> None:
    added_alike(memory, one_by_one, BATCH)


def test_a_batch_of_many_parts_ends_as_the_same_facts_added_one_by_one(
    memory: Memory, one_by_one: Memory
) -> None:
    """Past the first part, texts are embedded on a second thread while the first are
    reconciled; neighbours across parts, repeats and changed values are found alike."""
    crafts = ["weaves baskets", "carves spoons", "dyes wool", "binds books", "turns bowls"]
    materials = ["willow", "birch", "oak", "linen", "hemp", "walnut", "cherry", "maple"]
    rooms = ["attic", "barn", "cellar", "garden", "kitchen", "porch", "shed"]
    texts = [
        f"{c.capitalize()} of {m} in the {r}." for c in crafts for m in materials for r in rooms
    ]
    batch_facts = [NewFact(text=text) for text in texts] + [NewFact(text=texts[3])]
    towns = ["Ostrava", "Tampere", "Girona", "Leiden", "Aarhus", "Bergamo"]
    batch_facts += [NewFact(text=f"Lives in {town}.") for town in towns]
    assert len({f.text for f in batch_facts}) > 2 * 128
    batch = added_alike(memory, one_by_one, batch_facts)
    assert any(a.candidates for a in batch[-len(towns) :])


def test_a_text_repeated_in_the_batch_is_stored_once_and_reinforced(memory: Memory) -> None:
    memory.create_profile("ann")
    first, again = memory.add_facts("ann", [BATCH[0], BATCH[2]])
    assert first.created and not again.created
    assert again.fact.id == first.fact.id
    assert again.fact.confidence > first.fact.confidence
    active = memory.list_facts("ann")
    assert [f.text for f in active] == [BATCH[0].text]
    quotes = [e.quote for e in memory.history("ann", first.fact.id).evidence]
    assert quotes == ["my three hives"]


def test_a_close_fact_earlier_in_the_batch_is_a_neighbour_of_a_later_one(memory: Memory) -> None:
    memory.create_profile("ann")
    added = memory.add_facts("ann", [BATCH[0], BATCH[3]])
    assert [s.fact.id for s in added[1].similar + added[1].candidates] == [added[0].fact.id]


def test_a_bad_fact_refuses_the_batch_by_its_index_and_writes_nothing(
    memory: Memory, clock: Clock
) -> None:
    seeded(memory)
    before = state(memory)
    bad = NewFact(text="Rents a stall.", valid_from=clock.now, valid_to=clock.now - timedelta(1))
    with pytest.raises(InvalidInputError, match="index 2 of the batch: The end of a fact"):
        memory.add_facts("ann", [BATCH[0], BATCH[1], bad, BATCH[4]])
    assert state(memory) == before


def test_a_batch_over_the_limit_is_refused(memory: Memory) -> None:
    memory.create_profile("ann")
    with pytest.raises(InvalidInputError, match=f"at most {MAX_BATCH} facts"):
        memory.add_facts("ann", [BATCH[0]] * (MAX_BATCH + 1))
    assert memory.add_facts("ann", []) == []


def test_a_search_made_ahead_stays_exact_when_the_batch_retires_its_hits(
    memory: Memory, clock: Clock
) -> None:
    """Each part's neighbours are searched for when it is embedded; when the batch has
    since made so many of them ineligible that the ones further down may count, the
    search is made again in the transaction, which sees the batch's own writes."""
    memory.create_profile("ann")
    for hives in range(2, 40):
        memory.add_fact("ann", f"Keeps {hives} hives of bees behind the barn.")
    eligible = Eligibility(at=clock.now, now=clock.now)
    query = memory.embedder.embed(["Keeps bees behind the barn."])
    with memory.store.write("ann") as tx:
        batch = _Batch(tx, eligible)
        batch.search_before(query)
        for fact_id, _ in tx.vector_search(query[0], eligible, 15):
            fact = tx.get_fact(fact_id)
            assert fact is not None
            batch.apply(lifecycle.retire(fact, at=clock.now, actor="test", reason="replaced"))
        exact = tx.vector_search(query[0], eligible, 10)
        assert len(exact) == 10
        assert batch.vector_search(query[0], eligible, 10) == exact
