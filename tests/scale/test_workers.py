"""A fleet of `somna worker` processes on one Postgres database: each session consolidated once.

Real OS processes (tests/scale/somna_cli.py), the bundled embedder and the
rules LLM, 300 small sessions over 20 profiles. The workers run until every
session is archived, then get SIGTERM and must stop cleanly. One test kills a
slow worker with SIGKILL while it holds leases: its sessions are taken again at
once (its process is gone from this host), and still consolidated exactly once.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

from somna.config import Settings
from somna.memory import Memory
from somna.model import Profile, Role, utcnow
from somna.store import NewMessage
from somna.store.postgres import PostgresStore
from tests.store.pg_servers import TestServers

ROOT = Path(__file__).resolve().parents[2]
ENTRY = Path(__file__).with_name("somna_cli.py")
SESSIONS = 300
PROFILES = 20
DEADLINE_S = 90.0
RUN_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d Run \S+ (\w+).*?: (\d+) sessions? consol")


def as_url(dsn: str) -> str:
    """A DSN as a postgresql:// URL, the form SOMNA_DB takes."""
    parts = {k: str(v) for k, v in conninfo_to_dict(dsn).items()}
    user = quote(parts.pop("user", ""), safe="")
    password = parts.pop("password", None)
    auth = f"{user}:{quote(password, safe='')}@" if password else f"{user}@" if user else ""
    host = parts.pop("host", "")
    port = parts.pop("port", "")
    database = quote(parts.pop("dbname", ""), safe="")
    if host.startswith("/"):
        parts["host"] = host
        host = ""
    where = f"{host}:{port}" if host and port else host
    query = f"?{urlencode(parts, quote_via=quote)}" if parts else ""
    return f"postgresql://{auth}{where}/{database}{query}"


@dataclass
class Fleet:
    dsn: str
    url: str
    processes: list[subprocess.Popen[str]]

    def start(self, *, lease_minutes: float, delay_s: float = 0.0) -> subprocess.Popen[str]:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("SOMNA_")},
            "PYTHONPATH": str(ROOT / "src") + os.pathsep + str(ROOT),
            "SOMNA_DB": self.url,
            "SOMNA_LEASE_MINUTES": str(lease_minutes),
            "SOMNA_TEST_LLM_DELAY_S": str(delay_s),
        }
        command = [sys.executable, str(ENTRY), "worker", "--idle-hours", "0"]
        command += ["--interval", "0.2", "--batch", "10"]
        process = subprocess.Popen(
            command, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.processes.append(process)
        return process

    def query(self, sql: str, *params: object) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.dsn) as conn:
            return conn.execute(sql, params).fetchall()

    def wait_until(self, sql: str, *params: object) -> list[tuple[Any, ...]]:
        """Poll until `sql` returns rows whose first value is true; fail past the deadline."""
        deadline = time.monotonic() + DEADLINE_S
        while time.monotonic() < deadline:
            rows = self.query(sql, *params)
            if rows and rows[0][0]:
                return rows
            for process in self.processes:
                if process.poll() not in (None, -signal.SIGKILL):
                    pytest.fail(f"a worker exited early:\n{process.communicate()}")
            time.sleep(0.2)
        pytest.fail(f"still waiting for {sql!r} after {DEADLINE_S} s")

    def stop(self, process: subprocess.Popen[str]) -> tuple[str, str]:
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
        assert process.returncode == 0, err
        assert out.endswith("Stopped.\n"), out
        return out, err


@pytest.fixture
def fleet(postgres_servers: TestServers, tmp_path: Path) -> Iterator[Fleet]:
    dsn = postgres_servers.database("array", tmp_path)
    store = PostgresStore(dsn)
    try:
        now = utcnow()
        for p in range(PROFILES):
            profile = f"user-{p:02d}"
            store.create_profile(Profile(id=profile))
            with store.write(profile) as tx:
                for n in range(p, SESSIONS, PROFILES):
                    turns = [
                        (Role.USER, f"My favourite number is {n}."),
                        (Role.ASSISTANT, "Noted!"),
                        (Role.USER, f"I work as a baker in Town{p}."),
                    ][: 2 + n % 2]
                    tx.add_messages(
                        f"chat-{n}", [NewMessage(role, text, now) for role, text in turns]
                    )
    finally:
        store.close()
    started = Fleet(dsn, as_url(dsn), [])
    yield started
    for process in started.processes:
        if process.poll() is None:
            process.kill()
            process.communicate()


