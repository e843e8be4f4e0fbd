"""SIGINT and SIGTERM as exit 130 and 143: one line, no traceback, from the process's first
moment.

`somna` takes about a second to import its commands (numpy, the embedding
model's runtime) before any of them runs; Python's own handlers would meet a
Ctrl-C there with a `KeyboardInterrupt` traceback, and a SIGTERM with no word.
`Guard` is the console script's first step. While the commands are imported,
nothing has been read or written yet, so a signal ends the process at once
with its line (an exception raised there could come out as another one:
Python 3.11 wraps any raised inside a class's `__set_name__`). While the
command runs, the first signal raises `Interrupted`, which the script turns
into its line and 128 + the signal's number; any later one (asked twice, or
while the process ends) ends it at once with that code. Commands that must
finish something first (`consolidate`, `worker`) set their own handlers for
their run. An `Interrupted` raised while Python runs a finalizer (a weak reference's
callback, a `__del__`) never reaches the command: Python drops it and prints it as an
"Exception ignored"; `on_dropped_interrupt` keeps that quiet and lets the next signal
stop the command again. This module imports only the standard library: it is loaded
before the commands are.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from contextlib import suppress
from types import FrameType
from typing import Any

__all__ = [
    "Guard",
    "Handler",
    "Interrupted",
    "exit_code",
    "on_dropped_interrupt",
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


def stopped_line(stop: KeyboardInterrupt, started: bool = True) -> str:
    """What a command stopped by a signal says, whichever command it was."""
    asked = "Ctrl-C" if exit_code(stop) == 128 + signal.SIGINT else "SIGTERM"
    if not started:
        return f"Interrupted: {asked} stopped somna before the command began; nothing was done."
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


def on_dropped_interrupt(rearm: Callable[[], None]) -> Callable[[], None]:
    """From now on, an `Interrupted` Python drops (raised inside a finalizer) is not printed
    and `rearm` is called, so that the next signal stops the command; returns what puts
    the previous hook back."""
    previous = sys.unraisablehook

    def dropped(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, Interrupted):
            rearm()
        else:
            previous(unraisable)

    sys.unraisablehook = dropped

    def put_back() -> None:
        sys.unraisablehook = previous

    return put_back


class Guard:
    """SIGINT and SIGTERM for the whole life of the `somna` process, from its first step:
    while the commands are imported, then while one runs (`started`), then once it is over
    (`done`)."""

    def __init__(self) -> None:
        self._stage = "importing"
        self.raised: int | None = None
        """The signal that stopped the command, once one has."""
        set_handlers(self._handle)
        on_dropped_interrupt(self._rearm)

    def started(self) -> None:
        """The commands are imported: from now on the first signal raises `Interrupted`."""
        self._stage = "running"

    def done(self) -> None:
        """The command is over: a signal ends the process at once."""
        self._stage = "done"

    def _rearm(self) -> None:
        if self._stage == "stopping":  # the stop never reached the command
            self._stage, self.raised = "running", None

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self._stage == "importing":  # nothing read or written yet: stop here
            os.write(2, f"{stopped_line(Interrupted(signum), started=False)}\n".encode())
            os._exit(128 + signum)
        if self._stage == "running":
            self._stage = "stopping"
            self.raised = signum
            raise Interrupted(signum)
        os._exit(128 + signum)  # asked again, or the process is ending: nothing to finish
