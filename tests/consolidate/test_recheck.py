"""The nightly re-check: facts added through `add_fact` are judged once against their subject."""

from __future__ import annotations

import pytest

from somna import FactStatus, Memory, Settings
from somna.embed import BundledEmbedder
from somna.errors import LLMError
from somna.llm.tasks import Judgements, JudgeRequest
from somna.model import ConflictStatus, EventAction
from somna.store import Store
from tests.consolidate.scripted import ScriptedLLM, judge_all, proposing
from tests.consolidate.test_pipeline import TEA, chat, with_llm
from tests.consolidate.test_pipeline_faults import GuardedEmbedder, GuardedStore
from tests.support import Clock, all_facts

PARIS = "The user lives in Paris."
BERLIN = "The user has moved to Berlin."
"""A changed home that says it changed: the older one is superseded."""


@pytest.fixture
def alice(memory: Memory) -> Memory:
    memory.create_profile("alice")
    return memory


def test_a_move_added_through_the_api_supersedes_the_old_home_at_night(
    alice: Memory, clock: Clock
) -> None:
    paris = alice.add_fact("alice", PARIS).fact
    clock.advance(days=2)
    berlin = alice.add_fact("alice", BERLIN)
    assert berlin.similar == [] and [c.fact.id for c in berlin.candidates] == [paris.id]
    run = alice.consolidate()  # the offline rules judge a changed place as a supersede
    assert (run.facts_superseded, run.llm_calls, run.status) == (1, 1, "succeeded")
    old = alice.get("alice", paris.id)
    assert old.status is FactStatus.SUPERSEDED and old.superseded_by == berlin.fact.id
    assert old.valid_to == berlin.fact.valid_from
    assert [f.text for f in alice.list_facts("alice")] == [BERLIN]
    last = alice.history("alice", paris.id).events[-1]
    assert (last.action, last.actor) == (EventAction.SUPERSEDED, "consolidation")
    assert alice.get("alice", berlin.fact.id).judged_at == clock.now
    again = alice.consolidate()
    assert (again.facts_superseded, again.llm_calls) == (0, 0)


def test_a_plan_chosen_anew_through_the_api_supersedes_the_old_one_at_night(
    alice: Memory, clock: Clock
) -> None:
    annual = alice.add_fact("alice", "The user pays for the annual plan.").fact
    clock.advance(days=2)
    monthly = alice.add_fact("alice", "L'utilisateur passe désormais au forfait mensuel.").fact
    run = alice.consolidate()
    assert run.facts_superseded == 1
    old = alice.get("alice", annual.id)
    assert old.status is FactStatus.SUPERSEDED and old.superseded_by == monthly.id


def test_each_pair_is_judged_once_the_newer_fact_against_the_older(
    alice: Memory, clock: Clock
) -> None:
    llm = ScriptedLLM(proposing(), judge_all("distinct"))
    m = with_llm(alice, llm)
    m.add_fact("alice", PARIS)
    clock.advance(hours=1)
    m.add_fact("alice", BERLIN)
    m.consolidate()
    [(_, request)] = [(n, r) for n, r in llm.calls if n == "judge"]
    assert isinstance(request, JudgeRequest)
    assert [(p.new, p.existing) for p in request.pairs] == [(BERLIN, PARIS)]
    assert {f.status for f in all_facts(m, "alice")} == {FactStatus.UNVERIFIED}
    m.consolidate()
    assert llm.calls_of("judge") == 1


def test_a_contradiction_found_at_night_opens_a_conflict(alice: Memory, clock: Clock) -> None:
    m = with_llm(alice, ScriptedLLM(proposing(), judge_all("contradicts")))
    m.add_fact("alice", PARIS)
    clock.advance(hours=1)
    m.add_fact("alice", BERLIN)
    run = m.consolidate()
    assert run.facts_disputed == 2
    [pair] = m.conflicts("alice")
    assert pair.conflict.status is ConflictStatus.OPEN
    assert {pair.fact_a.text, pair.fact_b.text} == {PARIS, BERLIN}
    assert m.list_facts("alice") == []


def test_a_duplicate_found_at_night_joins_the_older_fact(alice: Memory, clock: Clock) -> None:
    m = with_llm(alice, ScriptedLLM(proposing(), judge_all("duplicate")))
    older = m.add_fact("alice", PARIS, quote="I live in Paris").fact
    clock.advance(hours=1)
    newer = m.add_fact("alice", BERLIN, quote="home is Berlin now").fact
    run = m.consolidate()
    assert run.facts_reinforced == 1
    assert m.get("alice", newer.id).status is FactStatus.RETIRED
    with m.store.read("alice") as tx:
        quotes = {e.quote for e in tx.evidence([older.id])}
    assert quotes == {"I live in Paris", "home is Berlin now"}


def test_facts_the_pipeline_extracted_are_not_judged_again(alice: Memory, clock: Clock) -> None:
    llm = ScriptedLLM(proposing(TEA), judge_all("supersedes"))
    m = with_llm(alice, llm)
    chat(m, "morning", "I always pick tea over coffee.")
    clock.advance(hours=4)
    m.consolidate()
    [tea] = m.list_facts("alice")
    assert tea.judged_at is not None
    clock.advance(days=1)
    m.consolidate()
    assert llm.calls_of("judge") == 0


