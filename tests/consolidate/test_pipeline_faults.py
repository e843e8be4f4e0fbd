"""Consolidation under faults: embeddings outside write scopes, messages arriving mid-run,
models that break or hang, leases that must outlive a slow model, sessions that keep failing."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest

from somna import Memory, Settings
from somna.embed import BundledEmbedder, Embedder
from somna.llm import OpenAILLM
from somna.llm.tasks import SessionDigest, SessionTranscript
from somna.model import Run, RunStatus, Session, SummaryKind
from somna.store import Store
from somna.store.sqlite import SQLiteStore
from tests.consolidate.scripted import ScriptedLLM, fact, proposing
from tests.consolidate.test_pipeline import TEA, chat, with_llm
from tests.interfaces.api.live import serving
from tests.llm.scripted_server import ScriptedChatServer, serve
from tests.support import Clock, all_facts

COFFEE = fact("Drinks coffee at night.", "I drink coffee at night", category="habit")
NAME = fact("The user is called Robin.", "my name is Robin", category="persona")


@pytest.fixture
def alice(memory: Memory) -> Memory:
    memory.create_profile("alice")
    return memory


def session_of(memory: Memory, key: str) -> Session:
    with memory.store.read("alice") as tx:
        found = tx.latest_session(key)
    assert found is not None
    return found


# -- 12.8: no embedder call while a write scope is open ---------------------------------


class _Scopes(threading.local):
    open_writes = 0


class GuardedStore:
    """The store, counting the write scopes open on the calling thread."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.scopes = _Scopes()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    @contextmanager
    def write(self, profile_id: str) -> Iterator[Any]:
        self.scopes.open_writes += 1
        try:
            with self._store.write(profile_id) as tx:
                yield tx
        finally:
            self.scopes.open_writes -= 1


class GuardedEmbedder:
    """The real embedder, which refuses to run while its thread holds a write scope."""

    def __init__(self, inner: Embedder, store: GuardedStore) -> None:
        self._inner, self._store = inner, store
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def embed(self, texts: list[str]) -> np.ndarray:
        assert self._store.scopes.open_writes == 0, "embedder called inside a write scope"
        self.calls += 1
        return self._inner.embed(texts)


def test_the_embedder_is_never_called_inside_a_write_scope(
    store: Store, embedder: BundledEmbedder, clock: Clock
) -> None:
    guarded = GuardedStore(store)
    guard = GuardedEmbedder(embedder, guarded)
    llm = ScriptedLLM(proposing(TEA, COFFEE, NAME, summary="The user talked about coffee."))
    m = Memory(store=guarded, embedder=guard, llm=llm, settings=Settings(), clock=clock)  # type: ignore[arg-type]
    m.create_profile("alice")
    chat(m, "morning", "my name is Robin and I always pick tea over coffee.")
    chat(m, "evening", "I drink coffee at night, though.")
    clock.advance(hours=4)
    run = m.consolidate(concurrency=4)
    assert (run.sessions_consolidated, run.sessions_failed, run.facts_added) == (2, 0, 3)
    assert len(m.summaries("alice", SummaryKind.SESSION)) == 2
    assert len(m.summaries("alice", SummaryKind.DAY)) == 1
    assert len(m.summaries("alice", SummaryKind.PORTRAIT)) == 1
    assert guard.calls >= 3  # facts and summaries of each session, then digest and portrait
    m.flush()


# -- 12.2: only the messages read are archived -------------------------------------------


