"""A retired or expired fact said again comes back with its history, never as a second fact."""

from __future__ import annotations

from somna import FactStatus, Memory
from somna.model import EventAction
from tests.support import Clock, all_facts


def test_a_deleted_fact_said_again_is_restored_with_its_history(
    memory: Memory, clock: Clock
) -> None:
    memory.create_profile("odile")
    first = memory.add_fact("odile", "Keeps bees on the roof.", quote="our bees live upstairs")
    memory.delete("odile", first.fact.id)
    clock.advance(days=3)
    again = memory.add_fact("odile", "keeps bees on the roof", quote="the bees are back")
    assert again.fact.id == first.fact.id and not again.created
    assert again.fact.status is FactStatus.UNVERIFIED and again.fact.retired_at is None
    assert [f.id for f in all_facts(memory, "odile")] == [first.fact.id]
    history = memory.history("odile", first.fact.id)
    actions = [e.action for e in history.events]
    assert actions == [EventAction.CREATED, EventAction.RETIRED, EventAction.RESTORED]
    with memory.store.read("odile") as tx:
        quotes = {e.quote for e in tx.evidence([first.fact.id])}
    assert quotes == {
        "our bees live upstairs",
        "the bees are back",
    }
    assert memory.search("odile", "bees", k=1)[0].fact.id == first.fact.id


def test_a_fact_with_other_words_is_new(memory: Memory) -> None:
    memory.create_profile("odile")
    first = memory.add_fact("odile", "Keeps bees on the roof.")
    memory.delete("odile", first.fact.id)
    other = memory.add_fact("odile", "Keeps bees in the garden.")
    assert other.created and other.fact.id != first.fact.id


def test_an_expired_fact_said_again_is_restored(memory: Memory, clock: Clock) -> None:
    memory.create_profile("odile")
    first = memory.add_fact("odile", "Wants to visit the salt flats.", category="intent")
    clock.advance(days=40)  # past the 30 days an intent lives unseen
    memory.consolidate("odile", now=clock.now)
    assert memory.list_facts("odile", status=[FactStatus.EXPIRED])[0].id == first.fact.id
    again = memory.add_fact("odile", "Wants to visit the salt flats.", category="intent")
    assert again.fact.id == first.fact.id and again.fact.status is FactStatus.UNVERIFIED
    assert again.fact.expires_at is None
    last = memory.history("odile", first.fact.id).events[-1]
    assert last.action is EventAction.RESTORED and last.after is not None
    assert last.after["was"] == "expired"
