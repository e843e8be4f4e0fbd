"""The nightly consolidation: what it writes, what it refuses, and that it is safe to rerun."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from somna import FactStatus, Memory, Settings
from somna.embed import Embedder
from somna.errors import StoreError
from somna.llm.tasks import SessionDigest
from somna.model import ConflictStatus, SummaryKind
from somna.store import Store
from somna.store.sqlite import SQLiteStore
from tests.consolidate.scripted import ScriptedLLM, fact, judge_all, proposing
from tests.support import Clock, all_facts

TEA = fact("Prefers tea to coffee.", "I always pick tea over coffee")
BERLIN = fact("The user lives in Berlin.", "I moved to Berlin last month", category="home")
PARIS = fact("The user lives in Paris.", "I live in Paris", category="home")


def chat(memory: Memory, key: str, *lines: str, at: Any = None) -> None:
    memory.add_messages(
        "alice", key, [{"role": "user" if i % 2 == 0 else "assistant", "content": line,
                        **({"at": at} if at else {})} for i, line in enumerate(lines)]
    )  # fmt: skip


def with_llm(memory: Memory, llm: ScriptedLLM, **settings: Any) -> Memory:
    return Memory(
        store=memory.store,
        embedder=memory.embedder,
        llm=llm,
        settings=Settings(**settings),
        clock=memory._clock,
    )


@pytest.fixture
def alice(memory: Memory) -> Memory:
    memory.create_profile("alice")
    return memory


def test_a_quiet_session_becomes_facts_with_evidence_and_a_summary(
    alice: Memory, clock: Clock
) -> None:
    llm = ScriptedLLM(proposing(TEA, summary="Alice said she prefers tea."))
    m = with_llm(alice, llm)
    chat(m, "morning", "Hi! I always pick tea over coffee.", "Noted, tea it is.")
    clock.advance(hours=4)
    run = m.consolidate()
    assert (run.sessions_seen, run.sessions_consolidated, run.facts_added) == (1, 1, 1)
    [stored] = m.list_facts("alice")
    assert stored.text == "Prefers tea to coffee." and stored.status is FactStatus.UNVERIFIED
    [evidence] = m.history("alice", stored.id).evidence
    assert evidence.quote == "I always pick tea over coffee" and evidence.message_id
    [summary] = m.summaries("alice", "session")
    assert summary.text == "Alice said she prefers tea." and stored.id in summary.sources
    assert m.window("alice", "morning") == []  # archived out of the hot table
    assert run.messages_archived == 2 and run.status == "succeeded"
    assert [r.id for r in m.runs()] == [run.id]


def test_sessions_still_active_are_left_for_later(alice: Memory, clock: Clock) -> None:
    m = with_llm(alice, ScriptedLLM(proposing(TEA)))
    chat(m, "morning", "I always pick tea over coffee.")
    clock.advance(hours=2)
    assert m.consolidate().sessions_seen == 0
    assert m.consolidate(idle_hours=1).sessions_consolidated == 1


def test_invariant_5_a_fact_without_a_verbatim_quote_is_rejected_and_counted(
    alice: Memory, clock: Clock
) -> None:
    invented = fact("Hates coffee.", "coffee is disgusting")
    paraphrased = fact("Prefers tea.", "I prefer tea")
    folded = fact("Prefers tea to coffee.", "  i ALWAYS pick   tea over coffee ")
    m = with_llm(
        alice,
        ScriptedLLM(lambda t: SessionDigest(summary="", facts=[invented, paraphrased, folded])),
    )
    chat(m, "morning", "Honestly, I always pick tea over coffee!")
    clock.advance(hours=4)
    run = m.consolidate()
    assert run.facts_rejected == 2 and run.facts_added == 1
    assert {r["text"] for r in run.rejections} == {"Hates coffee.", "Prefers tea."}
    assert all("quote" in r["reason"] for r in run.rejections)
    for stored in all_facts(m, "alice"):
        quotes = [e.quote for e in m.history("alice", stored.id).evidence]
        assert quotes and all(
            " ".join(q.split()).casefold() in "honestly, i always pick tea over coffee!"
            for q in quotes
        )


def test_a_fact_whose_text_is_not_one_sentence_is_rejected(alice: Memory, clock: Clock) -> None:
    two = fact("Likes tea. Hates coffee.", "I always pick tea over coffee")
    m = with_llm(alice, ScriptedLLM(proposing(two)))
    chat(m, "morning", "I always pick tea over coffee.")
    clock.advance(hours=4)
    run = m.consolidate()
    assert run.facts_rejected == 1 and "single sentence" in run.rejections[0]["reason"]
    assert m.list_facts("alice") == []


def test_a_fact_seen_again_is_reinforced_not_duplicated(alice: Memory, clock: Clock) -> None:
    m = with_llm(alice, ScriptedLLM(proposing(TEA)))
    chat(m, "monday", "I always pick tea over coffee.")
    clock.advance(days=1)
    m.consolidate()
    chat(m, "tuesday", "As I said, I always pick tea over coffee.")
    clock.advance(days=1)
    run = m.consolidate()
    assert (run.facts_added, run.facts_reinforced) == (0, 1)
    [stored] = m.list_facts("alice")
    assert len(m.history("alice", stored.id).evidence) == 2
    assert stored.confidence > TEA.confidence


def test_a_neighbor_judged_duplicate_gains_evidence_instead_of_a_twin(
    alice: Memory, clock: Clock
) -> None:
    alice.add_fact("alice", "Likes tea more than coffee.")
    llm = ScriptedLLM(proposing(TEA), judge_all("duplicate"))
    m = with_llm(alice, llm)
    chat(m, "monday", "I always pick tea over coffee.")
    clock.advance(hours=4)
    run = m.consolidate()
    assert (run.facts_added, run.facts_reinforced) == (0, 1)
    assert [f.text for f in m.list_facts("alice")] == ["Likes tea more than coffee."]
    assert llm.calls_of("judge") == 1


def test_a_supersede_sets_valid_to_and_superseded_at(alice: Memory, clock: Clock) -> None:
    old = alice.add_fact("alice", "The user lives in Paris.", category="home").fact
    clock.advance(days=30)
    m = with_llm(alice, ScriptedLLM(proposing(BERLIN), judge_all("supersedes")))
    chat(m, "news", "Big news: I moved to Berlin last month.")
    clock.advance(hours=4)
    run = m.consolidate()
    assert run.facts_superseded == 1
    closed = m.get("alice", old.id)
    [berlin] = m.list_facts("alice")
    assert closed.status is FactStatus.SUPERSEDED
    assert closed.valid_to == berlin.valid_from and closed.superseded_by == berlin.id
    assert closed.superseded_at == clock.now


def test_an_unsettled_contradiction_opens_a_disputed_pair(alice: Memory, clock: Clock) -> None:
    alice.add_fact("alice", "The user lives in Paris.", category="home")
    m = with_llm(alice, ScriptedLLM(proposing(BERLIN), judge_all("contradicts")))
    chat(m, "news", "I moved to Berlin last month, I think.")
    clock.advance(hours=4)
    run = m.consolidate()
    assert run.facts_disputed == 2
    [pair] = m.conflicts("alice")
    assert pair.conflict.status is ConflictStatus.OPEN
    assert {pair.fact_a.text, pair.fact_b.text} == {
        "The user lives in Paris.",
        "The user lives in Berlin.",
    }
    assert m.search("alice", "where does she live?") == []


def test_llm_calls_per_session_are_at_most_two(alice: Memory, clock: Clock) -> None:
    for text in ("The user lives in Paris.", "Prefers coffee to tea.", "Likes tea with milk."):
        alice.add_fact("alice", text)
    llm = ScriptedLLM(proposing(TEA, BERLIN), judge_all("distinct"))
    m = with_llm(alice, llm)
    for day in range(3):
        chat(m, f"day-{day}", "I always pick tea over coffee.", "I moved to Berlin last month.")
    clock.advance(hours=4)
    run = m.consolidate()
    assert run.sessions_consolidated == 3
    assert llm.calls_of("extract") == 3 and llm.calls_of("judge") <= 3
    assert run.llm_calls == len(llm.calls) <= 2 * run.sessions_consolidated
    assert run.prompt_tokens == 100 * 3 + 50 * llm.calls_of("judge")


def test_a_failed_model_call_fails_the_session_and_writes_nothing(
    alice: Memory, clock: Clock
) -> None:
    def broken(_: Any) -> SessionDigest:
        raise StoreError("The model server is down.")

    m = with_llm(alice, ScriptedLLM(broken))
    chat(m, "morning", "I always pick tea over coffee.")
    clock.advance(hours=4)
    run = m.consolidate()
    assert (run.sessions_failed, run.sessions_consolidated, run.status) == (1, 0, "partial")
    assert "model server is down" in run.failures[0]["error"]
    assert all_facts(m, "alice") == [] and len(m.window("alice", "morning")) == 1
    clock.advance(minutes=1)  # the next run, not the same one, takes it again
    fixed = with_llm(alice, ScriptedLLM(proposing(TEA)))
    assert fixed.consolidate().sessions_consolidated == 1


def test_consolidating_twice_is_a_no_op(alice: Memory, clock: Clock) -> None:
    m = with_llm(alice, ScriptedLLM(proposing(TEA)))
    chat(m, "morning", "I always pick tea over coffee.")
    clock.advance(hours=4)
    m.consolidate()
    before = [f.model_dump() for f in all_facts(m, "alice")]
    again = m.consolidate()
    assert (again.sessions_seen, again.facts_added, again.facts_reinforced) == (0, 0, 0)
    assert [f.model_dump() for f in all_facts(m, "alice")] == before


def test_a_dry_run_reports_and_writes_nothing(alice: Memory, clock: Clock) -> None:
    m = with_llm(alice, ScriptedLLM(proposing(TEA)))
    chat(m, "morning", "I always pick tea over coffee.")
    clock.advance(hours=4)
    run = m.consolidate(dry_run=True)
    assert (run.sessions_consolidated, run.facts_added, run.dry_run) == (1, 1, True)
    assert all_facts(m, "alice") == [] and m.runs() == []
    assert len(m.window("alice", "morning")) == 1
    assert m.consolidate().facts_added == 1


class _Crash(Exception):
    """The fault injected in the middle of a session's write."""


