"""Fixtures shared by the whole suite: a clean environment, the embedder, stores, a clock."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from somna.config import Settings
from somna.embed import BundledEmbedder
from somna.memory import Memory
from somna.store import Store
from somna.store.postgres import PostgresStore
from somna.store.sqlite import SQLiteStore
from tests.store.pg_servers import TestServers
from tests.support import Clock

POSTGRES = TestServers()
"""The run's PostgreSQL servers, started on first use (tests/store/pg_servers.py)."""

STORE_BACKENDS: dict[str, Callable[[Path], Store]] = {
    "sqlite": lambda folder: SQLiteStore(folder / "somna.db"),
    "postgres-array": lambda folder: PostgresStore(POSTGRES.database("array", folder)),
    "postgres-pgvector": lambda folder: PostgresStore(POSTGRES.database("pgvector", folder)),
}
"""Every backend the store conformance suite and the Memory tests run against."""


SCALE = Path(__file__).parent / "scale"
"""The scale tests start workers and subprocesses: all of them are `slow`."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks `slow` the scale tests, `postgres` those on a Postgres backend or its servers."""
    for item in items:
        if item.path.is_relative_to(SCALE):
            item.add_marker(pytest.mark.slow)
        callspec = getattr(item, "callspec", None)
        params = callspec.params.values() if callspec is not None else ()
        backends = {value for value in params if isinstance(value, str)} & set(STORE_BACKENDS)
        if (
            any(b.startswith("postgres") for b in backends)
            or "postgres_servers" in item.fixturenames
        ):
            item.add_marker(pytest.mark.postgres)


@pytest.fixture(scope="session", autouse=True)
def _postgres_run() -> Iterator[None]:
    """Stops the servers at the end; reads SOMNA_TEST_PG_DSN before `clean_environ` hides it."""
    POSTGRES.override = os.environ.get("SOMNA_TEST_PG_DSN") or None
    yield
    POSTGRES.close()


@pytest.fixture(scope="session")
def postgres_servers() -> TestServers:
    """The run's PostgreSQL servers; asking for them marks a test `postgres`."""
    return POSTGRES


@pytest.fixture(autouse=True)
def _drop_postgres_databases(_postgres_run: None) -> Iterator[None]:
    """Each test's Postgres databases go when it ends (after its stores are closed)."""
    yield
    POSTGRES.drop_databases()


@pytest.fixture(autouse=True)
def clean_environ(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test sees the developer's SOMNA_* settings or writes into the repository."""
    for key in list(os.environ):
        if key.startswith(("SOMNA_", "OPENAI_")):
            monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)


@pytest.fixture(scope="session")
def embedder() -> BundledEmbedder:
    """The real bundled model, loaded once for the whole run."""
    return BundledEmbedder()


@pytest.fixture
def db(tmp_path: Path, embedder: BundledEmbedder) -> str:
    """A SQLite database whose profile "alice" has three short chats due for the night."""
    path = str(tmp_path / "somna.db")
    with Memory(embedder=embedder, settings=Settings(db=path)) as memory:
        memory.create_profile("alice")
        for n in range(3):
            memory.add_messages("alice", f"chat-{n}", [("user", f"I have {n + 2} cats.")])
    return path


@pytest.fixture(params=sorted(STORE_BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    opened = STORE_BACKENDS[request.param](tmp_path)
    yield opened
    opened.close()


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2026, 5, 3, 9, 0, tzinfo=UTC))


@pytest.fixture
def memory(store: Store, embedder: BundledEmbedder, clock: Clock) -> Iterator[Memory]:
    memory = Memory(store=store, embedder=embedder, settings=Settings(), clock=clock)
    yield memory
    memory.flush()
