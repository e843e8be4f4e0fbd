"""Ctrl-C and SIGTERM during a consolidation: stop now, give the sessions back, exit 128 + signal.

`Memory.consolidate` releases the leases it holds, waits (briefly) for its
threads and records the run as interrupted when `KeyboardInterrupt` reaches
it. `signals_interrupt` makes SIGINT and SIGTERM (a service manager's stop)
raise `Interrupted` (`somna.interfaces.cli.signals`), once: a
second signal while the run is giving its sessions back is only noted, so the
clean-up is never cut short. The command then exits 130 (SIGINT) or 143
(SIGTERM), as shells expect, with one line and no traceback.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Annotated

from somna.interfaces.cli.options import setting_option
from somna.interfaces.cli.signals import (
    Interrupted,
    exit_code,
    on_dropped_interrupt,
    set_handlers,
)

__all__ = [
    "ConcurrencyOption",
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

    previous = set_handlers(interrupt)
    put_back = on_dropped_interrupt(raised.clear)  # dropped in a finalizer: the next one stops
    try:
        yield
    finally:
        if not raised:  # after a stop, a late signal must not meet Python's default handler
            for signum, handler in previous.items():
                signal.signal(signum, handler)
            put_back()


def interrupted_line() -> str:
    return (
        "Interrupted: the run is recorded as interrupted and the sessions it held were "
        "given back; run it again to go on."
    )
