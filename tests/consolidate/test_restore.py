"""A fact let go of and said again in a conversation comes back with its history."""

from __future__ import annotations

import pytest

from somna import FactStatus, Memory
from somna.model import EventAction
from tests.consolidate.scripted import ScriptedLLM, fact, judge_all, proposing
from tests.consolidate.test_pipeline import BERLIN, PARIS, chat, with_llm
from tests.support import Clock, all_facts

BEES = fact("Keeps bees on the roof.", "the bees on our roof are busy", category="hobby")


@pytest.fixture
def alice(memory: Memory) -> Memory:
    memory.create_profile("alice")
    return memory


def test_a_deleted_fact_said_again_in_a_session_is_restored(alice: Memory, clock: Clock) -> None:
    first = alice.add_fact("alice", BEES.text, category="hobby", quote="we keep bees").fact
    alice.delete("alice", first.id)
    clock.advance(days=3)
    m = with_llm(alice, ScriptedLLM(proposing(BEES)))
    chat(m, "garden", "Honestly the bees on our roof are busy this week.")
    clock.advance(hours=4)
    run = m.consolidate()
    assert (run.facts_added, run.facts_reinforced, run.sessions_consolidated) == (0, 1, 1)
    assert [f.id for f in all_facts(m, "alice")] == [first.id]
    back = m.get("alice", first.id)
    assert back.status is FactStatus.UNVERIFIED and back.retired_at is None
    assert back.judged_at == clock.now
    history = m.history("alice", first.id)
    assert [(e.action, e.actor) for e in history.events] == [
        (EventAction.CREATED, "user"),
        (EventAction.RETIRED, "user"),
        (EventAction.RESTORED, "consolidation"),
    ]
    assert {e.quote for e in history.evidence} == {"we keep bees", BEES.quote}
    assert any(e.message_id for e in history.evidence)
    [summary] = m.summaries("alice", "session")
    assert first.id in summary.sources


def test_an_expired_fact_said_again_in_a_session_is_restored(alice: Memory, clock: Clock) -> None:
    plan = fact("Wants to visit the salt flats.", "I still want to see the salt flats",
                category="intent")  # fmt: skip
    first = alice.add_fact("alice", plan.text, category="intent").fact
    clock.advance(days=40)  # past the 30 days an intent lives unseen
    alice.consolidate("alice", now=clock.now)
    assert alice.get("alice", first.id).status is FactStatus.EXPIRED
    m = with_llm(alice, ScriptedLLM(proposing(plan)))
    chat(m, "trip", "You know, I still want to see the salt flats.")
    clock.advance(hours=4)
    m.consolidate()
    assert [f.id for f in m.list_facts("alice")] == [first.id]
    last = m.history("alice", first.id).events[-1]
    assert last.action is EventAction.RESTORED and last.after is not None
    assert last.after["was"] == "expired"


def test_a_restored_fact_supersedes_the_neighbor_it_replaces(alice: Memory, clock: Clock) -> None:
    paris = alice.add_fact("alice", PARIS.text, category="home").fact
    alice.delete("alice", paris.id)
    berlin = alice.add_fact("alice", BERLIN.text, category="home").fact
    clock.advance(days=30)
    m = with_llm(alice, ScriptedLLM(proposing(PARIS), judge_all("supersedes")))
    chat(m, "news", "Back home: I live in Paris again.")
    clock.advance(hours=4)
    run = m.consolidate()
    assert (run.facts_added, run.facts_superseded) == (0, 1)
    assert [f.id for f in m.list_facts("alice")] == [paris.id]
    moved = m.get("alice", berlin.id)
    assert moved.status is FactStatus.SUPERSEDED and moved.superseded_by == paris.id
    said = m.history("alice", paris.id).evidence[-1]
    assert moved.valid_to == said.observed_at


def test_a_restored_fact_that_contradicts_a_neighbor_opens_a_conflict(
    alice: Memory, clock: Clock
) -> None:
    paris = alice.add_fact("alice", PARIS.text, category="home").fact
    alice.delete("alice", paris.id)
    berlin = alice.add_fact("alice", BERLIN.text, category="home").fact
    m = with_llm(alice, ScriptedLLM(proposing(PARIS), judge_all("contradicts")))
    chat(m, "news", "Wait, I live in Paris, I think.")
    clock.advance(hours=4)
    run = m.consolidate()
    assert (run.facts_added, run.facts_disputed) == (0, 2)
    [pair] = m.conflicts("alice")
    assert {pair.fact_a.id, pair.fact_b.id} == {paris.id, berlin.id}
    actions = [e.action for e in m.history("alice", paris.id).events]
    assert actions[-2:] == [EventAction.RESTORED, EventAction.DISPUTED]
