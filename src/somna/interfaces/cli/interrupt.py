"""Ctrl-C and SIGTERM during a consolidation: stop now, give the sessions back, exit 130.

`Memory.consolidate` releases the leases it holds and records the run as
interrupted when `KeyboardInterrupt` reaches it; SIGTERM (a service manager's
stop) is made to raise the same, so both end the same way.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from types import FrameType
from typing import Annotated, Any

import typer

__all__ = ["INTERRUPTED", "ConcurrencyOption", "interrupted_line", "terminate_interrupts"]

INTERRUPTED = 130
"""The exit code of a command stopped by a signal (128 + SIGINT), as shells expect."""

ConcurrencyOption = Annotated[
    int | None,
    typer.Option(
        "--concurrency",
        metavar="N",
        min=1,
        max=256,
        help="Model calls in flight at once, of different sessions "
        "(default: SOMNA_CONSOLIDATION_CONCURRENCY, 8).",
        show_default=False,
    ),
]


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextmanager
def terminate_interrupts() -> Iterator[None]:
    """SIGTERM raises `KeyboardInterrupt` in this block, as Ctrl-C does (main thread only)."""
    previous: Any = None
    with suppress(ValueError):  # signal handlers belong to the main thread
        previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def interrupted_line() -> str:
    return (
        "Interrupted: the run is recorded as interrupted and the sessions it held were "
        "given back; run it again to go on."
    )
