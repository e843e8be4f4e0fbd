"""Erasure stays: a forgotten profile is not created again by the next n8n import.

The chat table lives on the test PostgreSQL (tests/sources/n8n_rows.py); Somna's own
store is a SQLite file, or a Postgres database where the store's own methods are
checked. `forget` given the table deletes the profile's rows there; without it, or with
a role that may only read, it leaves a tombstone (the hash of the id alone) that the
import honours until `allow_forgotten` admits the profile again. A bot's prefix key
erases the profiles under its prefix over real HTTP; an export holds every fact, past
the 10,000 of one listing.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest
from typer.testing import CliRunner, Result

from somna.config import Settings
from somna.embed import BundledEmbedder
from somna.interfaces.cli.options import CliState
from somna.memory import Memory
from somna.model import Fact
from somna.model.lifecycle import create
from somna.sources import N8nTable
from somna.store.postgres import PostgresStore
from somna.store.sqlite import SQLiteStore
from tests.interfaces.api.live import live_server
from tests.scale.somna_cli import build_app
from tests.sources.n8n_rows import N8nChat
from tests.store.pg_servers import TestServers
from tests.support import Clock

PERSON = "wren-4417"
"""A session id of the chat table, and so the id of the profile it goes to."""


@pytest.fixture
def chat(postgres_servers: TestServers, tmp_path: Path) -> N8nChat:
    chat = N8nChat(postgres_servers, tmp_path / "n8n")
    chat.say(PERSON, ("human", "My kayak is orange."), ("ai", "Noted."))
    chat.say("otto-1203", ("human", "I grow basil on the balcony."))
    return chat


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "somna.db")


@pytest.fixture
def memory(db: str, embedder: BundledEmbedder, clock: Clock) -> Iterator[Memory]:
    with Memory(embedder=embedder, settings=Settings(db=db), clock=clock) as opened:
        yield opened


def imported(memory: Memory, chat: N8nChat, **options: bool) -> tuple[list[str], int]:
    """The profiles after one import of the chat table, and the rows it left out."""
    with N8nTable(chat.dsn) as table:
        report = memory.import_n8n(table, **options)
    return [p.id for p in memory.list_profiles()], report.forgotten_rows


def test_forget_then_import_does_not_create_the_profile_again(
    memory: Memory, chat: N8nChat
) -> None:
    assert imported(memory, chat) == (["otto-1203", PERSON], 0)
    receipt = memory.forget(PERSON)
    assert receipt["tombstones"] == 1
    chat.say(PERSON, ("human", "Also, I moved to the coast."))  # they go on talking to the bot
    assert imported(memory, chat) == (["otto-1203"], 3)
    assert imported(memory, chat) == (["otto-1203"], 3)  # every time, and counted
    assert len(chat.ids(PERSON)) == 3  # the table is not Somna's: left as it was


def test_allow_forgotten_admits_the_profile_again_and_its_tombstone_goes(
    memory: Memory, chat: N8nChat
) -> None:
    imported(memory, chat)
    memory.forget(PERSON)
    assert imported(memory, chat, allow_forgotten=True) == (["otto-1203", PERSON], 0)
    with memory.store.read(PERSON) as tx:
        [session] = tx.sessions()
        assert [m.content for m in tx.session_messages(session.id)] == [
            "My kayak is orange.",
            "Noted.",
        ]
    assert memory.store.tombstones() == set()
    chat.say(PERSON, ("human", "One more thing."))
    assert imported(memory, chat) == (["otto-1203", PERSON], 0)


def test_a_tombstone_holds_only_the_hash_of_the_profile_id(
    memory: Memory, chat: N8nChat, db: str
) -> None:
    imported(memory, chat)
    memory.forget(PERSON)
    memory.close()
    with sqlite3.connect(db) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(tombstones)")]
        rows = conn.execute("SELECT * FROM tombstones").fetchall()
    assert columns == ["profile_hash", "forgotten_at"]
    [(hashed, _)] = rows
    assert hashed == hashlib.sha256(PERSON.encode()).hexdigest()
    raw = b"".join(
        Path(db + suffix).read_bytes() for suffix in ("", "-wal") if Path(db + suffix).exists()
    )
    assert PERSON.encode() not in raw


def test_forget_given_the_table_deletes_the_profiles_rows_there_and_keeps_no_tombstone(
    memory: Memory, chat: N8nChat
) -> None:
    imported(memory, chat)
    chat.say(PERSON, ("human", "A row the import has not read yet."))
    with N8nTable(chat.dsn) as table:
        receipt = memory.forget(PERSON, source=table)
    assert receipt["source_rows"] == 3 and "tombstones" not in receipt
    assert chat.ids(PERSON) == []
    assert [s for _, s, _ in chat.rows()] == ["otto-1203"]
    assert memory.store.tombstones() == set()
    assert imported(memory, chat) == (["otto-1203"], 0)


def test_a_table_somna_may_only_read_gets_a_tombstone_instead(
    memory: Memory, chat: N8nChat
) -> None:
    role = f"reader_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(chat.dsn, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN")
        conn.execute(f"GRANT USAGE ON SCHEMA {_schema(conn)} TO {role}")
        conn.execute(f"GRANT SELECT ON {chat.table} TO {role}")
    try:
        reader_dsn = psycopg.conninfo.make_conninfo(chat.dsn, user=role)
        with N8nTable(reader_dsn) as table:
            memory.import_n8n(table)
            receipt = memory.forget(PERSON, source=table)
        assert receipt["tombstones"] == 1 and "source_rows" not in receipt
        assert len(chat.ids(PERSON)) == 2
        assert imported(memory, chat) == (["otto-1203"], 2)
    finally:
        with psycopg.connect(chat.dsn, autocommit=True) as conn:
            conn.execute(f"DROP OWNED BY {role}")  # its grants
            conn.execute(f"DROP ROLE {role}")


def _schema(conn: psycopg.Connection[tuple[str]]) -> str:
    row = conn.execute("SELECT current_schema()").fetchone()
    assert row is not None
    return row[0]


def test_the_cli_forgets_and_the_import_says_what_it_left_out(
    embedder: BundledEmbedder, clock: Clock, chat: N8nChat, db: str
) -> None:
    def factory(settings: Settings) -> Memory:
        return Memory(embedder=embedder, settings=settings, clock=clock)

    app, state = build_app(), CliState(memory_factory=factory)

    def somna(*args: str) -> Result:
        return CliRunner().invoke(app, [*args, "--db", db], obj=state)

    assert somna("ingest", "n8n", "--dsn", chat.dsn).exit_code == 0
    forgot = somna("forget", PERSON, "--yes", "--json")
    assert forgot.exit_code == 0, forgot.output
    assert json.loads(forgot.stdout)["erased"]["tombstones"] == 1
    again = somna("ingest", "n8n", "--dsn", chat.dsn)
    assert again.exit_code == 0, again.output
    assert (
        "Left out 2 rows of erased profiles (somna forget); --allow-forgotten imports them "
        "again." in again.stdout
    )
    admitted = somna("ingest", "n8n", "--dsn", chat.dsn, "--allow-forgotten", "--json")
    assert admitted.exit_code == 0, admitted.output
    assert json.loads(admitted.stdout)["profiles"] == 1
    purged = somna("forget", PERSON, "--yes", "--json", "--n8n-dsn", chat.dsn)
    assert purged.exit_code == 0, purged.output
    assert json.loads(purged.stdout)["erased"]["source_rows"] == 2
    assert chat.ids(PERSON) == []


def test_tombstones_on_postgres(
    postgres_servers: TestServers, tmp_path: Path, clock: Clock
) -> None:
    store = PostgresStore(postgres_servers.database("array", tmp_path / "pg"))
    try:
        hashed = hashlib.sha256(b"ivo-1").hexdigest()
        store.add_tombstone(hashed, clock())
        store.add_tombstone(hashed, clock() + timedelta(days=1))
        assert store.tombstones() == {hashed}
        store.remove_tombstone(hashed)
        assert store.tombstones() == set()
    finally:
        store.close()


def test_a_prefix_key_erases_a_profile_under_its_prefix_over_http(
    tmp_path: Path, embedder: BundledEmbedder
) -> None:
    with live_server(tmp_path, embedder) as live:
        _, bot = live.memory.keys.create(prefix="shop-", name="bot")
        with live.client(bot) as client:
            added = client.post("/v1/profiles/shop-17/facts", json={"text": "Wants red shoes."})
            assert added.status_code == 201, added.text
            gone = client.delete("/v1/profiles/shop-17")
            assert gone.status_code == 200, gone.text
            assert gone.json()["erased"]["profiles"] == 1
            refused = client.delete("/v1/profiles/alice")
            assert refused.status_code == 404  # a profile it does not reach does not exist
        with live.client(live.alice) as client:
            refused = client.delete("/v1/profiles/alice")
            assert refused.status_code == 403
            assert "prefix" in refused.json()["error"]["message"]
        assert [p.id for p in live.memory.list_profiles()] == ["alice", "bob"]


def test_an_export_holds_every_fact_past_ten_thousand(
    tmp_path: Path, clock: Clock, embedder: BundledEmbedder
) -> None:
    store = SQLiteStore(tmp_path / "big.db")
    count = 10_250
    memory = Memory(store=store, embedder=embedder, settings=Settings(), clock=clock)
    try:
        memory.create_profile("zed")
        now, vector = clock(), embedder.embed(["a lamp"])[0].tolist()
        with store.write("zed") as tx:  # straight to the store: 10,250 facts in seconds
            for n in range(count):
                fact = Fact(profile_id="zed", text=f"Owns lamp number {n}.", recorded_at=now)
                tx.apply(create(fact, vector=vector, actor="test"))
        data = memory.export("zed")
        assert len(data["facts"]) == count
        assert len({f["id"] for f in data["facts"]}) == count
        assert len(data["events"]) == count
        assert "truncated" not in data
    finally:
        memory.close()
