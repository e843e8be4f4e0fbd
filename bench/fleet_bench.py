"""A fleet of `somna worker` processes on one Postgres database, with a model that takes 1 s.

Run with `python bench/fleet_bench.py` (the machine's PostgreSQL at 127.0.0.1:5432 by
default; `--pg-dsn` for another). A throwaway database gets 300 short sessions over 20
profiles; `--workers` processes of `somna worker` (tests/scale/somna_cli.py, whose
SOMNA_TEST_LLM_DELAY_S makes each call of the offline rules model take `--latency`
seconds) consolidate them; the script prints the wall time until every session is
archived and checks that none was consolidated twice (one session summary each, and
the runs' counts add up to the sessions).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg

from somna.model import Profile, Role, utcnow
from somna.store import NewMessage
from somna.store.postgres import PostgresStore

ROOT = Path(__file__).resolve().parents[1]
ENTRY = ROOT / "tests" / "scale" / "somna_cli.py"


def seed(url: str, sessions: int, profiles: int) -> None:
    store = PostgresStore(url)
    try:
        now = utcnow()
        for p in range(profiles):
            profile = f"user-{p:02d}"
            store.create_profile(Profile(id=profile))
            with store.write(profile) as tx:
                for n in range(p, sessions, profiles):
                    turns = [
                        (Role.USER, f"My favourite number is {n}."),
                        (Role.ASSISTANT, "Noted!"),
                        (Role.USER, f"I work as a baker in Town{p}."),
                    ]
                    tx.add_messages(
                        f"chat-{n}", [NewMessage(role, text, now) for role, text in turns]
                    )
    finally:
        store.close()


def count(url: str, sql: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute(sql).fetchone()
    return int(row[0] or 0) if row else 0


def consolidate_all(
    url: str, sessions: int, *, workers: int, latency: float, concurrency: int, batch: int
) -> float:
    """Seconds for `workers` processes of `somna worker` to archive `sessions` sessions of
    the store at `url`, each model call `latency` seconds late; the workers are stopped
    by SIGTERM once every session is archived."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("SOMNA_")},
        "PYTHONPATH": str(ROOT / "src") + os.pathsep + str(ROOT),
        "SOMNA_DB": url,
        "SOMNA_TEST_LLM_DELAY_S": str(latency),
    }
    command = [sys.executable, str(ENTRY), "worker", "--idle-hours", "0", "--interval", "1"]
    command += ["--batch", str(batch), "--concurrency", str(concurrency)]
    started = time.perf_counter()
    running = [
        subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(workers)
    ]
    try:
        archived = 0
        while archived < sessions:
            time.sleep(0.5)
            archived = count(url, "SELECT count(*) FROM sessions WHERE status = 'archived'")
            if any(w.poll() is not None for w in running):
                raise SystemExit(f"a worker exited early: {running[0].communicate()}")
        wall = time.perf_counter() - started
        for worker in running:
            worker.send_signal(signal.SIGTERM)
        for worker in running:
            worker.communicate(timeout=60)
        return wall
    finally:
        for worker in running:
            if worker.poll() is None:
                worker.kill()
                worker.communicate()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pg-dsn", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--sessions", type=int, default=300)
    parser.add_argument("--profiles", type=int, default=20)
    parser.add_argument("--latency", type=float, default=1.0, help="seconds per model call")
    parser.add_argument("--concurrency", type=int, default=8, help="calls in flight per worker")
    parser.add_argument("--batch", type=int, default=40, help="sessions per worker run")
    args = parser.parse_args()
    name = f"somna_fleet_{int(time.time() * 1000)}"
    with psycopg.connect(args.pg_dsn, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = args.pg_dsn.rsplit("/", 1)[0] + "/" + name
    try:
        seed(url, args.sessions, args.profiles)
        wall = consolidate_all(
            url, args.sessions, workers=args.workers, latency=args.latency,
            concurrency=args.concurrency, batch=args.batch,
        )  # fmt: skip
        summaries = count(url, "SELECT count(*) FROM summaries WHERE kind = 'session'")
        distinct = count(
            url, "SELECT count(DISTINCT session_id) FROM summaries WHERE kind = 'session'"
        )
        consolidated = count(url, "SELECT sum((body->>'sessions_consolidated')::int) FROM runs")
        calls = count(url, "SELECT sum((body->>'llm_calls')::int) FROM runs")
        once = summaries == distinct == consolidated == args.sessions
        print(
            f"fleet: {args.workers} workers x {args.concurrency} calls in flight, "
            f"{args.sessions} sessions over {args.profiles} profiles, a {args.latency:g} s model "
            f"({calls} calls): all archived in {wall:.1f} s = {args.sessions / wall:.1f} "
            f"sessions/s; consolidated exactly once: {'yes' if once else 'NO'} "
            f"({summaries} summaries of {distinct} sessions, runs count {consolidated})"
        )
    finally:
        with psycopg.connect(args.pg_dsn, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
