"""`somna schedule --at HH:MM`: the nightly job in the foreground, every day at that time.

A small loop: sleep until the wall clock next shows HH:MM, consolidate, log one
line, repeat. Ctrl-C stops it cleanly (exit 0). A run that fails is logged and
the loop goes on to the next day.

Times are local and naive, read from the wall clock at least once a minute
while waiting: the run starts when the clock first reaches HH:MM. On the night
of a daylight-saving change that means a time skipped by the clock runs as soon
as the clock jumps past it, and a time that occurs twice runs once.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, time, timedelta
from typing import Annotated

import typer

from somna.interfaces.cli import render
from somna.interfaces.cli.consolidation import logged_run, scope_words
from somna.interfaces.cli.options import (
    CliState,
    DbOption,
    ProfileFilterOption,
    load_memory,
    open_memory,
)
from somna.model import Run, RunStatus

__all__ = ["next_run", "parse_at", "run_schedule", "schedule", "sleep_until"]

TICK_S = 60.0
"""The longest single sleep: the clock is read again at least this often."""

_AT = re.compile(r"(\d{1,2}):(\d{2})")


def parse_at(value: str) -> time:
    """A time of day, `HH:MM` on a 24-hour clock."""
    match = _AT.fullmatch(value.strip())
    if match is None or int(match[1]) > 23 or int(match[2]) > 59:
        raise typer.BadParameter(
            f"{value!r} is not a time of day; use HH:MM on a 24-hour clock, such as 03:00 or 23:30."
        )
    return time(int(match[1]), int(match[2]))


def next_run(now: datetime, at: time) -> datetime:
    """The next time the clock shows `at` after `now`: today if still ahead, else tomorrow.

    Pure arithmetic on the wall clock; `now` is naive local time (DST is not
    accounted for: see the module's docstring).

    >>> next_run(datetime(2026, 5, 3, 1, 0), time(3, 0))
    datetime.datetime(2026, 5, 3, 3, 0)
    >>> next_run(datetime(2026, 5, 3, 3, 0), time(3, 0))
    datetime.datetime(2026, 5, 4, 3, 0)
    """
    today = now.replace(hour=at.hour, minute=at.minute, second=0, microsecond=0)
    return today if today > now else today + timedelta(days=1)


def sleep_until(
    due: datetime, clock: Callable[[], datetime], sleep: Callable[[float], None]
) -> None:
    """Sleep until `clock()` reaches `due`, in steps of at most `TICK_S` seconds."""
    while (left := (due - clock()).total_seconds()) > 0:
        sleep(min(left, TICK_S))


def run_schedule(
    at: time,
    job: Callable[[], bool],
    *,
    clock: Callable[[], datetime],
    sleep: Callable[[float], None],
    times: int | None = None,
    on_wait: Callable[[datetime], None] | None = None,
) -> int:
    """Run `job` every day at `at`, `times` times (None: until interrupted).

    `job` returns whether it succeeded; the result is the number of failures.
    `on_wait` hears of each next run before the wait for it begins.
    """
    done = failed = 0
    while times is None or done < times:
        due = next_run(clock(), at)
        if on_wait is not None:
            on_wait(due)
        sleep_until(due, clock, sleep)
        if not job():
            failed += 1
        done += 1
    return failed


def _stamp(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M}"


def schedule(
    ctx: typer.Context,
    at: Annotated[
        time,
        typer.Option(
            "--at",
            parser=parse_at,
            metavar="HH:MM",
            help="The local time of day to run at, on a 24-hour clock.",
            show_default=False,
        ),
    ],
    profile: ProfileFilterOption = None,
    once: Annotated[
        bool,
        typer.Option("--once", help="Run once at the next HH:MM, then exit."),
    ] = False,
    db: DbOption = None,
) -> None:
    """Consolidate every day at HH:MM local time, in the foreground, until Ctrl-C.

    Sleeps until the next HH:MM (today if still ahead, else tomorrow), runs
    `somna consolidate`, logs one line with the run's counts, and waits for the
    next day. A failed run is logged on stderr and the loop goes on; with
    --once, it makes the exit code 1. Times are naive local wall-clock times.

    Example:

        somna schedule --at 03:00
        somna schedule --at 23:30 --profile alice --once
    """
    state = ctx.ensure_object(CliState)
    with open_memory(ctx, db) as memory:  # settings, database and profile are checked now
        if profile is not None:
            memory.get_profile(profile)

    def consolidate() -> Run:
        memory = load_memory(ctx, db)
        try:
            return memory.consolidate(profile)
        finally:
            memory.close()

    def job() -> bool:
        run = logged_run(_stamp(state.local_clock()), consolidate)
        return run is not None and run.status is not RunStatus.FAILED

    when = "once, at" if once else "every day at"
    render.say(f"Consolidating {scope_words(profile)} {when} {at:%H:%M} local time; Ctrl-C stops.")
    try:
        failed = run_schedule(
            at,
            job,
            clock=state.local_clock,
            sleep=state.sleep,
            times=1 if once else None,
            on_wait=lambda due: render.say(f"Next run: {_stamp(due)}.", style="dim"),
        )
    except KeyboardInterrupt:
        render.say("Stopped.")
        return
    if failed:
        raise typer.Exit(1)
