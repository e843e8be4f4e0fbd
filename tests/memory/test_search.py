"""`search`: hybrid, scoped and time-aware from the start."""

from __future__ import annotations

import pytest

from somna import Memory


@pytest.fixture
def alice(memory: Memory) -> Memory:
    memory.create_profile("alice")
    for text in [
        "Prefers tea to coffee.",
        "Owns a red bicycle.",
        "Works as a nurse at the city hospital.",
        "Has a sister named Emma.",
        "Is allergic to peanuts.",
    ]:
        memory.add_fact("alice", text)
    return memory


def test_search_finds_facts_by_meaning(alice: Memory) -> None:
    assert alice.search("alice", "what does she drink?", k=1)[0].fact.text == (
        "Prefers tea to coffee."
    )
    assert alice.search("alice", "what is her job?", k=1)[0].fact.text == (
        "Works as a nurse at the city hospital."
    )


def test_search_fuses_full_text_and_vector_ranks(alice: Memory) -> None:
    [hit] = alice.search("alice", "peanuts", k=1)
    assert hit.fact.text == "Is allergic to peanuts."
    assert hit.text_rank == 1 and hit.vector_rank == 1
    assert hit.similarity is not None and 0 < hit.similarity <= 1
    assert hit.score == pytest.approx(2 / 61)


def test_search_returns_at_most_k_hits_best_first(alice: Memory) -> None:
    hits = alice.search("alice", "family", k=3)
    assert len(hits) == 3
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert hits[0].fact.text == "Has a sister named Emma."


def test_search_is_scoped_to_the_profile(alice: Memory) -> None:
    alice.create_profile("bob")
    assert alice.search("bob", "what does she drink?") == []
    alice.add_fact("bob", "Drinks only water.")
    assert [h.fact.text for h in alice.search("bob", "tea or coffee?")] == ["Drinks only water."]
