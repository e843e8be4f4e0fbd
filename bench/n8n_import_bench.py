"""The import of a large n8n chat table: rows per second into a Somna Postgres store.

    python bench/n8n_import_bench.py                     # 1,000,000 rows
    python bench/n8n_import_bench.py --rows 100000

On the machine's PostgreSQL (`--pg-dsn`), two throwaway databases: one holds an
`n8n_chat_histories` table as n8n's Postgres Chat Memory writes it (`id serial,
session_id varchar, message jsonb`), filled by COPY with `--rows` rows of alternating
human and ai turns, `--per-user` rows per chat user (n8n's session id: one per user,
with no time stamps); the other is the Somna store. `somna ingest n8n --profile-from
session` is timed as `N8nImport.run` (one profile and one conversation per chat user).
With `--workers N`, N processes of `somna worker` then consolidate every imported
session with a model whose every call takes `--latency` seconds (the offline rules
model, made late as in `bench/fleet_bench.py`), and the time until all are archived
is printed with the facts and summaries they left:

    python bench/n8n_import_bench.py --workers 2
"""

from __future__ import annotations

import argparse
import time
import uuid
from datetime import timedelta

import psycopg
from fleet_bench import consolidate_all, count
from psycopg import sql
from psycopg.types.json import Jsonb

from somna.model import utcnow
from somna.sources.n8n import N8nImport, N8nTable, ProfileFrom
from somna.store.postgres import PostgresStore

TURNS = [
    ("human", "Hi, I'd like to move my weekly delivery from Tuesday to Thursday ({s})."),
    ("ai", "Of course. Thursday mornings or afternoons?"),
    ("human", "Mornings please, before 10 if you can."),
    ("ai", "Done: Thursdays before 10. Anything else?"),
]


def fill(dsn: str, rows: int, per_user: int) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE n8n_chat_histories (id SERIAL PRIMARY KEY, "
            "session_id VARCHAR(255) NOT NULL, message JSONB)"
        )
        with conn.cursor().copy("COPY n8n_chat_histories (session_id, message) FROM STDIN") as out:
            for row in range(rows):
                kind, text = TURNS[row % len(TURNS)]
                message = {"type": kind, "content": text.format(s=row),
                           "additional_kwargs": {}, "response_metadata": {}}  # fmt: skip
                out.write_row((f"chat-user-{row // per_user}", Jsonb(message)))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--per-user", type=int, default=100, help="rows of one chat user")
    parser.add_argument("--pg-dsn", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--workers", type=int, default=0, help="consolidate with N workers")
    parser.add_argument("--latency", type=float, default=1.0, help="seconds per model call")
    parser.add_argument("--concurrency", type=int, default=8, help="calls in flight per worker")
    parser.add_argument("--batch", type=int, default=40, help="sessions per worker run")
    args = parser.parse_args()
    names = [f"somna_n8n_bench_{uuid.uuid4().hex[:8]}_{part}" for part in ("chat", "store")]
    with psycopg.connect(args.pg_dsn, autocommit=True) as conn:
        for name in names:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    chat, somna = (psycopg.conninfo.make_conninfo(args.pg_dsn, dbname=name) for name in names)
    try:
        started = time.perf_counter()
        fill(chat, args.rows, args.per_user)
        took = time.perf_counter() - started
        print(f"chat table: {args.rows:,} rows written by COPY in {took:.0f} s")
        store = PostgresStore(somna)
        yesterday = utcnow() - timedelta(days=1)  # rows without a time stamp are dated so
        with N8nTable(chat) as table:
            started, used = time.perf_counter(), time.process_time()
            report = N8nImport(
                store, table, idle_hours=3, clock=lambda: yesterday,
                profile_from=ProfileFrom.parse("session"),
            ).run()  # fmt: skip
            took, cpu = time.perf_counter() - started, time.process_time() - used
        store.close()
        print(
            f"import: {report.rows:,} rows, {report.messages:,} messages, {report.sessions:,} "
            f"sessions, {report.profiles:,} profiles in {took:.0f} s ({report.rows / took:,.0f} "
            f"rows/s; {cpu:.0f} s of this process's CPU, the rest the server's)"
        )
        if args.workers:
            took = consolidate_all(
                somna, report.sessions, workers=args.workers, latency=args.latency,
                concurrency=args.concurrency, batch=args.batch,
            )  # fmt: skip
            facts = count(somna, "SELECT count(*) FROM facts")
            calls = count(somna, "SELECT sum((body->>'llm_calls')::int) FROM runs")
            print(
                f"consolidation: {report.sessions:,} sessions by {args.workers} workers x "
                f"{args.concurrency} calls in flight, a {args.latency:g} s model ({calls:,} "
                f"calls), all archived in {took:.0f} s = {report.sessions / took:.1f} "
                f"sessions/s, {report.rows / took:,.0f} rows/s; {facts:,} facts"
            )
    finally:
        with psycopg.connect(args.pg_dsn, autocommit=True) as conn:
            for name in names:
                conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


if __name__ == "__main__":
    main()
