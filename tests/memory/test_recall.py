"""Recall: the few facts that matter, with their dates, into the prompt; never the wrong ones."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from somna import FactStatus, Memory
from somna.memory.retrieval import _Signals
from somna.model import Summary, SummaryKind
from somna.ranking import HEADER, count_tokens
from tests.support import Clock


@pytest.fixture
def alice(memory: Memory) -> Memory:
    memory.create_profile("alice")
    memory.create_profile("bob")
    return memory


def test_recall_returns_facts_with_why_they_came_their_dates_and_quote(alice: Memory) -> None:
    alice.add_fact("alice", "Is allergic to peanuts.", quote="peanuts make me swell up")
    alice.add_fact("alice", "Owns a red bicycle.")
    [first, *_] = alice.recall("alice", "can she eat peanut butter?", k=2)
    assert first.kind == "fact" and first.text == "Is allergic to peanuts."
    assert first.quote == "peanuts make me swell up"
    assert first.valid_from == first.fact.valid_from  # type: ignore[union-attr]
    assert {"vector_rank", "cosine", "rrf", "recency", "confidence", "strength"} <= set(
        first.signals
    )
    assert first.signals["text_rank"] == 1 and first.score > 0


def test_recall_is_scoped_to_the_profile(alice: Memory) -> None:
    alice.add_fact("bob", "Is allergic to peanuts.")
    assert alice.recall("alice", "peanuts allergy") == []
    assert [r.text for r in alice.recall("bob", "peanuts allergy")] == ["Is allergic to peanuts."]


def test_disputed_superseded_retired_and_expired_facts_never_come_back(
    alice: Memory, clock: Clock
) -> None:
    a = alice.add_fact("alice", "Drinks green tea daily.").fact
    b = alice.add_fact("alice", "Never drinks tea.").fact
    alice.resolve("alice", b.id, a.id, "contradicts")
    old = alice.add_fact("alice", "Drinks black tea with milk.").fact
    new = alice.add_fact("alice", "Drinks black tea without milk.").fact
    alice.resolve("alice", new.id, old.id, "supersedes")
    gone = alice.add_fact("alice", "Drinks chai on Sundays.").fact
    alice.delete("alice", gone.id)
    alice.add_fact("alice", "Drinks mint tea this week.", expires_at=clock.now + timedelta(hours=1))
    clock.advance(hours=2)
    recalled = alice.recall("alice", "what tea does she drink?", k=10)
    facts = [r.fact for r in recalled if r.fact is not None]
    assert [fact.text for fact in facts] == ["Drinks black tea without milk."]
    assert facts[0].status.is_active


def test_as_of_answers_both_sides_of_a_change(alice: Memory, clock: Clock) -> None:
    january = datetime(2026, 1, 10, tzinfo=UTC)
    june = datetime(2026, 6, 1, tzinfo=UTC)
    clock.now = datetime(2026, 7, 1, tzinfo=UTC)
    python = alice.add_fact("alice", "Codes mostly in Python.", valid_from=january).fact
    rust = alice.add_fact("alice", "Codes mostly in Rust.", valid_from=june).fact
    alice.resolve("alice", rust.id, python.id, "supersedes")

    def recalled(at: datetime | None) -> list[str]:
        return [r.text for r in alice.recall("alice", "which language does she code in?", as_of=at)]

    assert recalled(datetime(2026, 3, 1, tzinfo=UTC)) == ["Codes mostly in Python."]
    assert recalled(datetime(2026, 6, 15, tzinfo=UTC)) == ["Codes mostly in Rust."]
    assert recalled(None) == ["Codes mostly in Rust."]
    assert recalled(datetime(2025, 12, 1, tzinfo=UTC)) == []
    assert [f.text for f in alice.list_facts("alice", as_of=datetime(2026, 3, 1, tzinfo=UTC))] == [
        "Codes mostly in Python."
    ]
    # Record time: history shows what Somna believed, and when it changed its mind.
    history = alice.history("alice", python.id)
    assert [v.text for v in history.versions] == [
        "Codes mostly in Python.",
        "Codes mostly in Rust.",
    ]
    assert [e.action.value for e in history.events if e.fact_id == python.id] == [
        "created",
        "superseded",
    ]
    assert alice.get("alice", python.id).superseded_at == clock.now


def test_types_filter_facts(alice: Memory) -> None:
    alice.add_fact("alice", "Is a nurse.", type="persona")
    alice.add_fact("alice", "Always answer in French.", type="instruction")
    assert [r.text for r in alice.recall("alice", "nurse French", types=["instruction"])] == [
        "Always answer in French."
    ]


def test_recall_reinforces_what_it_returns(alice: Memory, clock: Clock) -> None:
    fact = alice.add_fact("alice", "Is allergic to peanuts.").fact
    other = alice.add_fact("alice", "Owns a red bicycle.").fact
    clock.advance(days=3)
    alice.recall("alice", "peanut allergy", k=1)
    alice.flush()
    used = alice.get("alice", fact.id)
    assert (used.recall_count, used.last_recalled_at, used.strength) == (1, clock.now, 1.0)
    assert alice.get("alice", other.id).recall_count == 0
    # Use is not state: no history event for it.
    assert [e.action.value for e in alice.history("alice", fact.id).events] == ["created"]


def test_recall_finds_conversation_summaries(alice: Memory, clock: Clock) -> None:
    with alice.store.write("alice") as tx:
        summary = Summary(
            profile_id="alice",
            kind=SummaryKind.SESSION,
            text="Alice planned a cycling trip through the Loire valley with her sister.",
            period_start=clock.now - timedelta(days=2),
            created_at=clock.now,
        )
        tx.add_summary(summary, alice.embedder.embed([summary.text])[0].tolist())
    [hit] = alice.recall("alice", "what trip did she plan?", k=1)
    assert hit.kind == "summary" and hit.summary == summary
    assert alice.recall("alice", "trip", include_summaries=False) == []
    before = alice.recall("alice", "trip", as_of=clock.now - timedelta(days=3))
    assert before == []


def test_the_context_block_lists_dated_facts_and_marks_unverified_ones(alice: Memory) -> None:
    alice.add_fact("alice", "Is allergic to peanuts.", valid_from=datetime(2026, 4, 2, tzinfo=UTC))
    alice.add_fact("alice", "Is vegetarian.", verified=True)
    block = alice.context("alice", "any food allergies or diet, like vegetarian?")
    lines = block.splitlines()
    assert lines[0] == HEADER
    assert "- [2026-04-02] Is allergic to peanuts. (unverified)" in lines
    assert "- [2026-05-03] Is vegetarian." in lines


def test_the_portrait_comes_first_when_it_fits(alice: Memory, clock: Clock) -> None:
    alice.add_fact("alice", "Is vegetarian.")
    with alice.store.write("alice") as tx:
        tx.add_summary(
            Summary(profile_id="alice", kind=SummaryKind.PORTRAIT, text="A nurse who cycles."),
            None,
        )
    block = alice.context("alice", "vegetarian dinner ideas")
    assert block.splitlines()[:2] == ["About this user: A nurse who cycles.", HEADER]


@pytest.mark.parametrize("budget", [1, 12, 25, 60, 800])
def test_the_context_block_never_exceeds_its_budget(alice: Memory, budget: int) -> None:
    for i in range(15):
        alice.add_fact("alice", f"Visited the museum number {i} of the city last spring.")
    # Fifteen facts alike are all as close to the question: every one may enter.
    alice.settings = alice.settings.model_copy(
        update={"context_floor": 0.0, "context_text_floor": -1.0}
    )
    block = alice.context("alice", "museums", budget_tokens=budget)
    assert count_tokens(block) <= budget
    if budget >= 60:
        assert block.startswith(HEADER) and block.count("\n") >= 2


def test_recent_lists_the_newest_active_facts(alice: Memory, clock: Clock) -> None:
    for i in range(4):
        alice.add_fact("alice", f"Read book number {i}.")
        clock.advance(days=1)
    assert [f.text for f in alice.recent("alice", 2)] == [
        "Read book number 3.",
        "Read book number 2.",
    ]


def test_query_rewrite_with_the_rules_provider_leaves_the_query_unchanged(alice: Memory) -> None:
    alice.add_fact("alice", "Collects vintage synthesizers.")
    alice.add_messages("alice", "chat", [("user", "What instruments do I collect?")])
    rewritten = alice.recall(
        "alice", "and the electronic ones?", query_rewrite=True, session_key="chat"
    )
    plain = alice.recall("alice", "and the electronic ones?")
    assert [r.text for r in rewritten] == [r.text for r in plain]


def test_a_recalled_fact_is_active(alice: Memory) -> None:
    alice.add_fact("alice", "Is allergic to peanuts.")
    facts = [r.fact for r in alice.recall("alice", "peanuts") if r.fact is not None]
    assert [(fact.text, fact.status) for fact in facts] == [
        ("Is allergic to peanuts.", FactStatus.UNVERIFIED)
    ]


def test_a_candidates_signals_are_its_first_place_in_each_list() -> None:
    signals = _Signals(
        {
            "text:bm25": [("f:a", 3.1234567), ("f:b", 2.0), ("f:a", 1.0)],
            "vector:cosine": [("f:b", 0.9), ("f:c", 0.5)],
        }
    )
    assert signals.of("f:a") == {"text_rank": 1, "bm25": 3.123457}
    assert signals.of("f:b") == {"text_rank": 2, "bm25": 2.0, "vector_rank": 1, "cosine": 0.9}
    assert list(signals.of("f:b")) == ["text_rank", "bm25", "vector_rank", "cosine"]
    assert signals.of("f:z") == {}


def test_a_question_asking_for_a_count_ranks_the_close_facts_that_hold_one(alice: Memory) -> None:
    alice.add_fact("alice", "The e-bikes are kept in the shed behind the laundry.")
    alice.add_fact("alice", "The hotel lends e-bikes to guests for coast rides.")
    alice.add_fact("alice", "The hotel has 9 e-bikes for guests now.")
    recalled = alice.recall("alice", "How many e-bikes does the hotel have?", k=3)
    by_text = {r.text: r.signals for r in recalled}
    assert recalled[0].text == "The hotel has 9 e-bikes for guests now."
    assert by_text["The hotel has 9 e-bikes for guests now."]["value_rank"] == 1
    assert all("value_rank" not in signals for text, signals in by_text.items() if "9" not in text)
    # a question that asks for no value ranks no value list
    assert all(
        "value_rank" not in r.signals for r in alice.recall("alice", "Where are the e-bikes?")
    )
