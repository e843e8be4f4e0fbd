"""`somna worker`: one consolidation worker of a fleet, in the foreground.

A small loop: consolidate at most --batch due sessions, log one line, sleep
--interval seconds, repeat; a run that filled its batch goes on at once, as
more is waiting. Any number of workers, on any number of machines, share one
database: each leases the sessions it takes (Postgres `FOR UPDATE SKIP
LOCKED`, SQLite `BEGIN IMMEDIATE`) for SOMNA_LEASE_MINUTES, so no session is
consolidated twice, and the sessions of a worker that died are taken again
once its lease has expired.

Ctrl-C or SIGTERM stops the worker cleanly (exit 0): at once while it sleeps;
while it works, the run takes no new session and ends after those in progress.
A second signal stops the run itself: what it had not written yet is rolled
back, its leases are given back and the run is recorded as interrupted. A
failed run is logged on stderr and the loop goes on; with --once it makes the
exit code 1.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime, timedelta
from types import FrameType
from typing import Annotated, Any

import typer

from somna.interfaces.cli import render
from somna.interfaces.cli.consolidation import logged_run, scope_words
from somna.interfaces.cli.interrupt import ConcurrencyOption
from somna.interfaces.cli.llm import LlmRetriesOption, LlmTimeoutOption, model_overrides
from somna.interfaces.cli.options import (
    CliState,
    DbOption,
    IdleHoursOption,
    ProfileFilterOption,
    open_memory,
)
from somna.model import Run, RunStatus

__all__ = ["StopSignals", "run_worker", "worker"]

HYGIENE_EVERY = timedelta(hours=1)
"""How often a worker also expires, fades and digests every profile, not only busy ones."""

Job = Callable[[], bool | None]
"""One run: True when it filled its batch, False when it did not, None when it failed."""


class StopSignals:
    """Ctrl-C and SIGTERM as requests to stop: at once while idle, after the run otherwise.

    `installed()` sets the handlers for its block (from the main thread only;
    elsewhere signals are left alone and Ctrl-C interrupts as usual).
    """

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.requested = False
        self._idle = False

    def handle(self, signum: int, frame: FrameType | None) -> None:
        if self._idle or self.requested:
            raise KeyboardInterrupt  # nothing to finish, or asked twice: stop now
        self.requested = True

    @contextmanager
    def installed(self) -> Iterator[StopSignals]:
        previous: dict[signal.Signals, Any] = {}
        with suppress(ValueError):  # signal handlers belong to the main thread
            for number in self.SIGNALS:
                previous[number] = signal.signal(number, self.handle)
        try:
            yield self
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)

    @contextmanager
    def idle(self) -> Iterator[None]:
        """A stretch with nothing to finish: a stop request ends it at once."""
        self._idle = True
        try:
            if self.requested:
                raise KeyboardInterrupt
            yield
        finally:
            self._idle = False


def run_worker(
    job: Job,
    *,
    interval: float,
    once: bool = False,
    sleep: Callable[[float], None],
    stop: StopSignals | None = None,
) -> int:
    """Run `job` until stopped (or once); returns how many runs failed.

    Sleeps `interval` seconds after a run that did not fill its batch. A stop
    request ends the loop after the current run; one made while sleeping
    raises `KeyboardInterrupt` out of the sleep.
    """
    signals = stop or StopSignals()
    failed = 0
    while not signals.requested:
        outcome = job()
        failed += outcome is None
        if once or signals.requested:
            break
        if outcome is not True:
            with signals.idle():
                sleep(interval)
    return failed


def worker(
    ctx: typer.Context,
    profile: ProfileFilterOption = None,
    interval: Annotated[
        float,
        typer.Option(
            "--interval",
            metavar="SECONDS",
            min=0,
            help="How long to sleep after a run that did not fill its batch.",
        ),
    ] = 60.0,
    idle_hours: IdleHoursOption = None,
    batch: Annotated[
        int,
        typer.Option(
            "--batch",
            metavar="N",
            min=1,
            help="At most this many sessions per run; keep a batch's work well within "
            "SOMNA_LEASE_MINUTES.",
        ),
    ] = 20,
    once: Annotated[bool, typer.Option("--once", help="Run once, then exit.")] = False,
    concurrency: ConcurrencyOption = None,
    llm_timeout: LlmTimeoutOption = None,
    llm_retries: LlmRetriesOption = None,
    db: DbOption = None,
) -> None:
    """Consolidate due sessions in a loop: one worker of a fleet that shares one database.

    Each run consolidates at most --batch due sessions and logs one line;
    the worker then sleeps --interval seconds, or goes on at once when the
    batch was full. Start as many workers as you like, on as many machines,
    against one Postgres database (SOMNA_DB=postgresql://…): sessions are
    leased, so each is consolidated exactly once, and those of a worker that
    died are taken again after SOMNA_LEASE_MINUTES. Ctrl-C or SIGTERM stops
    it after the current run (at once while it sleeps).

    Example:

        somna worker
        somna worker --interval 300 --batch 50
        somna worker --profile alice --idle-hours 0 --once
    """
    state = ctx.ensure_object(CliState)
    scope = scope_words(profile)
    stop = StopSignals()
    failed = 0
    stopped = False
    try:
        model = model_overrides(llm_timeout, llm_retries)
        with stop.installed(), open_memory(ctx, db, **model) as memory:
            if profile is not None:
                memory.get_profile(profile)
            idle = memory.settings.idle_hours if idle_hours is None else idle_hours

            last_hygiene = [datetime.min.replace(tzinfo=UTC)]

            def consolidate_batch() -> Run:
                tidy = memory.now() - last_hygiene[0] >= HYGIENE_EVERY
                run = memory.consolidate(
                    profile,
                    idle_hours=idle,
                    limit=batch,
                    hygiene=tidy,
                    concurrency=concurrency,
                    should_stop=lambda: stop.requested,  # no new session once asked
                )
                if tidy:
                    last_hygiene[0] = memory.now()
                return run

            def job() -> bool | None:
                started = f"{state.local_clock():%Y-%m-%d %H:%M:%S}"
                run = logged_run(started, consolidate_batch)
                if run is None:
                    return None
                sys.stdout.flush()  # a log line must not wait in a pipe's buffer
                if run.status is RunStatus.FAILED:
                    return None
                return run.sessions_seen >= batch

            every = "once" if once else f"every {interval:g} s"
            render.say(
                f"Consolidating {scope} {every}, at most {batch} sessions a run, those quiet "
                f"for {idle:g} h; Ctrl-C or SIGTERM stops."
            )
            sys.stdout.flush()
            failed = run_worker(job, interval=interval, once=once, sleep=state.sleep, stop=stop)
            stopped = stop.requested
    except KeyboardInterrupt:
        stopped = True
    if stopped:
        render.say("Stopped.")
    if once and failed:
        raise typer.Exit(1)
