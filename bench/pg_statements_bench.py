"""Statements a consolidated session sends to PostgreSQL: each one is a round trip.

Ingests LoCoMo 26.json into a throwaway database on `--pg-dsn` (created and
dropped here), consolidates it with the rules provider and counts every statement
psycopg sends meanwhile, by its first words, per session.

    .venv/bin/python bench/pg_statements_bench.py [--pg-dsn postgresql://...]
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
from consolidation_bench import LOCOMO, throwaway_postgres

from somna import Memory, Settings
from somna.embed import BundledEmbedder
from somna.sources import read_locomo
from somna.store.postgres import PostgresStore


@contextmanager
def counting() -> Iterator[Counter[str]]:
    """Every statement any psycopg cursor runs meanwhile, by its first four words."""
    counts: Counter[str] = Counter()
    originals = {name: getattr(psycopg.Cursor, name) for name in ("execute", "executemany")}

    def counted(name: str) -> Any:
        def run(cursor: psycopg.Cursor[Any], query: Any, *args: Any, **kwargs: Any) -> Any:
            counts[" ".join(str(query).split()[:4])] += 1
            return originals[name](cursor, query, *args, **kwargs)

        return run

    for name in originals:
        setattr(psycopg.Cursor, name, counted(name))
    try:
        yield counts
    finally:
        for name, original in originals.items():
            setattr(psycopg.Cursor, name, original)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--locomo-dir", type=Path, default=LOCOMO, help="where 26.json is")
    parser.add_argument(
        "--pg-dsn", default="postgresql://postgres@127.0.0.1:5432/postgres", help="a server"
    )
    args = parser.parse_args()
    with throwaway_postgres(args.pg_dsn) as dsn:
        store = PostgresStore(dsn)
        memory = Memory(store=store, embedder=BundledEmbedder(), settings=Settings())
        try:
            conversations = read_locomo(args.locomo_dir / "26.json")
            memory.ingest(conversations)
            last = max(turn.at for c in conversations for turn in c.turns)
            with counting() as counts:
                run = memory.consolidate(conversations[0].profile, now=last + timedelta(days=1))
        finally:
            memory.close()
    total = sum(counts.values())
    sessions, added = run.sessions_consolidated, run.facts_added
    print(
        f"{sessions} sessions, {added} facts added: {total} statements, "
        f"{total / sessions:.1f} per session"
    )
    for words, count in counts.most_common(12):
        print(f"  {count / sessions:5.1f}  {words}")


if __name__ == "__main__":
    main()