class _FaultyStore:
    """A store that fails inside the write of the first session it finishes, once."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.armed = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    @contextmanager
    def write(self, profile_id: str) -> Iterator[Any]:
        with self._store.write(profile_id) as tx:
            yield _FaultyWriter(tx, self)


class _FaultyWriter:
    def __init__(self, tx: Any, store: _FaultyStore) -> None:
        self._tx, self._store = tx, store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tx, name)

    def finish_session(self, *args: Any, **kwargs: Any) -> int:
        if self._store.armed:
            self._store.armed = False
            raise _Crash("power cut")
        return int(self._tx.finish_session(*args, **kwargs))


def _state(memory: Memory) -> list[tuple[str, str, list[str]]]:
    return sorted(
        (f.text, f.status.value, sorted(e.quote for e in memory.history("alice", f.id).evidence))
        for f in all_facts(memory, "alice")
    )


def test_invariant_6_a_crash_mid_write_leaves_the_session_unconsolidated_and_a_rerun_is_clean(
    alice: Memory, clock: Clock, tmp_path: Path, embedder: Embedder
) -> None:
    llm = ScriptedLLM(proposing(TEA, PARIS))
    faulty = _FaultyStore(alice.store)
    m = Memory(store=faulty, embedder=embedder, llm=llm, settings=Settings(), clock=clock)  # type: ignore[arg-type]
    chat(m, "morning", "I always pick tea over coffee.", "I live in Paris, you know.")
    clock.advance(hours=4)
    crashed = m.consolidate()  # the failure is this profile's alone, recorded
    assert crashed.failures == [{"profile": "alice", "error": "_Crash: power cut"}]
    assert all_facts(m, "alice") == []
    assert m.summaries("alice") == []
    assert len(m.window("alice", "morning")) == 2
    # The lease of the crashed worker expires; a rerun then does the whole session once.
    clock.advance(minutes=m.settings.lease_minutes + 1)
    rerun = m.consolidate()
    assert rerun.sessions_consolidated == 1

    clean = Memory(
        store=SQLiteStore(tmp_path / "clean.db"), embedder=embedder, llm=ScriptedLLM(
            proposing(TEA, PARIS)), settings=Settings(), clock=clock,
    )  # fmt: skip
    clean.create_profile("alice")
    chat(clean, "morning", "I always pick tea over coffee.", "I live in Paris, you know.")
    clock.advance(hours=4)
    clean.consolidate()
    assert _state(m) == _state(clean) != []


def test_two_consolidators_started_together_take_every_session_once(
    tmp_path: Path, embedder: Embedder, clock: Clock
) -> None:
    path = tmp_path / "shared.db"
    setup = Memory(store=SQLiteStore(path), embedder=embedder, settings=Settings(), clock=clock)
    setup.create_profile("alice")
    for i in range(12):
        chat(setup, f"chat-{i}", "I always pick tea over coffee.")
    clock.advance(hours=4)
    llms = [ScriptedLLM(proposing(TEA)) for _ in range(2)]
    workers = [
        Memory(store=SQLiteStore(path), embedder=embedder, llm=llm, settings=Settings(),
               clock=clock)
        for llm in llms
    ]  # fmt: skip
    runs: list[Any] = []
    barrier = threading.Barrier(2)

    def work(memory: Memory) -> None:
        barrier.wait()
        runs.append(memory.consolidate(limit=6))

    threads = [threading.Thread(target=work, args=(w,)) for w in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(r.sessions_consolidated for r in runs) == 12
    assert sum(llm.calls_of("extract") for llm in llms) == 12
    [stored] = setup.list_facts("alice")
    assert len(setup.history("alice", stored.id).evidence) == 12


def test_archived_messages_are_purged_after_their_retention(alice: Memory, clock: Clock) -> None:
    m = with_llm(alice, ScriptedLLM(proposing(TEA)), archive_days=7)
    chat(m, "morning", "I always pick tea over coffee.", "Tea it is.")
    clock.advance(hours=4)
    assert m.consolidate().messages_archived == 2
    clock.advance(days=6)
    assert m.consolidate().messages_purged == 0
    clock.advance(days=2)
    assert m.consolidate().messages_purged == 2
    [stored] = m.list_facts("alice")  # the facts and their quotes outlive the raw chat
    assert m.history("alice", stored.id).evidence[0].quote == "I always pick tea over coffee"


def test_facts_expire_after_their_category_ttl(alice: Memory, clock: Clock) -> None:
    m = with_llm(alice, ScriptedLLM(proposing()), ttl_days={"intent": 30})
    plan = m.add_fact("alice", "Wants to buy a bike this month.", category="intent").fact
    keep = m.add_fact("alice", "Has a brother named Tom.", category="family").fact
    clock.advance(days=29)
    assert m.consolidate().facts_expired == 0
    clock.advance(days=2)
    assert m.consolidate().facts_expired == 1
    assert m.get("alice", plan.id).status is FactStatus.EXPIRED
    assert m.get("alice", keep.id).status is FactStatus.UNVERIFIED
    assert [e.action.value for e in m.history("alice", plan.id).events][-1] == "expired"
    assert [f.id for f in m.list_facts("alice")] == [keep.id]


def test_strength_fades_on_the_forgetting_curve(alice: Memory, clock: Clock) -> None:
    m = with_llm(alice, ScriptedLLM(proposing()), stability_days=30)
    stored = m.add_fact("alice", "Has a brother named Tom.").fact
    clock.advance(days=30)
    m.consolidate()
    assert m.get("alice", stored.id).strength == pytest.approx(0.3679, abs=1e-3)
    clock.advance(days=30)
    m.consolidate()
    assert m.get("alice", stored.id).strength == pytest.approx(0.1353, abs=1e-3)


def test_the_night_writes_a_day_digest_and_refreshes_the_portrait(
    alice: Memory, clock: Clock
) -> None:
    identity = fact("Works as a nurse.", "I work as a nurse", type="persona", category="identity")
    told = "The user talked about work and tea."
    m = with_llm(alice, ScriptedLLM(proposing(TEA, identity, summary=told)))
    chat(m, "morning", "I work as a nurse.", "Nice!", at=clock.now.isoformat())
    chat(m, "evening", "I always pick tea over coffee.", at=clock.now.isoformat())
    clock.advance(hours=4)
    m.consolidate()
    [day] = m.summaries("alice", SummaryKind.DAY)
    assert day.text.startswith(clock.now.date().isoformat()) and len(day.sources) == 2
    [portrait] = m.summaries("alice", SummaryKind.PORTRAIT)
    assert "Works as a nurse." in portrait.text and "Prefers tea to coffee." in portrait.text
    clock.advance(days=1)
    m.consolidate()
    assert len(m.summaries("alice", SummaryKind.PORTRAIT)) == 1  # unchanged: not rewritten


def test_a_negated_twin_goes_to_the_judge_not_the_duplicate_shortcut(
    alice: Memory, clock: Clock
) -> None:
    alice.add_fact("alice", "The user is a morning person.")
    denial = fact("The user is not a morning person.", "I'm not a morning person")
    llm = ScriptedLLM(proposing(denial), judge_all("contradicts"))
    m = with_llm(alice, llm)
    chat(m, "dinner", "Honestly, I'm not a morning person.")
    clock.advance(hours=4)
    run = m.consolidate()
    assert llm.calls_of("judge") == 1 and run.facts_disputed == 2


def test_the_same_words_reinforce_without_asking_the_model(alice: Memory, clock: Clock) -> None:
    alice.add_fact("alice", "The user likes green tea a lot.")
    same = fact("A lot, the user likes green tea.", "I like green tea a lot")
    llm = ScriptedLLM(proposing(same), judge_all("distinct"))
    m = with_llm(alice, llm)
    chat(m, "tea", "I like green tea a lot.")
    clock.advance(hours=4)
    run = m.consolidate()
    assert llm.calls_of("judge") == 0 and run.facts_reinforced == 1


def test_one_off_events_are_not_sent_to_the_judge(alice: Memory, clock: Clock) -> None:
    alice.add_fact("alice", "The user went to a jazz concert in Lyon.", category="event")
    trip = fact(
        "The user went to a rock concert in Lyon.", "I went to a rock concert", category="event"
    )
    llm = ScriptedLLM(proposing(trip), judge_all("supersedes"))
    m = with_llm(alice, llm)
    chat(m, "weekend", "I went to a rock concert in Lyon!")
    clock.advance(hours=4)
    run = m.consolidate()
    assert llm.calls_of("judge") == 0 and (run.facts_added, run.facts_superseded) == (1, 0)


def test_a_polling_run_without_hygiene_records_nothing_when_idle(
    alice: Memory, clock: Clock
) -> None:
    m = with_llm(alice, ScriptedLLM(proposing(TEA)), ttl_days={"intent": 1})
    plan = m.add_fact("alice", "Wants to call the bank today.", category="intent").fact
    clock.advance(days=2)
    idle = m.consolidate(hygiene=False)
    assert (idle.sessions_seen, idle.facts_expired) == (0, 0) and m.runs() == []
    assert m.get("alice", plan.id).status is FactStatus.UNVERIFIED
    chat(m, "morning", "I always pick tea over coffee.")
    clock.advance(hours=4)
    busy = m.consolidate(hygiene=False)  # the profile it worked on is tidied
    assert (busy.sessions_consolidated, busy.facts_expired) == (1, 1)
    assert [r.id for r in m.runs()] == [busy.id]
