"""Facts through `Memory`: add, neighbors, verdicts, corrections, history."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from somna import ConflictStateError, FactStatus, FactType, Memory, Settings
from somna.model import EventAction
from tests.support import Clock


@pytest.fixture
def alice(memory: Memory) -> Memory:
    memory.create_profile("alice")
    return memory


def test_add_fact_stores_an_unverified_fact_with_its_quote(alice: Memory, clock: Clock) -> None:
    added = alice.add_fact(
        "alice", "Prefers tea to coffee.", category="preference", quote="I'd rather have tea"
    )
    assert added.created and added.similar == []
    fact = alice.get("alice", added.fact.id)
    assert fact == added.fact
    assert fact.status is FactStatus.UNVERIFIED
    assert fact.recorded_at == fact.valid_from == clock.now
    assert [e.quote for e in alice.history("alice", fact.id).evidence] == ["I'd rather have tea"]


def test_add_fact_returns_neighbors_above_the_floor(alice: Memory) -> None:
    tea = alice.add_fact("alice", "Prefers tea to coffee.").fact
    alice.add_fact("alice", "Owns a red bicycle.")
    added = alice.add_fact("alice", "Likes drinking tea more than coffee.")
    assert [s.fact.id for s in added.similar] == [tea.id]
    assert added.similar[0].similarity >= 0.80


def test_the_neighbor_floor_is_a_setting(memory: Memory) -> None:
    strict = Memory(
        store=memory.store, embedder=memory.embedder, settings=Settings(neighbor_floor=0.99)
    )
    strict.create_profile("alice")
    strict.add_fact("alice", "Prefers tea to coffee.")
    assert strict.add_fact("alice", "Likes drinking tea more than coffee.").similar == []


def test_a_duplicate_verdict_retires_the_new_fact_and_merges_its_evidence(alice: Memory) -> None:
    tea = alice.add_fact("alice", "Prefers tea to coffee.", quote="tea please").fact
    same = alice.add_fact("alice", "Likes tea better than coffee.", quote="I like tea more").fact
    outcome = alice.resolve("alice", same.id, tea.id, "duplicate")
    dropped, kept = outcome.facts
    assert dropped.status is FactStatus.RETIRED
    assert kept.id == tea.id and kept.confidence > tea.confidence
    quotes = {e.quote for e in alice.history("alice", tea.id).evidence if e.fact_id == tea.id}
    assert quotes == {"tea please", "I like tea more"}
    assert [f.id for f in alice.list_facts("alice")] == [tea.id]


def test_a_distinct_verdict_changes_nothing(alice: Memory) -> None:
    a = alice.add_fact("alice", "Prefers tea to coffee.").fact
    b = alice.add_fact("alice", "Prefers green tea in the morning.").fact
    assert alice.resolve("alice", b.id, a.id, "distinct").facts == [b, a]
    assert {f.id for f in alice.list_facts("alice")} == {a.id, b.id}


def test_only_active_facts_can_supersede_or_be_superseded(alice: Memory) -> None:
    a = alice.add_fact("alice", "Lives in Paris.").fact
    b = alice.add_fact("alice", "Lives in Berlin.").fact
    alice.delete("alice", a.id)
    with pytest.raises(ConflictStateError, match="retired"):
        alice.resolve("alice", b.id, a.id, "supersedes")


def test_a_correction_is_a_new_verified_version_and_keeps_the_old_one(
    alice: Memory, clock: Clock
) -> None:
    original = alice.add_fact("alice", "Works at Acme.", category="work").fact
    clock.advance(days=1)
    corrected = alice.update("alice", original.id, text="Works at Acme Robotics.")
    assert corrected.id != original.id
    assert corrected.status is FactStatus.VERIFIED
    assert corrected.category == "work"
    assert corrected.valid_from == original.valid_from
    old = alice.get("alice", original.id)
    assert old.status is FactStatus.SUPERSEDED and old.superseded_by == corrected.id
    history = alice.history("alice", corrected.id)
    assert [v.text for v in history.versions] == ["Works at Acme.", "Works at Acme Robotics."]
    assert alice.history("alice", original.id).versions == history.versions
    assert [e.action for e in history.events] == [
        EventAction.CREATED,
        EventAction.UPDATED,
        EventAction.CREATED,
    ]
    # As of any past time the corrected wording is what was true.
    assert [f.text for f in alice.list_facts("alice", as_of=original.valid_from)] == [
        "Works at Acme Robotics."
    ]


def test_a_correction_can_change_type_and_category(alice: Memory) -> None:
    fact = alice.add_fact("alice", "Is called Ali by friends.").fact
    corrected = alice.update("alice", fact.id, type="persona", category="identity")
    assert (corrected.type, corrected.category) == (FactType.PERSONA, "identity")
    assert corrected.text == fact.text


def test_delete_retires_and_a_second_delete_is_refused(alice: Memory) -> None:
    fact = alice.add_fact("alice", "Has a cat named Miso.").fact
    assert alice.delete("alice", fact.id).status is FactStatus.RETIRED
    with pytest.raises(ConflictStateError, match="already retired"):
        alice.delete("alice", fact.id)
    assert alice.list_facts("alice", status="retired")[0].id == fact.id


def test_list_filters_facts(alice: Memory, clock: Clock) -> None:
    alice.add_fact("alice", "Prefers tea to coffee.", category="preference")
    alice.add_fact("alice", "Is a nurse.", type="persona", category="identity")
    alice.add_fact("alice", "Has a brother named Tom.", subject="Alice", category="family")
    assert [f.text for f in alice.list_facts("alice", type="persona")] == ["Is a nurse."]
    assert [f.text for f in alice.list_facts("alice", category="preference")] == [
        "Prefers tea to coffee."
    ]
    assert [f.text for f in alice.list_facts("alice", subject="Alice")] == [
        "Has a brother named Tom."
    ]
    assert [f.text for f in alice.list_facts("alice", text="BROTHER")] == [
        "Has a brother named Tom."
    ]
    assert len(alice.list_facts("alice", type=["persona", "fact"])) == 3
    assert alice.list_facts("alice", as_of=datetime(2020, 1, 1, tzinfo=UTC)) == []
    assert len(alice.list_facts("alice", limit=2)) == 2
    assert len(alice.list_facts("alice", limit=2, offset=2)) == 1


def test_messages_form_the_short_thread(alice: Memory, clock: Clock) -> None:
    alice.add_messages(
        "alice",
        "chat-1",
        [
            {"role": "user", "content": "Hi, I moved to Berlin.", "at": "2026-05-03T08:00:00Z"},
            ("assistant", "Congratulations on the move!"),
        ],
    )
    session = alice.add_messages("alice", "chat-1", [{"role": "user", "content": "Thanks."}])
    assert session.key == "chat-1"
    window = alice.window("alice", "chat-1", n=2)
    assert [m.content for m in window] == ["Congratulations on the move!", "Thanks."]
    assert window[0].created_at == clock.now
    assert alice.window("alice", "chat-1")[0].content == "Hi, I moved to Berlin."
