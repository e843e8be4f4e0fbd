"""Conflicts: contradictions wait for a person, out of recall, until settled."""

from __future__ import annotations

import pytest

from somna import ConflictStateError, FactStatus, Memory
from somna.model import ConflictStatus, Fact, Resolution
from tests.support import Clock


@pytest.fixture
def alice(memory: Memory) -> Memory:
    memory.create_profile("alice")
    return memory


def contradiction(memory: Memory, a: str, b: str) -> tuple[Fact, Fact, str]:
    first = memory.add_fact("alice", a).fact
    second = memory.add_fact("alice", b).fact
    outcome = memory.resolve("alice", second.id, first.id, "contradicts")
    assert outcome.conflict is not None
    return first, second, outcome.conflict.id


def texts(memory: Memory, query: str) -> set[str]:
    return {hit.fact.text for hit in memory.search("alice", query, k=10)}


def test_a_contradiction_disputes_both_facts_and_opens_a_pair(alice: Memory) -> None:
    a, b, conflict_id = contradiction(alice, "Is vegetarian.", "Eats steak every week.")
    [pair] = alice.conflicts("alice")
    assert pair.conflict.id == conflict_id
    assert (pair.fact_a.id, pair.fact_b.id) == (a.id, b.id)
    assert pair.fact_a.status is pair.fact_b.status is FactStatus.DISPUTED


def test_disputed_facts_never_come_back_from_search_until_resolved(alice: Memory) -> None:
    a, _, conflict_id = contradiction(alice, "Is vegetarian.", "Eats steak every week.")
    assert texts(alice, "does she eat meat? vegetarian steak") == set()
    alice.resolve_conflict("alice", conflict_id, "a_true")
    assert texts(alice, "does she eat meat? vegetarian steak") == {"Is vegetarian."}
    assert alice.get("alice", a.id).status is FactStatus.VERIFIED


@pytest.mark.parametrize(
    ("resolution", "kept"),
    [("a_true", {"Is vegetarian."}), ("b_true", {"Eats steak every week."}), ("neither", set())],
)
def test_each_resolution_keeps_the_right_facts(
    alice: Memory, resolution: str, kept: set[str]
) -> None:
    _, _, conflict_id = contradiction(alice, "Is vegetarian.", "Eats steak every week.")
    pair = alice.resolve_conflict("alice", conflict_id, resolution)
    assert pair.conflict.status is ConflictStatus.RESOLVED
    assert pair.conflict.resolution is Resolution(resolution)
    assert {f.text for f in alice.list_facts("alice")} == kept
    for fact in (pair.fact_a, pair.fact_b):
        expected = FactStatus.VERIFIED if fact.text in kept else FactStatus.RETIRED
        assert fact.status is expected
    assert alice.conflicts("alice") == []


def test_a_correction_retires_both_and_stores_a_verified_fact(alice: Memory) -> None:
    _, _, conflict_id = contradiction(alice, "Is vegetarian.", "Eats steak every week.")
    pair = alice.resolve_conflict(
        "alice", conflict_id, "corrected", correction="Eats fish but no meat."
    )
    assert pair.correction is not None
    assert pair.correction.status is FactStatus.VERIFIED
    assert pair.conflict.correction == "Eats fish but no meat."
    assert {f.text for f in alice.list_facts("alice")} == {"Eats fish but no meat."}
    assert texts(alice, "what does she eat?") == {"Eats fish but no meat."}


def test_corrected_needs_a_text_and_only_corrected_takes_one(alice: Memory) -> None:
    _, _, conflict_id = contradiction(alice, "Is vegetarian.", "Eats steak every week.")
    with pytest.raises(ValueError, match="correction"):
        alice.resolve_conflict("alice", conflict_id, "corrected")
    with pytest.raises(ValueError, match="correction"):
        alice.resolve_conflict("alice", conflict_id, "a_true", correction="Eats fish.")
    assert len(alice.conflicts("alice")) == 1


def test_a_deferred_conflict_stays_out_of_recall_and_comes_back_later(
    alice: Memory, clock: Clock
) -> None:
    _, _, conflict_id = contradiction(alice, "Is vegetarian.", "Eats steak every week.")
    pair = alice.resolve_conflict("alice", conflict_id, Resolution.DEFER)
    assert pair.conflict.status is ConflictStatus.DEFERRED
    assert alice.conflicts("alice") == []
    assert [p.conflict.id for p in alice.conflicts("alice", status="deferred")] == [conflict_id]
    assert texts(alice, "vegetarian steak") == set()
    clock.advance(days=alice.settings.defer_days + 1)
    assert [p.conflict.id for p in alice.conflicts("alice")] == [conflict_id]
    alice.resolve_conflict("alice", conflict_id, "b_true")
    assert texts(alice, "vegetarian steak") == {"Eats steak every week."}


def test_a_resolved_conflict_cannot_be_resolved_again(alice: Memory) -> None:
    _, _, conflict_id = contradiction(alice, "Is vegetarian.", "Eats steak every week.")
    alice.resolve_conflict("alice", conflict_id, "a_true")
    with pytest.raises(ConflictStateError, match="already resolved"):
        alice.resolve_conflict("alice", conflict_id, "b_true")


def test_a_third_contradicting_fact_opens_its_own_pair(alice: Memory) -> None:
    a, b, first_id = contradiction(alice, "Lives in Paris.", "Lives in Lyon.")
    c = alice.add_fact("alice", "Lives in Nice.").fact
    second = alice.resolve("alice", c.id, a.id, "contradicts").conflict
    assert second is not None and second.id != first_id
    assert {(p.fact_a.id, p.fact_b.id) for p in alice.conflicts("alice")} == {
        (a.id, b.id),
        (a.id, c.id),
    }
    with pytest.raises(ConflictStateError, match="already in an open conflict"):
        alice.resolve("alice", c.id, a.id, "contradicts")

    # Paris wins against Lyon, but stays disputed while Nice still disagrees.
    alice.resolve_conflict("alice", first_id, "a_true")
    assert alice.get("alice", a.id).status is FactStatus.DISPUTED
    alice.resolve_conflict("alice", second.id, "a_true")
    assert alice.get("alice", a.id).status is FactStatus.VERIFIED
    assert {f.text for f in alice.list_facts("alice")} == {"Lives in Paris."}


def test_retiring_a_fact_settles_its_other_pairs_for_the_other_side(alice: Memory) -> None:
    a, _, first_id = contradiction(alice, "Lives in Paris.", "Lives in Lyon.")
    c = alice.add_fact("alice", "Lives in Nice.").fact
    second = alice.resolve("alice", c.id, a.id, "contradicts").conflict
    assert second is not None
    alice.resolve_conflict("alice", first_id, "b_true")  # Paris is wrong: Nice's pair settles
    assert alice.conflicts("alice") == []
    [settled] = [p for p in alice.conflicts("alice", "resolved") if p.conflict.id == second.id]
    assert settled.conflict.resolution is Resolution.B_TRUE
    assert {f.text for f in alice.list_facts("alice")} == {"Lives in Lyon.", "Lives in Nice."}
