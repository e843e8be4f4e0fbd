"""`somna consolidate` stopped by a signal, as a real process: leases given back, the run
recorded as interrupted, exit 130; killed outright, its run is marked abandoned by the next
one, which says who holds the sessions and until when."""

from __future__ import annotations

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
from somna.model import Session

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


def sessions(db: str) -> list[Session]:
    with Memory(settings=Settings(db=db)) as memory, memory.store.read("alice") as tx:
        return tx.sessions()


def wait_for_leases(db: str, process: subprocess.Popen[str]) -> None:
    """Until the process holds its sessions (it is inside its model calls)."""
    deadline = time.monotonic() + 60
    while not any(s.lease_owner for s in sessions(db)):
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
    assert running.returncode == 130, (out, err)
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


def test_a_killed_run_is_marked_abandoned_and_its_held_sessions_are_reported(db: str) -> None:
    killed = consolidate(db, delay_s=30.0)
    try:
        wait_for_leases(db, killed)
        killed.kill()
    finally:
        killed.kill()
        killed.communicate(timeout=20)
    held = [s for s in sessions(db) if s.lease_owner]
    assert held
    with Memory(settings=Settings(db=db)) as memory:
        assert [r.status for r in memory.runs()] == ["running"]
    after = consolidate(db)
    out, err = after.communicate(timeout=120)
    assert after.returncode == 0, err
    until = max(s.lease_until for s in held if s.lease_until is not None)
    many = "1 due session is" if len(held) == 1 else f"{len(held)} due sessions are"
    assert (
        f"No session was taken: {many} held by another worker, the last until "
        f"{until:%Y-%m-%d %H:%M} UTC" in out
    )
    with Memory(settings=Settings(db=db)) as memory:
        assert [r.status for r in memory.runs()] == ["succeeded", "abandoned"]
