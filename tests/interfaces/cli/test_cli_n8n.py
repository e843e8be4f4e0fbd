"""`somna ingest n8n` (and `somna ingest FILE…` through the `ingest` group), as a user sees it.

Somna's store is a SQLite file under `tmp_path`; the n8n chat table is in a
fresh database of the pgserver PostgreSQL (tests/sources/n8n_rows.py): two
databases, as in most setups.
The app is the root app with `ingest` and `worker` registered as app.py
registers them (tests/scale/somna_cli.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from somna.config import Settings
from somna.embed import BundledEmbedder
from somna.interfaces.cli.options import CliState
from somna.memory import Memory
from somna.sources import N8nTable
from tests.interfaces.cli.support import assert_one_line_error, data, ok
from tests.scale.somna_cli import build_app
from tests.sources.n8n_rows import MALFORMED, N8nChat
from tests.store.pg_servers import TestServers
from tests.support import Clock

Invoke = Callable[..., Result]


@pytest.fixture
def chat(postgres_servers: TestServers, tmp_path: Path) -> N8nChat:
    return N8nChat(postgres_servers, tmp_path / "n8n", kind="pgvector")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "somna.db")


@pytest.fixture
def opened(embedder: BundledEmbedder, clock: Clock, db: str) -> Callable[[], Memory]:
    """The memory the commands see, to look at what they did."""
    return lambda: Memory(embedder=embedder, settings=Settings(db=db), clock=clock)


@pytest.fixture
def somna(embedder: BundledEmbedder, clock: Clock, db: str) -> Invoke:
    def factory(settings: Settings) -> Memory:
        return Memory(embedder=embedder, settings=settings, clock=clock)

    app = build_app()
    state = CliState(memory_factory=factory)
    return lambda *args: CliRunner().invoke(app, [*args, "--db", db], obj=state)


def source_name(chat: N8nChat) -> str:
    """The name an import gives the test's table (its database and schema vary)."""
    with N8nTable(chat.dsn, chat.table) as table:
        return table.name


def sessions(memory: Memory, profile: str) -> dict[str, list[str]]:
    with memory.store.read(profile) as tx:
        return {s.key: [m.content for m in tx.session_messages(s.id)] for s in tx.sessions()}


def test_ingest_n8n_reports_what_it_read_and_nothing_the_second_time(
    somna: Invoke, chat: N8nChat, opened: Callable[[], Memory]
) -> None:
    chat.say("user-1", ("human", "I live in Lyon."), ("ai", "Nice city!"))
    chat.say("user-2", ("human", "I work as a nurse."), shape="langchain")
    chat.raw("user-2", MALFORMED[3][0])
    chat.raw("user-2", MALFORMED[6][0])
    before = chat.rows()
    first = ok(somna("ingest", "n8n", "--dsn", chat.dsn))
    name = source_name(chat)
    assert first.stdout == (
        f"Read 5 new rows of {name}: added 3 messages (1 ai, 2 human) to 2 sessions (2 new), "
        "created 2 profiles, skipped 2 malformed rows (1 null, 1 unknown type).\n"
    )
    assert ok(somna("ingest", "n8n", "--dsn", chat.dsn)).stdout == f"No new rows in {name}.\n"
    assert chat.rows() == before
    with opened() as memory:
        assert sessions(memory, "user-1") == {"user-1#1": ["I live in Lyon.", "Nice city!"]}
        assert sessions(memory, "user-2") == {"user-2#1": ["I work as a nurse."]}


def test_ingest_n8n_told_the_memory_node_name_maps_each_session_to_its_user(
    somna: Invoke, chat: N8nChat, opened: Callable[[], Memory]
) -> None:
    chat.say("chat-carol__Chat_Memory__Postgres_", ("human", "I play the cello."))
    chat.say("chat-dan__Other_Memory", ("human", "I sail."))
    node = "Chat Memory (Postgres)"
    ok(somna("ingest", "n8n", "--dsn", chat.dsn, "--node-name", node))
    with opened() as memory:
        assert sorted(p.id for p in memory.list_profiles()) == [
            "chat-carol",
            "chat-dan__Other_Memory",
        ]
    refused = somna("ingest", "n8n", "--dsn", chat.dsn, "--node-name", node, "--profile-from",
                    "fixed:x")  # fmt: skip
    assert_one_line_error(refused, 2, "--profile-from session")


def test_ingest_n8n_json_and_a_fixed_profile(somna: Invoke, chat: N8nChat) -> None:
    chat.say("telegram:1", ("human", "Hi."))
    chat.raw("telegram:1", MALFORMED[0][0])
    done = data(
        somna("ingest", "n8n", "--dsn", chat.dsn, "--profile-from", "fixed:support", "--json")
    )
    assert done["source"] == source_name(chat)
    assert {k: v for k, v in done.items() if k != "source"} == {
        "rows": 2,
        "messages": 1,
        "kinds": {"human": 1},
        "sessions": 1,
        "new_sessions": 1,
        "profiles": 1,
        "skipped": {"not a JSON object": 1},
        "skipped_rows": 1,
        "purged_sessions": 0,
        "purged_rows": 0,
        "forgotten_rows": 0,
    }


