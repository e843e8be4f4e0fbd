"""How long `forget` takes, and what it leaves: one profile erased beside another of equal size.

Run with `python bench/erasure_bench.py` (`--facts 1000 10000`, `--pg-dsn URL` for Postgres
too, on a throwaway database created and dropped here). Each profile gets `--facts` facts,
each with a quote and a marker word (only in the erased profile), and 100 messages; then
`Memory.forget` is timed and the erased profile's marker is looked for: in the raw bytes
of the SQLite file and its WAL, and in every row of every table on Postgres.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from somna import Fact, Memory, Settings
from somna.embed import BundledEmbedder
from somna.model import Evidence, lifecycle
from somna.store import Store
from somna.store.sqlite import SQLiteStore

MARKER = "Zorvexquil"
DIM = BundledEmbedder().dim
T0 = datetime(2026, 5, 3, 9, 0, tzinfo=UTC)


def fill(store: Store, profile: str, facts: int, word: str) -> None:
    rng = np.random.default_rng(7)
    memory = Memory(store=store, embedder=BundledEmbedder(), settings=Settings())
    memory.create_profile(profile)
    memory.add_messages(profile, f"chat-{word}", [("user", f"Say {word} {i}.") for i in range(100)])
    for start in range(0, facts, 1000):
        with store.write(profile) as tx:
            for i in range(start, min(facts, start + 1000)):
                fact = Fact(profile_id=profile, text=f"Fact {i} mentions {word} once.",
                            valid_from=T0, recorded_at=T0, first_observed_at=T0)  # fmt: skip
                quote = Evidence(fact_id=fact.id, quote=f"I said {word} {i}", observed_at=T0)
                vector = rng.standard_normal(DIM).astype("float32")
                tx.apply(lifecycle.create(fact, vector=vector.tolist(), actor="bench",
                                          evidence=[quote]))  # fmt: skip


def timed_forget(store: Store, facts: int) -> tuple[float, dict[str, int]]:
    fill(store, "kept", facts, "ordinary")
    fill(store, "erased", facts, MARKER)
    memory = Memory(store=store, embedder=BundledEmbedder(), settings=Settings())
    started = time.perf_counter()
    receipt = memory.forget("erased")
    return time.perf_counter() - started, receipt


def sqlite_case(folder: Path, facts: int) -> None:
    path = folder / f"erase-{facts}.db"
    store = SQLiteStore(path)
    seconds, receipt = timed_forget(store, facts)
    files = [path, Path(f"{path}-wal")]
    hits = sum(f.read_bytes().lower().count(MARKER.lower().encode()) for f in files if f.exists())
    size = path.stat().st_size / 2**20
    print(f"sqlite   {facts:>7} facts/profile: forget {seconds:6.2f} s, "
          f"{receipt['facts']} facts + {receipt['evidence']} quotes + {receipt['messages']} "
          f"messages erased, file {size:5.1f} MiB, marker bytes left: {hits}")  # fmt: skip
    store.close()


@contextmanager
def throwaway(dsn: str) -> Iterator[str]:
    import psycopg
    from psycopg.conninfo import make_conninfo

    name = f"somna_erasure_bench_{int(time.time())}"
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield make_conninfo(dsn, dbname=name)
    finally:
        with psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


def postgres_case(dsn: str, facts: int) -> None:
    import psycopg

    from somna.store.postgres import PostgresStore

    with throwaway(dsn) as db:
        store = PostgresStore(db)
        seconds, receipt = timed_forget(store, facts)
        store.close()
        with psycopg.connect(db) as conn:
            tables = [r[0] for r in conn.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'")]  # fmt: skip
            rows = sum(
                conn.execute(f'SELECT count(*) FROM "{t}" x WHERE x::text ILIKE %s',
                             (f"%{MARKER}%",)).fetchone()[0]  # type: ignore[index]
                for t in tables
            )  # fmt: skip
        print(f"postgres {facts:>7} facts/profile: forget {seconds:6.2f} s (VACUUM included), "
              f"{receipt['facts']} facts erased, rows with the marker left: {rows}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--pg-dsn", help="a Postgres server to create a throwaway database on")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for facts in args.facts:
            sqlite_case(Path(folder), facts)
            if args.pg_dsn:
                postgres_case(args.pg_dsn, facts)


if __name__ == "__main__":
    main()
