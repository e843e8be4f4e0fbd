"""DESIGN invariants 1, 2, 3, 4, 7 and 8, each proven through the public `Memory` API."""

from __future__ import annotations

from datetime import timedelta

import pytest

from somna import FactStatus, Memory, ProfileNotFoundError
from somna.errors import FactNotFoundError
from somna.model import EventAction
from tests.support import Clock, all_facts, snapshot


@pytest.fixture
def alice(memory: Memory) -> Memory:
    memory.create_profile("alice")
    memory.create_profile("bob")
    return memory


def test_invariant_1_at_most_one_active_fact_per_type_subject_and_hash(alice: Memory) -> None:
    first = alice.add_fact("alice", "Prefers tea to coffee.")
    again = alice.add_fact("alice", "  prefers TEA to coffee ")
    assert first.created and not again.created
    assert again.fact.id == first.fact.id
    assert again.fact.confidence > first.fact.confidence
    other_type = alice.add_fact("alice", "Prefers tea to coffee.", type="persona")
    other_subject = alice.add_fact("alice", "Prefers tea to coffee.", subject="Bob")
    assert other_type.created and other_subject.created
    active = [f for f in all_facts(alice, "alice") if f.is_active]
    keys = [(f.type, f.subject, f.text_hash) for f in active]
    assert len(keys) == len(set(keys)) == 3


def test_invariant_2_search_returns_only_active_facts_valid_at_the_asked_time(
    alice: Memory, clock: Clock
) -> None:
    start = clock.now
    python = alice.add_fact("alice", "Codes mostly in Python.", category="preference")
    clock.advance(days=40)
    rust = alice.add_fact("alice", "Codes mostly in Rust.", category="preference")
    alice.resolve("alice", rust.fact.id, python.fact.id, "supersedes")
    retired = alice.add_fact("alice", "Codes mostly in Perl.")
    alice.delete("alice", retired.fact.id)
    vegan = alice.add_fact("alice", "Codes only on weekends.")
    busy = alice.add_fact("alice", "Codes every single day.")
    alice.resolve("alice", busy.fact.id, vegan.fact.id, "contradicts")
    alice.add_fact("alice", "Codes in Go for a client.", expires_at=clock.now + timedelta(days=1))
    clock.advance(days=2)

    now_hits = alice.search("alice", "which language does she code in?", k=10)
    assert {h.fact.text for h in now_hits} == {"Codes mostly in Rust."}
    assert all(h.fact.status in {FactStatus.UNVERIFIED, FactStatus.VERIFIED} for h in now_hits)

    then = alice.search("alice", "which language does she code in?", k=10, as_of=start)
    assert {h.fact.text for h in then} == {"Codes mostly in Python."}
    before_anything = alice.search("alice", "code", k=10, as_of=start - timedelta(days=1))
    assert before_anything == []


def test_invariant_3_delete_retires_and_nothing_is_destroyed(alice: Memory) -> None:
    added = alice.add_fact("alice", "Has a cat named Miso.", quote="my cat Miso")
    before = snapshot(alice, "alice")
    retired = alice.delete("alice", added.fact.id, reason="user asked")
    assert retired.status is FactStatus.RETIRED and retired.retired_at is not None
    after = snapshot(alice, "alice")
    assert [f.id for f in all_facts(alice, "alice")] == [added.fact.id]
    assert set(after["evidence"]) == set(before["evidence"])
    assert set(before["events"]) < set(after["events"])
    assert alice.get("alice", added.fact.id).status is FactStatus.RETIRED
    assert alice.list_facts("alice") == []


def test_invariant_4_every_state_change_writes_its_event(alice: Memory) -> None:
    a = alice.add_fact("alice", "Lives in Lyon.").fact
    b = alice.add_fact("alice", "Lives in Poitiers.").fact
    c = alice.add_fact("alice", "Works as a nurse.").fact
    alice.add_fact("alice", "Works as a nurse.")  # reinforced
    alice.resolve("alice", b.id, a.id, "contradicts")
    [pair] = alice.conflicts("alice")
    alice.resolve_conflict("alice", pair.conflict.id, "b_true")
    corrected = alice.update("alice", c.id, text="Works as a head nurse.")
    alice.delete("alice", corrected.id)

    def actions(fact_id: str) -> list[EventAction]:
        return [e.action for e in alice.history("alice", fact_id).events if e.fact_id == fact_id]

    assert actions(a.id) == ["created", "disputed", "retired"]
    assert actions(b.id) == ["created", "disputed", "resolved"]
    assert actions(c.id) == ["created", "reinforced", "updated"]
    assert actions(corrected.id) == ["created", "retired"]
    # Every status a fact went through is explained by an event that led to it.
    for fact in all_facts(alice, "alice"):
        events = [e for e in alice.history("alice", fact.id).events if e.fact_id == fact.id]
        statuses = [e.after["status"] for e in events if e.after and "status" in e.after]
        assert statuses[-1] == fact.status.value


def test_invariant_7_a_profile_never_reads_or_changes_another_profiles_fact(
    alice: Memory,
) -> None:
    secret = alice.add_fact("bob", "Is planning a surprise party.").fact
    mine = alice.add_fact("alice", "Is planning a trip.").fact
    before = snapshot(alice, "bob")
    attempts = [
        lambda: alice.get("alice", secret.id),
        lambda: alice.history("alice", secret.id),
        lambda: alice.update("alice", secret.id, text="Is planning nothing."),
        lambda: alice.delete("alice", secret.id),
        lambda: alice.resolve("alice", mine.id, secret.id, "supersedes"),
        lambda: alice.resolve("alice", secret.id, mine.id, "duplicate"),
    ]
    for attempt in attempts:
        with pytest.raises(FactNotFoundError, match="alice"):
            attempt()
    assert [h.fact.id for h in alice.search("alice", "surprise party", k=5)] == [mine.id]
    assert snapshot(alice, "bob") == before
    with pytest.raises(ProfileNotFoundError):
        alice.search("carol", "party")


def test_invariant_8_superseding_closes_the_old_fact_in_valid_and_record_time(
    alice: Memory, clock: Clock
) -> None:
    old = alice.add_fact("alice", "Lives in Paris.").fact
    clock.advance(days=10)
    moved_on = clock.now - timedelta(days=3)
    new = alice.add_fact("alice", "Lives in Berlin.", valid_from=moved_on).fact
    outcome = alice.resolve("alice", new.id, old.id, "supersedes")
    closed = alice.get("alice", old.id)
    assert closed.status is FactStatus.SUPERSEDED
    assert closed.valid_to == new.valid_from == moved_on
    assert closed.superseded_at == clock.now
    assert closed.superseded_by == new.id
    assert closed in outcome.facts
    events = alice.history("alice", old.id).events
    superseded = [e for e in events if e.action is EventAction.SUPERSEDED]
    assert len(superseded) == 1 and superseded[0].at == clock.now
