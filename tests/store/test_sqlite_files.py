"""The SQLite file itself: who can read it, what a deleted row leaves, what a scope touches."""

from __future__ import annotations

import re
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pydantic import ValidationError

from somna.model import Fact, Profile, Role, lifecycle
from somna.store import NewMessage
from somna.store.sqlite import SQLiteStore

T0 = datetime(2026, 5, 3, 9, 0, tzinfo=UTC)


def test_the_files_somna_creates_are_readable_by_their_owner_alone(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "somna.db")
    store.create_profile(Profile(id="alice"))
    with store.write("alice") as tx:
        tx.add_messages("chat", [NewMessage(Role.USER, "hello", T0)])
    for name in ("somna.db", "somna.db-wal", "somna.db-shm"):
        mode = stat.S_IMODE((tmp_path / name).stat().st_mode)
        assert mode == 0o600, f"{name} is {oct(mode)}"
    store.close()


def test_an_existing_file_keeps_the_mode_its_owner_chose(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    path.touch(mode=0o640)
    path.chmod(0o640)
    SQLiteStore(path).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_deleted_rows_are_overwritten(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "somna.db")
    with store._lock:
        assert store._conn.execute("PRAGMA secure_delete").fetchone()[0] == 1
    store.close()


def test_appending_to_a_live_session_touches_only_the_profiles_rows(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "somna.db")
    for who in ("alice", "bob"):
        store.create_profile(Profile(id=who))
    with store.write("alice") as tx:
        tx.add_messages("chat", [NewMessage(Role.USER, "first", T0)])
    statements: list[str] = []
    store._conn.set_trace_callback(statements.append)
    with store.write("alice") as tx:
        tx.add_messages("chat", [NewMessage(Role.USER, "second", T0)])
    store._conn.set_trace_callback(None)
    touching = [s for s in statements if re.search(r"\b(sessions|messages)\b", s)]
    assert touching and all("profile_id" in s for s in touching), touching
    store.close()


def test_facts_are_found_by_wording_through_the_whole_index(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "somna.db")
    store.create_profile(Profile(id="alice"))
    facts = [
        Fact(profile_id="alice", text=f"Owns {n} books.", valid_from=T0, recorded_at=T0)
        for n in range(3)
    ]
    with store.write("alice") as tx:
        for fact in facts:
            tx.apply(lifecycle.create(fact, vector=[1.0, 0.0], actor="test"))
    statements: list[str] = []
    store._conn.set_trace_callback(statements.append)
    with store.read("alice") as tx:
        assert len(tx.worded_like(f.wording for f in facts)) == 3
    store._conn.set_trace_callback(None)
    (query,) = [s for s in statements if "text_hash" in s]
    with store._lock:
        plan = [row[3] for row in store._conn.execute(f"EXPLAIN QUERY PLAN {query}")]
    probes = [step for step in plan if step.startswith("SEARCH")]
    assert len(probes) == 3, plan  # one probe per wording, not a scan of the profile
    assert all("text_hash=?" in step for step in probes), plan
    store.close()


def test_a_stored_fact_loads_as_it_was_written_without_its_text_checked_again(
    tmp_path: Path,
) -> None:
    store = SQLiteStore(tmp_path / "somna.db")
    store.create_profile(Profile(id="alice"))
    fact = Fact(profile_id="alice", text="Owns a bike.", valid_from=T0, recorded_at=T0)
    with store.write("alice") as tx:
        tx.apply(lifecycle.create(fact, vector=[1.0, 0.0], actor="test"))
    # A row an older rule let through: loading it must not fail the whole read.
    older = "Owns a bike. Rides it daily."
    with store._lock:
        store._conn.execute("UPDATE facts SET text = ? WHERE id = ?", (older, fact.id))
    with store.read("alice") as tx:
        loaded = tx.get_fact(fact.id)
    assert loaded is not None and loaded.model_copy(update={"text": fact.text}) == fact
    assert loaded.text == older
    with pytest.raises(ValidationError, match="single sentence"):
        Fact.model_validate(loaded.model_dump())  # new input is still checked
    with pytest.raises(ValidationError, match="single sentence"):
        loaded.text = older  # and so is a change
    store.close()
