"""What a caller may ask of one consolidation run, declared once for `Memory.consolidate`
and `Consolidator.run`."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TypedDict

from somna.model.entities import Session

__all__ = ["RunOptions"]


class RunOptions(TypedDict, total=False):
    """The keyword arguments of a run; each one left out takes its default."""

    now: datetime | None
    """The run's "now" (default: the clock's): sessions quiet since before it are due."""
    idle_hours: float | None
    """How long a session must be quiet to be due (default: each profile's own setting)."""
    limit: int | None
    """The most sessions this run consolidates (default: every due one)."""
    dry_run: bool
    """Call the model and count what would change, writing nothing."""
    progress: Callable[[Session], None] | None
    """Called with each session once it is settled."""
    hygiene: bool
    """Tidy every profile (default), or only those a session was consolidated for."""
    concurrency: int | None
    """How many model calls run at once (default: `consolidation_concurrency`)."""
    should_stop: Callable[[], bool] | None
    """Asked before each session is taken; true ends the run there."""