def test_the_dsn_may_come_from_the_environment(
    somna: Invoke, chat: N8nChat, monkeypatch: pytest.MonkeyPatch
) -> None:
    chat.say("user-1", ("human", "Hi."))
    monkeypatch.setenv("SOMNA_N8N_DSN", chat.dsn)
    assert data(somna("ingest", "n8n", "--json"))["messages"] == 1


def test_idle_hours_cut_the_stream_into_sessions(
    somna: Invoke, chat: N8nChat, clock: Clock, opened: Callable[[], Memory]
) -> None:
    chat.say("user-1", ("human", "Hello."))
    ok(somna("ingest", "n8n", "--dsn", chat.dsn, "--idle-hours", "1"))
    clock.advance(minutes=30)
    chat.say("user-1", ("human", "Still here."))
    ok(somna("ingest", "n8n", "--dsn", chat.dsn, "--idle-hours", "1"))
    clock.advance(hours=1)
    chat.say("user-1", ("human", "Back."))
    ok(somna("ingest", "n8n", "--dsn", chat.dsn, "--idle-hours", "1"))
    with opened() as memory:
        assert sessions(memory, "user-1") == {
            "user-1#1": ["Hello.", "Still here."],
            "user-1#2": ["Back."],
        }


def test_purge_source_deletes_the_consolidated_rows_only(
    somna: Invoke, chat: N8nChat, clock: Clock
) -> None:
    chat.say("user-1", ("human", "I live in Lyon."), ("ai", "Nice city!"))
    ok(somna("ingest", "n8n", "--dsn", chat.dsn))
    clock.advance(hours=4)
    chat.say("user-2", ("human", "I work as a nurse."))
    ok(somna("ingest", "n8n", "--dsn", chat.dsn))
    ok(somna("consolidate"))  # user-1 only: user-2 is not quiet yet
    kept = [row for row in chat.rows() if row[1] == "user-2"]
    result = ok(somna("ingest", "n8n", "--dsn", chat.dsn, "--purge-source"))
    assert result.stdout.endswith(" Purged 2 rows of 1 archived session from the source.\n"), (
        result.stdout
    )
    assert result.stdout.startswith("No new rows in n8n:")
    assert chat.rows() == kept


@pytest.mark.parametrize(
    ("args", "code", "fragments"),
    [
        (["--profile-from", "user"], 2, ["'user' is not a profile mapping", "fixed:NAME"]),
        (["--profile-from", "fixed:a b"], 2, ["'fixed:a b'", "not a valid profile id"]),
        (["--table", "chats"], 2, ["no table 'chats'", "--table"]),
        (["--table", "x;y"], 2, ["'x;y' is not a table name"]),
    ],
)
def test_ingest_n8n_bad_input_exits_2_with_one_line(
    somna: Invoke, chat: N8nChat, args: list[str], code: int, fragments: list[str]
) -> None:
    assert_one_line_error(somna("ingest", "n8n", "--dsn", chat.dsn, *args), code, *fragments)


def test_ingest_n8n_dsn_errors(somna: Invoke) -> None:
    assert_one_line_error(
        somna("ingest", "n8n", "--dsn", "postgresql://[oops"), 2, "not a valid Postgres"
    )
    unreachable = "postgresql://n8n:secret@127.0.0.1:1/n8n?connect_timeout=2"
    result = somna("ingest", "n8n", "--dsn", unreachable)
    assert_one_line_error(result, 1, "Cannot connect", "postgresql://n8n@127.0.0.1:1/n8n")
    assert "secret" not in result.stderr


def test_ingest_files_still_work_through_the_group(
    somna: Invoke, tmp_path: Path, opened: Callable[[], Memory]
) -> None:
    chat = tmp_path / "chat.jsonl"
    chat.write_text(
        json.dumps(
            {"session": "monday", "role": "user", "content": "I love tea.", "at": "2026-05-01"}
        )
        + "\n",
        encoding="utf-8",
    )
    result = ok(somna("ingest", str(chat), "--profile", "alice"))
    assert result.stdout.startswith("Read 1 session of 1 profile from 1 file: created 1 profile")
    assert data(somna("ingest", "--json", str(chat), "--profile", "alice"))["skipped"] == 1
    assert_one_line_error(somna("ingest", "nope.jsonl"), 2, "nope.jsonl", "no such file")
    with opened() as memory:
        assert sessions(memory, "alice") == {"monday": ["I love tea."]}


def test_the_ingest_group_and_n8n_have_help_with_examples() -> None:
    runner = CliRunner()
    group = runner.invoke(build_app(), ["ingest", "--help"])
    assert group.exit_code == 0
    assert "\n     somna ingest chats.jsonl" in group.stdout
    assert "\n     somna ingest n8n --dsn" in group.stdout
    for path in (["ingest", "n8n"], ["ingest", "files"]):
        result = runner.invoke(build_app(), [*path, "--help"])
        assert result.exit_code == 0
        assert "Example:" in result.stdout and "\n     somna ingest" in result.stdout
