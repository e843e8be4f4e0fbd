"""SIGINT and SIGTERM as exit 130 and 143: one line, no traceback, from the process's first
moment.

`somna` takes about a second to import its commands (numpy, the embedding
model's runtime) before any of them runs; Python's own handlers would meet a
Ctrl-C there with a `KeyboardInterrupt` traceback, and a SIGTERM with no word.
`guard_signals` is the console script's first step: from then on the first
SIGINT or SIGTERM raises `Interrupted`, which the script turns into one line
and 128 + the signal's number, and any later one (asked twice, or while the
process ends) ends it at once with that code. Commands that must finish
something first (`consolidate`, `worker`) set their own handlers for their
run. This module imports only the standard library: it is loaded before the
commands are.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from contextlib import suppress
from types import FrameType
from typing import Any

__all__ = [
    "Handler",
    "Interrupted",
    "exit_code",
    "guard_signals",
    "set_handlers",
    "stopped_line",
]

Handler = Callable[[int, FrameType | None], None]

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


def stopped_line(stop: KeyboardInterrupt) -> str:
    """What a command stopped by a signal says, whichever command it was."""
    asked = "Ctrl-C" if exit_code(stop) == 128 + signal.SIGINT else "SIGTERM"
    return f"Interrupted: {asked} stopped the command before it finished."


def set_handlers(handler: Handler) -> dict[int, Any]:
    """`handler` for SIGINT and SIGTERM; returns the handlers it replaced, to put back.

    Only from the main thread (elsewhere nothing changes), and a signal the process
    was started ignoring (as a shell starts a script's background jobs) stays ignored.
    """
    previous: dict[int, Any] = {}
    with suppress(ValueError):  # signal handlers belong to the main thread
        for number in _SIGNALS:
            if signal.getsignal(number) is not signal.SIG_IGN:
                previous[number] = signal.signal(number, handler)
    return previous


def guard_signals() -> Callable[[], None]:
    """The first SIGINT or SIGTERM from now on raises `Interrupted`; any later one ends the
    process at once with its exit code. Returns `done`: once called, every signal does."""
    stopping: list[bool] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        if stopping:  # asked again, or the process is ending: nothing left to finish
            os._exit(128 + signum)
        stopping.append(True)
        raise Interrupted(signum)

    set_handlers(stop)
    return lambda: stopping.append(True)
