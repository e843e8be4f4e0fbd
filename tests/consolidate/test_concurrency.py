"""Concurrent consolidation gives the facts of a sequential run, over real HTTP.

The model is `OpenAILLM` talking to a loopback server (tests/llm/scripted_server.py)
that answers each request from its content, after a delay that varies per request,
so replies come back in another order than they were asked. Three profiles of six
sessions, with moves (supersedes) and changes of heart (conflicts), are consolidated
once with one call at a time and once with eight; the facts, their valid times, what
superseded what and the conflicts must be the same, and never more calls in flight
than allowed.
"""

from __future__ import annotations

import json
import re
import threading
import time
import zlib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from somna import Memory, Settings
from somna.embed import BundledEmbedder
from somna.llm import EXTRACT, OpenAILLM, SessionTranscript, TranscriptMessage
from somna.model import FactStatus, Role
from tests.conftest import STORE_BACKENDS
from tests.consolidate.scripted import ScriptedLLM, fact, proposing
from tests.consolidate.test_pipeline import with_llm
from tests.llm.scripted_server import Script, ScriptedChatServer, completion
from tests.support import Clock, all_facts

_LINE = re.compile(r"^\[(?P<index>\d+)\] (?P<speaker>[^:(]+?)(?: \([\d-]+\))?: (?P<said>.*)$", re.M)
_PAIR = re.compile(r"^#(?P<id>\d+) new: (?P<new>.*)\n\s+old(?: \([\d-]+\))?: (?P<old>.*)$", re.M)
_LIVES = re.compile(r"I live in (\w+)")
_FEELS = re.compile(r"I (love|hate) (\w+)")

CITIES = ["Lisbon", "Oslo", "Quito", "Hanoi", "Perth", "Tunis"]
_START = datetime(2026, 5, 3, 9, 0, tzinfo=UTC)


