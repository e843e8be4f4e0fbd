"""`add_fact` hands back, apart from near-duplicates, the facts it may contradict."""

from __future__ import annotations

from somna import Memory


def test_a_changed_value_comes_back_as_a_candidate_to_judge(memory: Memory) -> None:
    memory.create_profile("odile")
    paris = memory.add_fact("odile", "The user lives in Paris.").fact
    memory.add_fact("odile", "The user plays the cello in an amateur orchestra.")
    added = memory.add_fact("odile", "The user lives in Berlin.")
    assert added.similar == []  # cosine 0.64 with the bundled model: under the neighbor floor
    assert [c.fact.id for c in added.candidates] == [paris.id]
    [candidate] = added.candidates
    floors = memory.profile_settings("odile")
    assert floors.judge_floor <= candidate.similarity < floors.neighbor_floor


def test_facts_of_another_subject_are_no_candidates(memory: Memory) -> None:
    memory.create_profile("odile")
    memory.add_fact("odile", "The user lives in Paris.", subject="Tariq")
    assert memory.add_fact("odile", "The user lives in Berlin.").candidates == []


def test_a_near_duplicate_is_similar_not_a_candidate(memory: Memory) -> None:
    memory.create_profile("odile")
    first = memory.add_fact("odile", "Is allergic to peanuts.").fact
    added = memory.add_fact("odile", "Has a peanut allergy.")
    assert first.id in {s.fact.id for s in added.similar} | {c.fact.id for c in added.candidates}
    assert not {s.fact.id for s in added.similar} & {c.fact.id for c in added.candidates}


def test_another_choice_of_the_same_kind_comes_back_as_a_candidate(memory: Memory) -> None:
    memory.create_profile("odile")
    annual = memory.add_fact("odile", "The user pays for the annual plan.").fact
    memory.add_fact("odile", "The user plays the cello in an amateur orchestra.")
    added = memory.add_fact("odile", "L'utilisateur passe au forfait mensuel.")
    assert annual.id in [c.fact.id for c in added.candidates]