def test_a_failed_judge_leaves_the_facts_for_the_next_run(alice: Memory, clock: Clock) -> None:
    def broken(request: JudgeRequest) -> Judgements:
        raise LLMError("The model is down.")

    m = with_llm(alice, ScriptedLLM(proposing(), broken))
    m.add_fact("alice", PARIS)
    clock.advance(hours=1)
    berlin = m.add_fact("alice", BERLIN).fact
    run = m.consolidate()
    assert (run.status, run.facts_superseded) == ("succeeded", 0)
    assert m.get("alice", berlin.id).judged_at is None
    fixed = with_llm(alice, ScriptedLLM(proposing(), judge_all("supersedes")))
    assert fixed.consolidate().facts_superseded == 1


def test_the_recheck_embeds_outside_write_scopes(
    store: Store, embedder: BundledEmbedder, clock: Clock
) -> None:
    guarded = GuardedStore(store)
    guard = GuardedEmbedder(embedder, guarded)
    m = Memory(store=guarded, embedder=guard, settings=Settings(), clock=clock)  # type: ignore[arg-type]
    m.create_profile("alice")
    m.add_fact("alice", PARIS)
    clock.advance(hours=1)
    m.add_fact("alice", BERLIN)
    calls = guard.calls
    assert m.consolidate().facts_superseded == 1
    assert guard.calls > calls
    m.flush()


def test_another_value_in_the_same_frame_is_judged_whatever_its_cosine(
    alice: Memory, clock: Clock
) -> None:
    """0.55 cosine apart with the bundled model, under judge_floor: found by their frame.
    Nothing says the value changed, so a person settles it; until then a prompt shows both,
    marked as disputed, and neither as the truth."""
    paris = alice.add_fact("alice", "Lives in Paris.").fact
    clock.advance(days=2)
    berlin = alice.add_fact("alice", "Lives in Berlin.")
    assert [c.fact.id for c in berlin.candidates] == [paris.id]
    assert alice.consolidate().facts_disputed == 2
    [pair] = alice.conflicts("alice")
    assert {pair.fact_a.id, pair.fact_b.id} == {paris.id, berlin.fact.id}
    block = alice.context("alice", "Where does the user live?")
    lines = [line for line in block.splitlines() if "Paris" in line or "Berlin" in line]
    assert len(lines) == 2 and all("(disputed" in line for line in lines)


def test_a_fact_the_agent_judged_is_left_alone(alice: Memory, clock: Clock) -> None:
    llm = ScriptedLLM(proposing(), judge_all("supersedes"))
    m = with_llm(alice, llm)
    paris = m.add_fact("alice", PARIS).fact
    clock.advance(hours=1)
    berlin = m.add_fact("alice", BERLIN).fact
    m.resolve("alice", berlin.id, paris.id, "distinct", actor="api:agent")
    m.consolidate()
    assert llm.calls_of("judge") == 0
    assert {f.id for f in m.list_facts("alice")} == {paris.id, berlin.id}


def test_many_pairs_go_to_the_judge_in_calls_of_twenty(alice: Memory, clock: Clock) -> None:
    sizes: list[int] = []

    def judge(request: JudgeRequest) -> Judgements:
        sizes.append(len(request.pairs))
        return judge_all("distinct")(request)

    m = with_llm(alice, ScriptedLLM(proposing(), judge))
    cities = ["Lisbon", "Oslo", "Quito", "Hanoi", "Tunis", "Lima", "Riga", "Dakar", "Perth",
              "Cusco", "Bergen", "Malmo", "Porto", "Split", "Ghent", "Turku", "Cork", "Bari",
              "Graz", "Lyon", "Basel", "Brno", "Aarhus", "Tartu", "Braga"]  # fmt: skip
    for city in cities:
        m.add_fact("alice", f"The user has a close friend who lives in {city}.")
        clock.advance(minutes=1)
    m.consolidate()
    assert sum(sizes) == len(cities) - 1 and max(sizes) <= 20 and len(sizes) == 2
    assert all(f.judged_at is not None for f in m.list_facts("alice"))


@pytest.mark.parametrize(
    ("first", "then"),
    [
        # a plan that breaks a stated diet
        (
            "The user has been vegetarian for ten years.",
            "The user ordered the chicken wings platter for the team lunch.",
        ),
        # an age the calendar rules out
        ("Theo, the user's son, is 12.", "Theo is 9, so he goes with the juniors."),
    ],
)
def test_what_the_rules_set_against_an_older_fact_opens_a_conflict_at_night(
    alice: Memory, clock: Clock, first: str, then: str
) -> None:
    older = alice.add_fact("alice", first).fact
    clock.advance(days=2)
    added = alice.add_fact("alice", then)
    assert older.id in [c.fact.id for c in added.similar + added.candidates]
    run = alice.consolidate()
    assert (run.facts_disputed, run.llm_calls) == (2, 0)  # the rules decide: no judge asked
    [conflict] = alice.conflicts("alice")
    assert {conflict.fact_a.id, conflict.fact_b.id} == {older.id, added.fact.id}


def test_a_count_given_anew_through_the_api_supersedes_the_older_one_at_night(
    alice: Memory, clock: Clock
) -> None:
    older = alice.add_fact(
        "alice", "The guest list for the gala is at about 110.", category="event"
    ).fact
    clock.advance(days=2)
    newer = alice.add_fact(
        "alice", "Update: the gala guest list is at 130 now.", category="event"
    ).fact
    run = alice.consolidate()
    assert run.facts_superseded == 1
    assert alice.get("alice", older.id).superseded_by == newer.id
