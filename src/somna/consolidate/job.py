"""The run's bookkeeping and signals: what its threads share, its counts, how it stops.

A run goes through the profiles side by side, each on a thread of its own, while the
model calls of all of them share one `CallPool`. `Job` is what those threads share: the
run's account, its limit, the leases it holds, and the event that stops them all (the
first profile to fail for the whole run, a signal, a worker asked to stop). Each session
keeps its own account (`Pending.run`), added to the run's under its lock once settled.
"""

from __future__ import annotations

import threading
import time as clock
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_EXCEPTION, Future, wait
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from somna.config import Settings
from somna.consolidate.calls import CallPool, Deadline
from somna.consolidate.plan import Plan
from somna.embed import Embedder
from somna.errors import LLMError
from somna.llm import LLM
from somna.model import Message, Profile, Run, Session
from somna.store import Store
from somna.tuning import for_profile

__all__ = [
    "ACTOR",
    "Job",
    "Means",
    "Pending",
    "Stopped",
    "await_call",
    "join",
    "stop",
    "uninterrupted",
    "wait_all",
]

ACTOR = "consolidation"
"""Who the events the run writes name."""
_POLL_S = 0.5
"""How often a wait for a model call looks at its deadline and at stop requests."""
_WIND_DOWN_S = 1.0
"""How long a stopped run waits for its threads to finish a model call: no longer, as its
reply is never read."""
_EMBED_GRACE_S = 30.0
"""How much longer it waits for the embeddings in progress (the drained queue leaves one
per thread), which must end before the process does."""

_Leased = TypeVar("_Leased")


class Stopped(Exception):
    """The run is stopping (another profile failed, or a signal): leave this profile."""


@dataclass(frozen=True)
class Means:
    """What a run works with: the store, the models, the settings and the clock."""

    store: Store
    embedder: Embedder
    llm: LLM
    settings: Settings
    clock: Callable[[], datetime]

    def tuned(self, profile: Profile) -> Settings:
        """The settings in force for `profile` (its overrides on the global ones)."""
        return for_profile(self.settings, profile)


@dataclass
class Pending:
    """A session leased, its extraction submitted, and its own account of the run."""

    session: Session
    deadline: Deadline
    messages: list[Message]
    """Read with the lease, so that the call threads never wait for the store."""
    run: Run = field(default_factory=Run)
    future: Future[Plan] = field(default_factory=Future)


@dataclass
class Job:
    """One run as its threads share it: what to do, the calls pool, the leases held."""

    run: Run
    now: datetime
    idle_hours: float | None
    dry_run: bool
    worker: str
    hygiene: bool
    calls: CallPool
    ahead: int
    """How many of a profile's sessions are leased and extracted ahead of its writes."""
    progress: Callable[[Session], None] | None
    budget: int | None
    should_stop: Callable[[], bool]
    held: dict[str, str] = field(default_factory=dict)
    """Session id to profile id, for every lease the run holds."""
    erased: set[str] = field(default_factory=set)
    """Profiles erased (`forget`) while the run went through them: it is partial."""
    planned: list[Plan] = field(default_factory=list)
    """A dry run's plans, for the hygiene it counts instead of doing."""
    stopped: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    leasing: threading.Lock = field(default_factory=threading.Lock)
    """Held while a lease is taken against the run's limit."""

    def take(self, lease: Callable[[int], list[_Leased]], wanted: int) -> list[_Leased]:
        """`lease(n)`'s sessions, n being `wanted` or what is left of the run's limit. The limit
        is spent only on sessions leased, one lease at a time: a profile that finds fewer
        than it asked for must not hold back, even briefly, the share of another profile."""
        with self.leasing:
            if self.budget is not None:
                wanted = min(wanted, self.budget)
            if wanted <= 0 or self.stopped.is_set():
                return []
            leased = lease(wanted)
            if self.budget is not None:
                self.budget -= len(leased)
            return leased

    def merge(self, part: Run) -> None:
        """Add one session's (or one profile's hygiene) counts to the run."""
        with self.lock:
            _add(self.run, part)


def _add(run: Run, part: Run) -> None:
    for name, value in part:
        if isinstance(value, bool) or name in ("sessions_held", "held_until"):
            continue
        if isinstance(value, int):
            setattr(run, name, getattr(run, name) + value)
        elif isinstance(value, list):
            getattr(run, name).extend(value)
    run.sessions_held += part.sessions_held
    if part.held_until is not None:
        run.held_until = max(part.held_until, run.held_until or part.held_until)


def await_call(pending: Future[Any], deadline: Deadline, job: Job) -> Any:
    """The call's result, or a failure of the session once its deadline has passed; `Stopped`
    when the run stops meanwhile."""
    while True:
        if pending.done():
            return pending.result()
        left = deadline.left()
        if left is not None and left <= 0:
            pending.cancel()
            raise LLMError(
                f"The model took more than {deadline.seconds:g} s over this session "
                "(session_deadline_s); it is left for a later run."
            )
        timeout = _POLL_S if left is None else min(_POLL_S, left)
        done, _ = wait([pending], timeout=timeout)
        if done:
            return pending.result()
        if job.stopped.is_set():
            raise Stopped


def wait_all(futures: list[Future[None]]) -> None:
    """Wait for the profiles; on the first failure, stop the others and raise it."""
    pending = set(futures)
    while pending:
        done, pending = wait(pending, timeout=_POLL_S, return_when=FIRST_EXCEPTION)
        for future in done:
            if future.exception() is not None:
                raise future.exception()  # type: ignore[misc]


def stop(job: Job, pools: Iterable[CallPool]) -> None:
    """Stop the run: no lease is taken from now on, and the calls not started are dropped."""
    job.stopped.set()
    for pool in pools:
        pool.close()


def join(pools: Iterable[CallPool]) -> None:
    """Wait a moment for the pools' threads; longer for an embedding, since a thread still
    embedding when the interpreter exits aborts the process."""
    ends = clock.monotonic() + _WIND_DOWN_S
    for pool in pools:
        pool.join(ends, ends + _EMBED_GRACE_S)


def uninterrupted(work: Callable[[], None]) -> None:
    """Run `work` to its end on a thread of its own, where no signal can cut it short (a
    signal raises in the main thread only), and raise what it raises. A signal that comes
    meanwhile is let go: what it would stop is already ending."""
    ended: Future[None] = Future()

    def target() -> None:
        try:
            work()
        except BaseException as exc:  # handed to the waiting thread
            ended.set_exception(exc)
        else:
            ended.set_result(None)

    thread = threading.Thread(target=target, name="somna-run-end")
    thread.start()
    while thread.is_alive():
        with suppress(KeyboardInterrupt):
            thread.join()
    ended.result()
