"""Erasure leaves no trace: a marker written through every path is gone from the raw bytes.

On SQLite the database file and its WAL are read as bytes; on Postgres every
row of every table of the store is read as text. A second profile shows that
erasure stops at the profile.
"""

from __future__ import annotations

import json
from contextlib import suppress
from pathlib import Path

import psycopg
import pytest

from somna import Memory, Settings
from somna.errors import LLMError, ProfileNotFoundError
from somna.llm.tasks import SessionDigest, SessionTranscript
from somna.store.postgres import PostgresStore
from somna.store.sqlite import SQLiteStore
from tests.conftest import POSTGRES
from tests.consolidate.scripted import ScriptedLLM, fact, judge_all
from tests.support import Clock

MARKER = "Xqzvkplw"
# FTS5 stores a term after the prefix it shares with the term before it: look for both.
NEEDLES = (MARKER.casefold().encode(), MARKER.casefold()[3:].encode())


def extract(transcript: SessionTranscript) -> SessionDigest:
    """Proposes one true fact and one whose quote was never said, in the word the session key
    ends with; fails on a 'fail-' session."""
    word = transcript.session_key.split("-", 1)[1]
    if transcript.session_key.startswith("fail-"):
        raise LLMError(f"The model choked on {word}.")
    return SessionDigest(
        summary=f"The user talked about {word} tea.",
        facts=[
            fact(f"Prefers {word} tea.", f"I always pick {word} tea"),
            fact(f"Hates {word} rain.", f"never said {word}"),
        ],
    )


def consolidating(memory: Memory, llm: ScriptedLLM) -> Memory:
    return Memory(
        store=memory.store, embedder=memory.embedder, llm=llm, settings=Settings(),
        clock=memory._clock,
    )  # fmt: skip


def write_everywhere(memory: Memory, clock: Clock, who: str, word: str) -> None:
    """`word` through every path: messages, archived messages, facts, corrections, conflicts,
    rejected candidates, failed runs, summaries, session keys and a key's name."""
    memory.create_profile(who)
    memory.keys.create(profiles=[who], name=f"assistant of {word}")
    m = consolidating(memory, ScriptedLLM(extract, judge_all("distinct")))
    m.add_messages(who, f"trip-{word}", [("user", f"I always pick {word} tea over coffee.")])
    m.add_messages(who, f"fail-{word}", [("user", f"Something about {word}.")])
    clock.advance(hours=4)
    run = m.consolidate(who)
    assert run.sessions_consolidated == 1 and run.sessions_failed == 1 and run.facts_rejected
    boat = memory.add_fact(who, f"Owns a boat named {word}.").fact
    memory.update(who, boat.id, text=f"Owns a yacht named {word}.")
    a = memory.add_fact(who, f"Lives by {word} lake.").fact
    b = memory.add_fact(who, f"Lives far from {word} lake.").fact
    pair = memory.resolve(who, b.id, a.id, "contradicts").conflict
    assert pair is not None
    memory.resolve_conflict(who, pair.id, "corrected", correction=f"Lives near {word} river.")
    c = memory.add_fact(who, f"Swims in {word} pool.").fact
    d = memory.add_fact(who, f"Never swims in {word} pool.").fact
    memory.resolve(who, d.id, c.id, "contradicts")  # an open conflict
    memory.add_messages(who, f"chat-{word}", [("user", f"My code word is {word}.")])
    memory.flush()


def raw_hits(memory: Memory, request: pytest.FixtureRequest, tmp_path: Path) -> list[str]:
    """Where the marker still is: SQLite files by name, Postgres tables by name."""
    backend = request.node.callspec.params["store"]
    if isinstance(memory.store, SQLiteStore):
        files = [Path(memory.store.path), Path(memory.store.path + "-wal")]
        return [
            f.name
            for f in files
            if f.exists() and any(n in f.read_bytes().lower() for n in NEEDLES)
        ]
    assert isinstance(memory.store, PostgresStore)
    dsn = POSTGRES.database(backend.removeprefix("postgres-"), tmp_path)
    hits = []
    with psycopg.connect(dsn) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = "
            "current_schema() AND table_type = 'BASE TABLE'"
        )]  # fmt: skip
        for table in tables:
            found = conn.execute(
                f'SELECT count(*) FROM "{table}" t WHERE lower(t::text) LIKE %s',
                (f"%{MARKER.casefold()}%",),
            ).fetchone()
            if found and found[0]:
                hits.append(table)
    return hits


def test_forget_leaves_no_byte_of_the_profile_in_the_database(
    memory: Memory, clock: Clock, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    write_everywhere(memory, clock, "carol", MARKER)
    write_everywhere(memory, clock, "dave", "ordinary")
    assert raw_hits(memory, request, tmp_path)  # the scan sees the marker while it is there
    dave = memory.export("dave")
    receipt = memory.forget("carol")
    assert raw_hits(memory, request, tmp_path) == []
    assert memory.export("dave") == dave
    for table in ("facts", "evidence", "fact_events", "conflicts", "summaries", "sessions",
                  "messages", "archived_messages", "runs", "run_entries"):  # fmt: skip
        assert receipt[table] > 0, table
    assert receipt["profiles"] == 1 and receipt["api_keys"] == 1


def test_a_profile_created_again_under_the_same_id_reads_nothing_of_the_old_one(
    memory: Memory, clock: Clock
) -> None:
    write_everywhere(memory, clock, "carol", MARKER)
    memory.forget("carol")
    memory.create_profile("carol")
    runs = json.dumps([r.model_dump(mode="json") for r in memory.runs(100)])
    assert MARKER not in runs
    assert MARKER not in json.dumps(memory.export("carol"))
    assert MARKER not in json.dumps([k.model_dump(mode="json") for k in memory.keys.all()])


def test_a_run_in_flight_during_forget_does_not_write_the_profile_back(
    memory: Memory, clock: Clock, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    memory.create_profile("carol")

    def forget_midway(transcript: SessionTranscript) -> SessionDigest:
        memory.forget("carol")  # while the run holds the session it is reading
        memory.create_profile("carol")
        return extract(transcript)

    m = consolidating(memory, ScriptedLLM(forget_midway))
    m.add_messages("carol", f"trip-{MARKER}", [("user", f"I always pick {MARKER} tea.")])
    clock.advance(hours=4)
    with suppress(ProfileNotFoundError):  # the session it read is gone; how the run ends
        m.consolidate()
    assert MARKER not in json.dumps([r.model_dump(mode="json") for r in memory.runs(100)])
    memory.forget("carol")
    assert raw_hits(memory, request, tmp_path) == []


def test_an_export_holds_archived_messages_and_runs(memory: Memory, clock: Clock) -> None:
    write_everywhere(memory, clock, "carol", MARKER)
    data = memory.export("carol")
    contents = [m["content"] for m in data["messages"]]
    assert f"I always pick {MARKER} tea over coffee." in contents  # archived by the run
    assert f"My code word is {MARKER}." in contents  # still live
    [run] = data["runs"]
    assert [r["text"] for r in run["rejections"]] == [f"Hates {MARKER} rain."]
    assert [f["key"] for f in run["failures"]] == [f"fail-{MARKER}"]
    assert [k["name"] for k in data["api_keys"]] == [f"assistant of {MARKER}"]
    assert "secret_hash" not in data["api_keys"][0]
