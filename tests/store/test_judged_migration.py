"""Migration 0006: facts consolidation made before it are judged; facts added by hand wait."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from somna import Memory, Settings
from somna.embed import BundledEmbedder
from somna.store.sqlite import SQLiteStore
from tests.consolidate.scripted import ScriptedLLM, proposing
from tests.consolidate.test_pipeline import TEA, chat
from tests.support import Clock


def test_an_older_database_gets_its_consolidated_facts_marked_judged(
    tmp_path: Path, embedder: BundledEmbedder, clock: Clock
) -> None:
    path = tmp_path / "somna.db"
    store = SQLiteStore(path)
    m = Memory(store=store, embedder=embedder, llm=ScriptedLLM(proposing(TEA)),
               settings=Settings(), clock=clock)  # fmt: skip
    m.create_profile("alice")
    by_hand = m.add_fact("alice", "Works from home on Fridays.").fact
    chat(m, "morning", "I always pick tea over coffee.")
    clock.advance(hours=4)
    m.consolidate()
    [extracted] = [f for f in m.list_facts("alice") if f.id != by_hand.id]
    m.flush()
    store.close()
    with sqlite3.connect(path) as conn:  # the database as it was before migration 0006
        conn.execute("ALTER TABLE facts DROP COLUMN judged_at")
        conn.execute("DELETE FROM schema_migrations WHERE version = 6")
    reopened = SQLiteStore(path)
    with reopened.read("alice") as tx:
        judged = {f.id: f.judged_at for f in tx.get_facts([by_hand.id, extracted.id])}
    reopened.close()
    assert judged == {by_hand.id: None, extracted.id: extracted.recorded_at}
