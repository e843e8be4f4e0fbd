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
from somna.store.sqlite import SQLiteStore
from tests.support import Clock

STORE_BACKENDS: dict[str, Callable[[Path], Store]] = {
    "sqlite": lambda folder: SQLiteStore(folder / "somna.db"),
}
"""Every backend the store conformance suite and the Memory tests run against."""


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


@pytest.fixture(params=sorted(STORE_BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    opened = STORE_BACKENDS[request.param](tmp_path)
    yield opened
    opened.close()


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2026, 5, 3, 9, 0, tzinfo=UTC))


@pytest.fixture
def memory(store: Store, embedder: BundledEmbedder, clock: Clock) -> Memory:
    return Memory(store=store, embedder=embedder, settings=Settings(), clock=clock)