def assert_consolidated_exactly_once(fleet: Fleet) -> None:
    assert fleet.query("SELECT status, count(*) FROM sessions GROUP BY status") == [
        ("archived", SESSIONS)
    ]
    assert fleet.query(
        "SELECT count(*), count(DISTINCT session_id) FROM summaries WHERE kind = 'session'"
    ) == [(SESSIONS, SESSIONS)]
    assert fleet.query("SELECT count(*) FROM messages") == [(0,)]
    assert fleet.query("SELECT count(DISTINCT session_id) FROM archived_messages") == [(SESSIONS,)]
    duplicated = fleet.query(
        "SELECT fact_id, session_id, message_id, quote FROM evidence "
        "GROUP BY 1, 2, 3, 4 HAVING count(*) > 1"
    )
    assert duplicated == []
    assert fleet.query("SELECT count(DISTINCT session_id) FROM evidence") == [(SESSIONS,)]
    runs = fleet.query("SELECT sum((body->>'sessions_consolidated')::int) FROM runs")
    assert runs == [(SESSIONS,)]


def run_lines(out: str) -> list[tuple[str, int]]:
    """(status, sessions consolidated) of each run a worker logged."""
    return [(m[1], int(m[2])) for line in out.splitlines() if (m := RUN_LINE.match(line))]


def test_three_workers_consolidate_every_session_exactly_once(fleet: Fleet) -> None:
    workers = [fleet.start(lease_minutes=0.5) for _ in range(3)]
    fleet.wait_until("SELECT count(*) = %s FROM sessions WHERE status = 'archived'", SESSIONS)
    logs = [run_lines(fleet.stop(worker)[0]) for worker in workers]
    assert_consolidated_exactly_once(fleet)
    done = [sum(n for _, n in runs) for runs in logs]
    assert sum(done) == SESSIONS
    assert sum(1 for n in done if n) >= 2, done  # the work was shared
    # Recorded: every run that consolidated something, and each worker's first run, which
    # also tidies every profile; idle polls in between leave no record.
    recorded = sum(sum(1 for i, (_, n) in enumerate(runs) if n or i == 0) for runs in logs)
    assert recorded == fleet.query("SELECT count(*) FROM runs")[0][0]


def test_a_killed_workers_sessions_are_taken_again_at_once_on_its_host(fleet: Fleet) -> None:
    slow = fleet.start(lease_minutes=10, delay_s=60)  # leases for 10 minutes, waits in the model
    owner = f"%:{slow.pid}:%"
    fleet.wait_until("SELECT count(*) > 0 FROM sessions WHERE lease_owner LIKE %s", owner)
    held = fleet.query(
        "SELECT id, lease_until FROM sessions WHERE lease_owner LIKE %s ORDER BY id", owner
    )
    assert held
    slow.send_signal(signal.SIGKILL)
    slow.communicate(timeout=30)
    workers = [fleet.start(lease_minutes=0.5) for _ in range(2)]
    fleet.wait_until("SELECT count(*) = %s FROM sessions WHERE status = 'archived'", SESSIONS)
    for worker in workers:
        fleet.stop(worker)
    assert_consolidated_exactly_once(fleet)
    # Long before its lease would have ended: the process that held it is gone from this host.
    retaken = [
        (session, fleet.query("SELECT consolidated_at < %s FROM sessions WHERE id = %s",
                              lease_until, session)[0][0])
        for session, lease_until in held
    ]  # fmt: skip
    assert retaken == [(session, True) for session, _ in held]
    killed = (
        "SELECT status, (body->>'sessions_consolidated')::int FROM runs "
        "WHERE body->>'owner' LIKE %s"
    )
    assert fleet.query(killed, owner) in ([("running", 0)], [("abandoned", 0)])
    # The next recorded run on this host sees that process gone and marks its run abandoned.
    with Memory(settings=Settings(db=fleet.url)) as memory:
        memory.consolidate(idle_hours=0)
    assert fleet.query(killed, owner) == [("abandoned", 0)]
