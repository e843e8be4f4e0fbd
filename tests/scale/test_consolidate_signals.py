"""`somna consolidate` stopped by a signal, as a real process: leases given back, the run
recorded as interrupted, exit 130 (SIGINT) or 143 (SIGTERM) at any point of a run, one line
and no traceback; killed outright, its run is marked abandoned by the next one, which takes
its sessions back at once; a profile erased during a run ends that profile's part only."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from somna.config import Settings
from somna.embed import BundledEmbedder
from somna.memory import Memory
from somna.model import Session, utcnow

ROOT = Path(__file__).resolve().parents[2]
ENTRY = Path(__file__).with_name("somna_cli.py")
KEYS = [f"chat-{n}" for n in range(3)]


@pytest.fixture
def db(tmp_path: Path, embedder: BundledEmbedder) -> str:
    path = str(tmp_path / "somna.db")
    with Memory(embedder=embedder, settings=Settings(db=path)) as memory:
        memory.create_profile("alice")
        for n, key in enumerate(KEYS):
            memory.add_messages("alice", key, [("user", f"I have {n + 2} cats.")])
    return path


def consolidate(db: str, *args: str, delay_s: float = 0.0) -> subprocess.Popen[str]:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("SOMNA_")},
        "PYTHONPATH": str(ROOT / "src") + os.pathsep + str(ROOT),
        "SOMNA_DB": db,
        "SOMNA_TEST_LLM_DELAY_S": str(delay_s),
        "PYTHONFAULTHANDLER": "1",  # SIGABRT prints every thread's stack: see `stopped`
    }
    return subprocess.Popen(
        [sys.executable, str(ENTRY), "consolidate", "--idle-hours", "0", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def stopped(process: subprocess.Popen[str], signum: signal.Signals) -> tuple[str, str]:
    """Its output once it exits after `signum`; if it has not within 20 s, the test fails
    with the stack of each of its threads."""
    try:
        return process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)
        _, stacks = process.communicate(timeout=20)
        pytest.fail(f"The run did not stop within 20 s of {signum.name}; its threads:\n{stacks}")


def ended(process: subprocess.Popen[str]) -> None:
    """Killed if still running, and reaped, its pipes closed."""
    if process.poll() is None:
        process.kill()
    process.communicate(timeout=20)


def sessions(db: str, *profiles: str) -> list[Session]:
    with Memory(settings=Settings(db=db)) as memory:
        found = []
        for profile in profiles or ("alice",):
            with memory.store.read(profile) as tx:
                found += tx.sessions()
        return found


def wait_for_leases(db: str, process: subprocess.Popen[str], *profiles: str) -> None:
    """Until the process holds its sessions (it is inside its model calls)."""
    deadline = time.monotonic() + 60
    while not any(s.lease_owner for s in sessions(db, *profiles)):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the run never leased a session"
        time.sleep(0.1)
    time.sleep(0.3)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_gives_every_lease_back_and_records_the_run_as_interrupted(
    db: str, signum: signal.Signals
) -> None:
    running = consolidate(db, delay_s=30.0)
    try:
        wait_for_leases(db, running)
        sent = time.monotonic()
        running.send_signal(signum)
        out, err = stopped(running, signum)
        assert time.monotonic() - sent < 10  # it does not wait for the model
    finally:
        ended(running)
    assert running.returncode == 128 + signum, (out, err)
    assert err.strip().startswith("Interrupted:") and len(err.strip().splitlines()) == 1
    assert [(s.lease_owner, s.status.value, s.attempts) for s in sessions(db)] == [
        (None, "open", 0)
    ] * 3
    with Memory(settings=Settings(db=db)) as memory:
        assert [r.status for r in memory.runs()] == ["interrupted"]
    again = consolidate(db)
    out, err = again.communicate(timeout=120)
    assert again.returncode == 0, err
    assert {s.status.value for s in sessions(db)} == {"archived"}


PROFILES = ["alice", "bob", "carol"]


@pytest.fixture
def busy_db(tmp_path: Path, embedder: BundledEmbedder) -> str:
    """Three profiles of eight conversations each: a run of a few seconds."""
    path = str(tmp_path / "busy.db")
    with Memory(embedder=embedder, settings=Settings(db=path)) as memory:
        for profile in PROFILES:
            memory.create_profile(profile)
            for n in range(8):
                memory.add_messages(
                    profile,
                    f"chat-{n}",
                    [
                        ("user", f"I have {n + 2} cats."),
                        ("user", f"I moved to Lyon in 20{n + 10}."),
                    ],
                )
    return path


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("after_s", [0.0, 0.4, 0.9, 1.5])
def test_a_signal_at_any_point_of_a_run_ends_it_cleanly(
    busy_db: str, signum: signal.Signals, after_s: float
) -> None:
    running = consolidate(busy_db, delay_s=0.3)
    try:
        wait_for_leases(busy_db, running, *PROFILES)
        time.sleep(after_s)
        running.send_signal(signum)
        running.send_signal(signum)  # pressed twice: the second must not cut the clean-up short
        out, err = stopped(running, signum)
    finally:
        ended(running)
    left = sessions(busy_db, *PROFILES)
    assert [s.key for s in left if s.lease_owner] == []
    if out.startswith("Run "):  # the run had finished: the signal met the process on its way out
        assert running.returncode in (0, 128 + signum, -signum), err
        assert {s.status.value for s in left} == {"archived"}
        return
    assert running.returncode == 128 + signum, (out, err)
    assert err.strip().startswith("Interrupted:") and len(err.strip().splitlines()) == 1, err
    with Memory(settings=Settings(db=busy_db)) as memory:
        assert [r.status for r in memory.runs()] == ["interrupted"]


def test_a_profile_erased_during_a_run_ends_its_part_and_the_run_is_partial(
    busy_db: str,
) -> None:
    running = consolidate(busy_db, "--json", delay_s=0.5)
    try:
        wait_for_leases(busy_db, running, "bob")
        with Memory(settings=Settings(db=busy_db)) as memory:
            memory.forget("bob")
        out, err = running.communicate(timeout=120)
    finally:
        ended(running)
    assert running.returncode == 0, err
    assert json.loads(out)["status"] == "partial"
    left = sessions(busy_db, "alice", "carol")
    assert {s.status.value for s in left} == {"archived"}
    assert not any(s.lease_owner for s in left)
    with Memory(settings=Settings(db=busy_db)) as memory:
        assert [r.status for r in memory.runs()] == ["partial"]
        assert [p.id for p in memory.list_profiles()] == ["alice", "carol"]


def test_a_killed_run_is_marked_abandoned_and_its_sessions_taken_back_at_once(db: str) -> None:
    killed = consolidate(db, delay_s=30.0)
    try:
        wait_for_leases(db, killed)
        killed.kill()
    finally:
        killed.kill()
        killed.communicate(timeout=20)
    held = [s for s in sessions(db) if s.lease_owner]
    assert held
    assert all(s.lease_until is not None and s.lease_until > utcnow() for s in held)
    with Memory(settings=Settings(db=db)) as memory:
        assert [r.status for r in memory.runs()] == ["running"]
    after = consolidate(db)
    out, err = after.communicate(timeout=120)
    assert after.returncode == 0, err
    assert "No session was taken" not in out
    assert [(s.status.value, s.lease_owner) for s in sessions(db)] == [("archived", None)] * 3
    with Memory(settings=Settings(db=db)) as memory:
        assert [r.status for r in memory.runs()] == ["succeeded", "abandoned"]