def test_a_message_sent_during_consolidation_stays_in_a_live_session(
    alice: Memory, clock: Clock
) -> None:
    def extract(transcript: SessionTranscript) -> SessionDigest:
        if transcript.session_key == "morning" and len(transcript.messages) == 2:
            chat(alice, "morning", "One more thing: my name is Robin.")  # arrives mid-run
        return proposing(TEA, NAME)(transcript)

    m = with_llm(alice, ScriptedLLM(extract))
    chat(m, "morning", "I always pick tea over coffee.", "Noted.")
    clock.advance(hours=4)
    run = m.consolidate()
    assert (run.sessions_consolidated, run.messages_archived) == (1, 2)
    assert [f.text for f in m.list_facts("alice")] == [TEA.text]
    late = m.window("alice", "morning")
    assert [msg.content for msg in late] == ["One more thing: my name is Robin."]
    assert late[0].seq == 0
    assert session_of(m, "morning").status.value == "open"
    clock.advance(hours=4)
    again = m.consolidate()
    assert (again.sessions_consolidated, again.messages_archived) == (1, 1)
    assert sorted(f.text for f in m.list_facts("alice")) == sorted([TEA.text, NAME.text])


# -- 12.3 and 12.4: a broken or hanging model fails its session alone ---------------------


def test_any_model_exception_fails_that_session_only_and_releases_its_lease(
    alice: Memory, clock: Clock
) -> None:
    def extract(transcript: SessionTranscript) -> SessionDigest:
        if transcript.session_key == "broken":
            json.loads("{not json")  # what a malformed reply used to raise
        return proposing(TEA)(transcript)

    m = with_llm(alice, ScriptedLLM(extract))
    for key in ("first", "broken", "last"):
        chat(m, key, "I always pick tea over coffee.")
    clock.advance(hours=4)
    run = m.consolidate()
    assert (run.sessions_seen, run.sessions_consolidated, run.sessions_failed) == (3, 2, 1)
    assert run.status == "partial" and run.failures[0]["key"] == "broken"
    assert "JSONDecodeError" in run.failures[0]["error"]
    broken = session_of(m, "broken")
    assert (broken.lease_owner, broken.attempts, broken.status.value) == (None, 1, "open")


def test_a_model_slower_than_the_session_deadline_fails_that_session_only(
    alice: Memory, clock: Clock
) -> None:
    release = threading.Event()

    def extract(transcript: SessionTranscript) -> SessionDigest:
        if transcript.session_key == "slow":
            release.wait(10)
        return proposing(TEA)(transcript)

    m = with_llm(alice, ScriptedLLM(extract), session_deadline_s=0.3)
    for key in ("slow", "quick"):
        chat(m, key, "I always pick tea over coffee.")
    clock.advance(hours=4)
    started = time.monotonic()
    run = m.consolidate(concurrency=2)
    release.set()
    assert time.monotonic() - started < 5
    assert (run.sessions_consolidated, run.sessions_failed) == (1, 1), run.failures
    assert run.failures[0]["key"] == "slow" and "session_deadline_s" in run.failures[0]["error"]
    assert session_of(m, "slow").lease_owner is None


def test_a_malformed_model_reply_over_http_fails_one_session_and_the_api_answers_200(
    tmp_path: Path, embedder: BundledEmbedder, clock: Clock
) -> None:
    server_gen = serve()
    server: ScriptedChatServer = next(server_gen)
    try:
        llm = OpenAILLM("scripted", base_url=server.url, max_retries=0)
        m = Memory(
            store=SQLiteStore(tmp_path / "somna.db"), embedder=embedder, llm=llm,
            settings=Settings(), clock=clock,
        )  # fmt: skip
        m.create_profile("alice")
        chat(m, "morning", "I always pick tea over coffee.")
        clock.advance(hours=4)
        server.push((200, "json:{this is not json", 0.0))
        from somna.interfaces.api import create_app

        with serving(create_app(m, auth=False)) as url:
            answer = httpx.post(f"{url}/v1/consolidate", json={"profile": "alice"}, timeout=60)
        assert answer.status_code == 200, answer.text
        assert (answer.json()["sessions_failed"], answer.json()["status"]) == (1, "partial")
        assert session_of(m, "morning").lease_owner is None
        m.close()
    finally:
        server_gen.close()


# -- 17.5: leases renewed per session, failing sessions back off -------------------------