class AnsweringServer(ScriptedChatServer):
    """Answers extraction and judge requests from what they say; counts calls in flight."""

    def __init__(self) -> None:
        super().__init__()
        self.in_flight = 0
        self.most_in_flight = 0

    def answer(self, body: dict[str, Any], headers: dict[str, str]) -> tuple[Script, bytes]:
        prompt = next(m["content"] for m in body["messages"] if m["role"] == "user")
        task = body["response_format"]["json_schema"]["name"]
        with self._lock:
            self.requests.append(body)
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            time.sleep((zlib.crc32(prompt.encode()) % 7) * 0.01)
            value = extract(prompt) if task == "extract" else judge(prompt)
        finally:
            with self._lock:
                self.in_flight -= 1
        raw = json.dumps(completion(json.dumps(value), prompt_tokens=len(prompt) // 4))
        return Script(200, ""), raw.encode()


def extract(prompt: str) -> dict[str, Any]:
    facts, lines = [], list(_LINE.finditer(prompt))
    for line in lines:
        said = line["said"]
        for found in _LIVES.finditer(said):
            facts.append(_fact(f"The user lives in {found[1]}.", found[0], "home", line))
        for found in _FEELS.finditer(said):
            facts.append(_fact(f"The user {found[1]}s {found[2]}.", found[0], "preference", line))
    first = lines[0]
    return {"summary": f"{first['speaker']} said: {first['said']}", "facts": facts}


def _fact(text: str, quote: str, category: str, line: re.Match[str]) -> dict[str, Any]:
    return {
        "type": "fact", "category": category, "subject": "user", "text": text, "quote": quote,
        "message_index": int(line["index"]), "valid_from": None, "confidence": 0.8,
    }  # fmt: skip


def judge(prompt: str) -> dict[str, Any]:
    verdicts = []
    for pair in _PAIR.finditer(prompt):
        new, old = pair["new"], pair["old"]
        if "lives in" in new and "lives in" in old:
            verdict = "supersedes"
        elif new.split()[-1] == old.split()[-1] and new.split()[2] != old.split()[2]:
            verdict = "contradicts"  # loves / hates the same thing
        else:
            verdict = "distinct"
        verdicts.append({"pair_id": int(pair["id"]), "verdict": verdict, "reason": "test"})
    return {"verdicts": verdicts}


@pytest.fixture
def server() -> Iterator[AnsweringServer]:
    running = AnsweringServer()
    thread = threading.Thread(target=running.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield running
    running.closing.set()
    running.shutdown()
    running.server_close()


def night(
    folder: Path, backend: str, embedder: BundledEmbedder, server: AnsweringServer, width: int
) -> tuple[dict[str, Any], Any]:
    """Three profiles' conversations consolidated with `width` calls in flight."""
    clock = Clock(_START)
    llm = OpenAILLM("scripted", base_url=server.url, max_retries=0)
    folder.mkdir()
    store = STORE_BACKENDS[backend](folder)
    memory = Memory(store=store, embedder=embedder, llm=llm, settings=Settings(), clock=clock)
    try:
        for p in range(3):
            profile = f"person-{p}"
            memory.create_profile(profile)
            for s, city in enumerate(CITIES):
                feeling = "love" if (s + p) % 3 else "hate"
                lines = [f"I live in {city} now.", f"I {feeling} cats, honestly."]
                at = _START + timedelta(hours=s)
                memory.add_messages(
                    profile, f"chat-{s}", [{"role": "user", "content": x, "at": at} for x in lines]
                )
        clock.advance(days=1)
        run = memory.consolidate(concurrency=width)
        state = {f"person-{p}": _state(memory, f"person-{p}") for p in range(3)}
        memory.flush()
    finally:
        memory.close()
        llm.close()
    return state, run


def _state(memory: Memory, profile: str) -> dict[str, Any]:
    facts = all_facts(memory, profile)
    text = {f.id: f.text for f in facts}
    conflicts = sorted(
        (text[pair.conflict.fact_a_id], text[pair.conflict.fact_b_id], pair.conflict.status.value)
        for pair in memory.conflicts(profile)
    )
    rows = [
        (f.text, f.status.value, f.valid_from, f.valid_to, text.get(f.superseded_by or ""))
        for f in facts
    ]
    return {
        "facts": sorted(rows),
        "conflicts": conflicts,
        "summaries": sorted(s.text for s in memory.summaries(profile, "session", limit=100)),
    }


@pytest.mark.parametrize("backend", sorted(STORE_BACKENDS))
def test_eight_calls_in_flight_give_the_facts_of_one_at_a_time(
    backend: str, tmp_path: Path, embedder: BundledEmbedder, server: AnsweringServer
) -> None:
    one, run_one = night(tmp_path / "one", backend, embedder, server, 1)
    assert server.most_in_flight == 1
    server.most_in_flight = 0
    eight, run_eight = night(tmp_path / "eight", backend, embedder, server, 8)
    assert 1 < server.most_in_flight <= 8
    assert eight == one
    counts = ("sessions_consolidated", "facts_added", "facts_reinforced", "facts_superseded",
              "facts_disputed", "llm_calls", "prompt_tokens")  # fmt: skip
    assert [getattr(run_eight, c) for c in counts] == [getattr(run_one, c) for c in counts]
    assert run_one.sessions_consolidated == 18 and run_one.sessions_failed == 0
    person = one["person-0"]
    assert any(status == FactStatus.SUPERSEDED.value for _, status, *_ in person["facts"])
    assert person["conflicts"]


class TimedServer(ScriptedChatServer):
    """The scripted server, noting when each request arrives."""

    def __init__(self) -> None:
        super().__init__()
        self.arrivals: list[float] = []

    def answer(self, body: dict[str, Any], headers: dict[str, str]) -> tuple[Script, bytes]:
        with self._lock:
            self.arrivals.append(time.monotonic())
        return super().answer(body, headers)


def test_a_429_holds_back_every_call_to_the_provider_not_only_its_own() -> None:
    server = TimedServer()
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    digest = json.dumps({"summary": "user said hello", "facts": []})
    server.fail(429, "slow down")
    server.reply(digest)
    server.reply(digest)
    llm = OpenAILLM("scripted", base_url=server.url, max_retries=2, backoff=0.6)
    transcript = SessionTranscript(
        session_key="k", date="2026-05-03", user="user",
        messages=[TranscriptMessage(index=0, role=Role.USER, content="hello", at="2026-05-03")],
    )  # fmt: skip
    try:
        first = threading.Thread(target=llm.structured, args=(EXTRACT, transcript))
        first.start()
        while len(server.arrivals) < 1:
            time.sleep(0.01)
        time.sleep(0.1)  # the 429 is in; another call starts now
        llm.structured(EXTRACT, transcript)
        first.join(10)
    finally:
        llm.close()
        server.closing.set()
        server.shutdown()
        server.server_close()
    limited, *later = server.arrivals
    assert len(later) == 2 and min(later) - limited >= 0.55


def test_a_profile_with_nothing_left_never_holds_back_another_profiles_share() -> None:
    """The run's limit is spent only on leased sessions: while one profile's lease finds
    nothing, another profile's take waits for it instead of being refused."""
    from somna.consolidate.calls import CallPool
    from somna.consolidate.job import Job
    from somna.model import Run, Session

    pool = CallPool(1)
    job = Job(
        run=Run(),
        now=_START,
        idle_hours=None,
        dry_run=False,
        worker="test",
        hygiene=False,
        calls=pool,
        ahead=1,
        progress=None,
        budget=1,
        should_stop=lambda: False,
    )
    inside, release = threading.Event(), threading.Event()

    def nothing_left(wanted: int) -> list[Session]:
        inside.set()
        assert release.wait(10)
        return []

    session = Session(profile_id="bob", key="chat", started_at=_START, last_message_at=_START)
    got: list[list[Session]] = []
    first = threading.Thread(target=lambda: got.append(job.take(nothing_left, 1)))
    first.start()
    assert inside.wait(10)
    second = threading.Thread(target=lambda: got.append(job.take(lambda n: [session][:n], 1)))
    second.start()
    release.set()
    first.join()
    second.join()
    pool.close()
    assert got == [[], [session]] and job.budget == 0
    assert job.take(lambda n: [session][:n], 1) == []  # and the limit holds


def test_a_profile_leases_no_more_sessions_ahead_than_its_share_of_the_calls(
    memory: Memory,
) -> None:
    """Four profiles and eight calls in flight: a share of two each, raised to the floor of
    three ahead (one judged, one next, one to spare), never the eight calls of the run."""
    profiles = [f"person-{p}" for p in range(4)]
    for profile in profiles:
        memory.create_profile(profile)
        for s in range(8):
            at = _START + timedelta(hours=s)
            said = [{"role": "user", "content": "I always pick tea over coffee.", "at": at}]
            memory.add_messages(profile, f"chat-{s}", said)
    now = _START + timedelta(days=1)
    held_most: dict[str, int] = {}
    lock = threading.Lock()
    answer = proposing(fact("Prefers tea to coffee.", "I always pick tea over coffee"))

    def extract(transcript: SessionTranscript) -> Any:
        for profile in profiles:
            with memory.store.read(profile) as tx:
                held = len(tx.held_sessions(idle_before=now, now=now))
            with lock:
                held_most[profile] = max(held_most.get(profile, 0), held)
        return answer(transcript)

    run = with_llm(memory, ScriptedLLM(extract)).consolidate(now=now, concurrency=8)
    assert run.sessions_consolidated == 32 and run.sessions_failed == 0
    assert max(held_most.values()) == 3
