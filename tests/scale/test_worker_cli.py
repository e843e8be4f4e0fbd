"""`somna worker` as a user sees it: one line per run, the sleep between runs, clean stops.

In process on a SQLite file with a `sleep` that records instead of waiting;
then as a real process, stopped by SIGTERM while it sleeps and while it works.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner, Result

from somna.config import Settings
from somna.embed import BundledEmbedder
from somna.errors import StoreError
from somna.interfaces.cli.options import CliState
from somna.memory import Memory
from somna.model import Run
from tests.scale.somna_cli import build_app

ROOT = Path(__file__).resolve().parents[2]
ENTRY = Path(__file__).with_name("somna_cli.py")
STAMP = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"

Invoke = Callable[..., Result]


class Interrupt:
    """A `sleep` that records each wait and presses Ctrl-C on the `after`-th."""

    def __init__(self, after: int = 1) -> None:
        self.after = after
        self.slept: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.slept.append(seconds)
        if len(self.slept) >= self.after:
            raise KeyboardInterrupt


def invoker(embedder: BundledEmbedder, sleep: Callable[[float], None], **patch: object) -> Invoke:
    def factory(settings: Settings) -> Memory:
        memory = Memory(embedder=embedder, settings=settings)
        for name, value in patch.items():
            setattr(memory, name, value)
        return memory

    app = build_app()
    state = CliState(memory_factory=factory, sleep=sleep)
    return lambda *args: CliRunner().invoke(app, list(args), obj=state)


def runs_logged(out: str) -> list[tuple[str, str]]:
    """(status, sessions consolidated) of each run line."""
    found = re.finditer(rf"^{STAMP} Run \S+ (\w+) in [\d.]+ s: (\d+) sessions?", out, re.M)
    return [(m[1], m[2]) for m in found]


def test_once_runs_one_batch_and_logs_one_line(db: str, embedder: BundledEmbedder) -> None:
    sleep = Interrupt()
    result = invoker(embedder, sleep)("worker", "--db", db, "--once", "--idle-hours", "0")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "Consolidating every profile once, at most 20 sessions a run, those quiet for 0 h; "
        "Ctrl-C or SIGTERM stops."
    )
    assert runs_logged(result.stdout) == [("succeeded", "3")]
    assert len(lines) == 2 and sleep.slept == []


def test_the_loop_sleeps_after_a_short_run_and_goes_on_after_a_full_one(
    db: str, embedder: BundledEmbedder
) -> None:
    sleep = Interrupt(after=2)
    somna = invoker(embedder, sleep)
    result = somna("worker", "--db", db, "--batch", "2", "--interval", "7", "--idle-hours", "0")
    assert result.exit_code == 0, result.output
    # 2 (a full batch: no sleep), 1 (sleep 7 s), 0 (sleep: Ctrl-C)
    assert [n for _, n in runs_logged(result.stdout)] == ["2", "1", "0"]
    assert sleep.slept == [7.0, 7.0]
    assert result.stdout.endswith("Stopped.\n")


def test_a_failed_run_is_logged_and_the_loop_goes_on(db: str, embedder: BundledEmbedder) -> None:
    def broken(*args: object, **kwargs: object) -> Run:
        raise StoreError("The database failed: connection lost.")

    sleep = Interrupt(after=2)
    result = invoker(embedder, sleep, consolidate=broken)("worker", "--db", db)
    assert result.exit_code == 0, result.output
    errors = result.stderr.splitlines()
    assert len(errors) == 2
    assert all(
        re.fullmatch(rf"{STAMP} Error: The database failed: connection lost\.", e) for e in errors
    )
    once = invoker(embedder, Interrupt(), consolidate=broken)("worker", "--db", db, "--once")
    assert once.exit_code == 1
    assert "Stopped." not in once.stdout


def test_an_unknown_profile_exits_2_with_one_line(db: str, embedder: BundledEmbedder) -> None:
    result = invoker(embedder, Interrupt())("worker", "--db", db, "--profile", "nobody")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "Error: There is no profile named 'nobody'; create it first."
    ]


def test_only_the_named_profile_is_consolidated(db: str, embedder: BundledEmbedder) -> None:
    with Memory(embedder=embedder, settings=Settings(db=db)) as memory:
        memory.create_profile("bob")
        memory.add_messages("bob", "chat", [("user", "I have a dog.")])
    somna = invoker(embedder, Interrupt())
    result = somna("worker", "--db", db, "--profile", "bob", "--once", "--idle-hours", "0")
    assert runs_logged(result.stdout) == [("succeeded", "1")]
    assert 'Consolidating profile "bob" once' in result.stdout


def test_the_worker_has_help_with_an_example() -> None:
    result = CliRunner().invoke(build_app(), ["worker", "--help"])
    assert result.exit_code == 0
    assert "Example:" in result.stdout and "\n     somna worker" in result.stdout


# -- signals, in a real process -------------------------------------------------------


def start(db: str, *args: str, delay_s: float = 0.0) -> subprocess.Popen[str]:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("SOMNA_")},
        "PYTHONPATH": str(ROOT / "src") + os.pathsep + str(ROOT),
        "SOMNA_DB": db,
        "SOMNA_TEST_LLM_DELAY_S": str(delay_s),
    }
    return subprocess.Popen(
        [sys.executable, str(ENTRY), "worker", "--idle-hours", "0", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def read_line(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line, process.communicate()
    return line


def test_sigterm_while_sleeping_stops_at_once(db: str) -> None:
    worker = start(db, "--interval", "600")
    try:
        read_line(worker)  # the opening line
        assert runs_logged(read_line(worker)) == [("succeeded", "3")]
        time.sleep(0.2)  # now asleep for 600 s
        sent = time.monotonic()
        worker.send_signal(signal.SIGTERM)
        out, err = worker.communicate(timeout=20)
        assert time.monotonic() - sent < 5
    finally:
        worker.kill()
    assert worker.returncode == 0, err
    assert out == "Stopped.\n"


def test_sigterm_during_a_run_lets_the_run_finish(db: str) -> None:
    worker = start(db, "--interval", "600", delay_s=1.0)  # each model call takes 1 s
    try:
        read_line(worker)
        time.sleep(0.5)  # inside the first run's first model call
        worker.send_signal(signal.SIGTERM)
        out, err = worker.communicate(timeout=30)
    finally:
        worker.kill()
    assert worker.returncode == 0, err
    assert [n for _, n in runs_logged(out)] == ["3"]
    assert out.endswith("Stopped.\n")


def test_sigint_twice_stops_a_run_in_the_middle(db: str) -> None:
    worker = start(db, "--interval", "600", delay_s=5.0)
    try:
        read_line(worker)
        time.sleep(0.5)
        worker.send_signal(signal.SIGINT)
        time.sleep(0.2)
        worker.send_signal(signal.SIGINT)
        out, err = worker.communicate(timeout=20)
    finally:
        worker.kill()
    assert worker.returncode == 0, err
    assert runs_logged(out) == [] and out == "Stopped.\n"
    with Memory(settings=Settings(db=db)) as memory:
        assert [(r.status, r.sessions_consolidated) for r in memory.runs()] == [("interrupted", 0)]
        with memory.store.read("alice") as tx:
            assert [s.lease_owner for s in tx.sessions()] == [None] * 3  # leases given back
