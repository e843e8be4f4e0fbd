"""Ctrl-C and SIGTERM during a consolidation: stop now, give the sessions back, exit 128 + signal.

`Memory.consolidate` releases the leases it holds, waits (briefly) for its
threads and records the run as interrupted when `KeyboardInterrupt` reaches
it. `signals_interrupt` makes SIGINT and SIGTERM (a service manager's stop)
raise `Interrupted`, a `KeyboardInterrupt` that knows its signal, once: a
second signal while the run is giving its sessions back is only noted, so the
clean-up is never cut short. The command then exits 130 (SIGINT) or 143
(SIGTERM), as shells expect, with one line and no traceback.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from types import FrameType
from typing import Annotated, Any

from somna.interfaces.cli.options import setting_option

__all__ = [
    "ConcurrencyOption",
    "Interrupted",
    "exit_code",
    "interrupted_line",
    "signals_interrupt",
]

ConcurrencyOption = Annotated[
    int | None,
    setting_option(
        "consolidation_concurrency",
        "--concurrency",
        "N",
        "Model calls in flight at once, of different sessions",
    ),
]

_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """A signal asked the command to stop; `signum` says which."""

    def __init__(self, signum: int = signal.SIGINT) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def exit_code(stop: KeyboardInterrupt) -> int:
    """128 + the signal's number: 130 for Ctrl-C (and a bare `KeyboardInterrupt`), 143 for
    SIGTERM."""
    return 128 + (stop.signum if isinstance(stop, Interrupted) else signal.SIGINT)


@contextmanager
def signals_interrupt() -> Iterator[None]:
    """SIGINT and SIGTERM raise `Interrupted` in this block, the first one only (main thread
    only; elsewhere signals are left alone, and so is a signal the process was started
    ignoring, as a shell starts a script's background jobs)."""
    raised: list[int] = []

    def interrupt(signum: int, frame: FrameType | None) -> None:
        if not raised:  # later signals: the stop is under way, let it finish
            raised.append(signum)
            raise Interrupted(signum)

    previous: dict[int, Any] = {}
    with suppress(ValueError):  # signal handlers belong to the main thread
        for number in _SIGNALS:
            if signal.getsignal(number) is not signal.SIG_IGN:  # a script's background job
                previous[number] = signal.signal(number, interrupt)
    try:
        yield
    finally:
        if not raised:  # after a stop, a late signal must not meet Python's default handler
            for signum, handler in previous.items():
                signal.signal(signum, handler)


def interrupted_line() -> str:
    return (
        "Interrupted: the run is recorded as interrupted and the sessions it held were "
        "given back; run it again to go on."
    )
