"""SQLite reads run beside writes: a pooled connection each, the write connection alone locked."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from somna.errors import StoreError
from somna.model import Fact, FactStatus, Profile, lifecycle
from somna.store import Eligibility
from somna.store.sqlite import SQLiteStore

T0 = datetime(2026, 5, 3, 9, 0, tzinfo=UTC)


def _vector(seed: int) -> list[float]:
    vector = np.random.default_rng(seed).standard_normal(8).astype(np.float32)
    return (vector / np.linalg.norm(vector)).tolist()


def _add(store: SQLiteStore, text: str, seed: int) -> Fact:
    fact = Fact(profile_id="alice", text=text, valid_from=T0, recorded_at=T0)
    with store.write("alice") as tx:
        tx.apply(lifecycle.create(fact, vector=_vector(seed), actor="test"))
    return fact


@pytest.fixture
def store(tmp_path: Path) -> SQLiteStore:
    opened = SQLiteStore(tmp_path / "somna.db")
    opened.create_profile(Profile(id="alice"))
    return opened


def test_a_read_goes_on_while_another_thread_holds_a_write(store: SQLiteStore) -> None:
    tea = _add(store, "Drinks green tea.", 1)
    inside, release = threading.Event(), threading.Event()

    def hold_a_write() -> None:
        with store.write("alice") as tx:
            tx.apply(lifecycle.retire(tea, at=T0, actor="test", reason="test"))
            inside.set()
            assert release.wait(10)

    writer = threading.Thread(target=hold_a_write)
    writer.start()
    assert inside.wait(10)
    try:
        with store.read("alice") as tx:  # would wait for `release` with one shared connection
            seen = tx.get_fact(tea.id)
        assert seen is not None and seen.status is FactStatus.UNVERIFIED  # the committed state
        assert store.get_profile("alice") is not None
    finally:
        release.set()
        writer.join()
    with store.read("alice") as tx:
        assert tx.get_fact(tea.id).status is FactStatus.RETIRED  # type: ignore[union-attr]
    store.close()


def test_a_thread_inside_a_write_reads_what_it_wrote(store: SQLiteStore) -> None:
    with store._db.writer() as conn:
        conn.execute("UPDATE profiles SET name = 'Alice B.' WHERE id = 'alice'")
        assert store.get_profile("alice").name == "Alice B."  # type: ignore[union-attr]
    store.close()


def test_read_connections_refuse_writes(store: SQLiteStore) -> None:
    with store._db.reader() as conn, pytest.raises(sqlite3.OperationalError, match="readonly"):
        conn.execute("UPDATE profiles SET name = 'x'")
    store.close()


def test_a_read_scope_that_writes_fails_and_writes_nothing(store: SQLiteStore) -> None:
    tea = _add(store, "Drinks green tea.", 1)
    with pytest.raises(StoreError), store.read("alice") as tx:
        tx.apply(lifecycle.retire(tea, at=T0, actor="test", reason="test"))
    with store.read("alice") as tx:
        assert tx.get_fact(tea.id).status is FactStatus.UNVERIFIED  # type: ignore[union-attr]
    store.close()


def test_an_in_memory_store_has_one_connection_for_everything() -> None:
    store = SQLiteStore(":memory:")
    store.create_profile(Profile(id="alice"))
    with store.read("alice") as tx:  # another connection would see another, empty database
        assert tx.get_fact("fct_none") is None
    assert [p.id for p in store.list_profiles()] == ["alice"]
    store.close()


def test_an_older_snapshot_never_replaces_the_newer_cached_index(store: SQLiteStore) -> None:
    first = _add(store, "Drinks green tea.", 1)
    with store.read("alice") as tx:  # caches the index at this revision
        tx.vector_search(np.array(_vector(1)), Eligibility(at=T0, now=T0), 5)
    old = store._db.reader()
    conn = old.__enter__()
    conn.execute("BEGIN")
    conn.execute("SELECT 1 FROM facts").fetchall()  # the snapshot starts here
    second = _add(store, "Owns a red bicycle.", 2)  # patches the cached index
    stale = store.fact_index(conn, "alice")
    conn.execute("COMMIT")
    old.__exit__(None, None, None)
    assert stale is not None and len(stale) == 1
    with store.read("alice") as tx:
        found = [
            i for i, _ in tx.vector_search(np.array(_vector(2)), Eligibility(at=T0, now=T0), 5)
        ]
    assert found[0] == second.id and first.id in found
    store.close()


def test_closing_closes_every_pooled_connection(store: SQLiteStore) -> None:
    with store._db.reader() as conn:
        pass
    store.close()
    with pytest.raises(sqlite3.ProgrammingError):
        conn.execute("SELECT 1")