def test_a_slow_model_never_lets_another_worker_take_a_session_in_progress(
    alice: Memory, clock: Clock
) -> None:
    lease = alice.settings.lease_minutes
    taken_meanwhile: list[str] = []

    def extract(transcript: SessionTranscript) -> SessionDigest:
        clock.advance(minutes=lease * 0.7)  # each session takes most of a lease
        with alice.store.write("alice") as tx:
            taken = tx.lease_sessions(
                idle_before=clock(), now=clock(), owner="other", until=clock(), limit=100
            )
            for session in taken:
                tx.release_session(session.id, "other", retry_at=None)
        taken_meanwhile.extend(s.key for s in taken if s.key == transcript.session_key)
        return proposing(TEA)(transcript)

    m = with_llm(alice, ScriptedLLM(extract))
    for i in range(4):
        chat(m, f"chat-{i}", "I always pick tea over coffee.")
    clock.advance(hours=4)
    run = m.consolidate(concurrency=1)
    assert (run.sessions_consolidated, run.sessions_failed) == (4, 0)
    assert taken_meanwhile == []


def test_a_session_that_keeps_failing_waits_longer_each_time(alice: Memory, clock: Clock) -> None:
    def extract(transcript: SessionTranscript) -> SessionDigest:
        if transcript.session_key == "bad":
            raise RuntimeError("the model choked")
        return proposing(TEA)(transcript)

    m = with_llm(alice, ScriptedLLM(extract))
    chat(m, "bad", "I always pick tea over coffee.")
    clock.advance(hours=4)
    assert m.consolidate().sessions_failed == 1
    assert m.consolidate().sessions_seen == 0  # never twice in the same second
    clock.advance(seconds=1)
    assert m.consolidate().sessions_failed == 1  # a first failure is retried by the next run
    assert m.consolidate().sessions_seen == 0  # then it waits
    assert session_of(m, "bad").attempts == 2
    clock.advance(minutes=6)
    assert m.consolidate().sessions_failed == 1
    clock.advance(minutes=6)
    assert m.consolidate().sessions_seen == 0  # twice as long now
    clock.advance(minutes=5)
    assert m.consolidate().sessions_seen == 1
    chat(m, "good", "I always pick tea over coffee.")
    clock.advance(hours=4)
    run = m.consolidate()
    assert [f["key"] for f in run.failures] == ["bad"] and run.sessions_consolidated == 1
    assert all_facts(m, "alice")


def test_a_stop_request_takes_no_new_session_and_finishes_those_started(
    alice: Memory, clock: Clock
) -> None:
    m = with_llm(alice, ScriptedLLM(proposing(TEA)))
    for i in range(3):
        chat(m, f"chat-{i}", "I always pick tea over coffee.")
    clock.advance(hours=4)
    finished: list[str] = []
    run = m.consolidate(
        concurrency=1, progress=lambda s: finished.append(s.key), should_stop=lambda: bool(finished)
    )
    assert (run.sessions_seen, run.sessions_consolidated, run.status) == (1, 1, "succeeded")
    assert [session_of(m, f"chat-{i}").lease_owner for i in (1, 2)] == [None, None]
    assert m.consolidate().sessions_consolidated == 2


class SignalledStore:
    """The store, which sends the process a Ctrl-C as the run's end is recorded."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def save_run(self, run: Run) -> None:
        self._store.save_run(run)
        if run.status is not RunStatus.RUNNING:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.3)  # the main thread meets it while the run is ending


def test_a_signal_while_the_run_ends_lets_it_end_as_it_was(
    store: Store, embedder: BundledEmbedder, clock: Clock
) -> None:
    """The run's profiles were done: the signal is too late to stop anything, and it must
    not leave the run half recorded, its leases held."""
    m = Memory(
        store=SignalledStore(store),  # type: ignore[arg-type]
        embedder=embedder,
        llm=ScriptedLLM(proposing(TEA)),
        settings=Settings(),
        clock=clock,
    )
    m.create_profile("alice")
    chat(m, "morning", "I always pick tea over coffee.")
    clock.advance(hours=4)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        run = m.consolidate()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert (run.status, run.sessions_consolidated) == ("succeeded", 1)
    assert [r.status for r in m.runs()] == ["succeeded"]
    assert session_of(m, "morning").lease_owner is None
