"""Take a lease: which sessions a run may work on, and giving them back.

A run leases a profile's due sessions a few at a time (`leases`), each lease a full
`lease_minutes` from now and renewed before a model call that waited long for a slot. A
session that fails goes back with a growing wait before its next try; the leases a
stopped run still holds go back at once. A worker that was killed on this host is seen
gone by its pid: its runs are marked abandoned and its leases taken back at once.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Callable
from contextlib import suppress
from datetime import datetime, timedelta

from somna.consolidate.job import Job, Means
from somna.errors import ConflictStateError
from somna.model import Message, Run, RunStatus, Session, utc

__all__ = [
    "Leased",
    "abandon_dead_runs",
    "give_back",
    "give_back_failed",
    "held_elsewhere",
    "leases",
    "renew_if_waited",
    "worker_name",
]

_RUNS_CHECKED = 100  # how many recent runs a new run looks through for dead ones
_FRESH_LEASE = timedelta(minutes=1)
"""A lease taken less than this long ago is a full lease still: the extraction does not
renew it (one write less per session, and the write checks the lease anyway)."""
_RETRY_NEXT_RUN = timedelta(seconds=1)
_RETRY_FIRST = timedelta(minutes=5)
_RETRY_MAX = timedelta(hours=24)
"""A session that failed once is retried by the next run (never by the same one); after
that it waits 5 minutes, then twice as long after each failure, up to a day, so one bad
session is not the first one every run picks."""

Leased = tuple[Session, list[Message]]
"""A session leased, with its messages as they were read under the lease."""


def worker_name() -> str:
    """Who holds a lease: host, process and a random part, so two workers never collide."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


def _process_gone(owner: str) -> bool:
    """Whether the worker named `owner` (host:pid:…) ran on this host and its process is gone.

    A worker on another host cannot be checked from here; its sessions come back when
    their leases expire.
    """
    host, _, rest = owner.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def _retry_delay(failures_before: int) -> timedelta:
    if failures_before == 0:
        return _RETRY_NEXT_RUN
    delay: timedelta = _RETRY_FIRST * (2 ** (failures_before - 1))
    return min(delay, _RETRY_MAX)


def abandon_dead_runs(means: Means) -> None:
    """Mark `running` runs whose process on this host is gone (killed) as abandoned."""
    for past in means.store.list_runs(_RUNS_CHECKED):
        if past.status is RunStatus.RUNNING and past.owner and _process_gone(past.owner):
            past.status = RunStatus.ABANDONED
            past.finished_at = utc(means.clock())
            means.store.save_run(past)


def _take_back_dead_leases(means: Means, profile_id: str, now: datetime) -> None:
    """Give back at once the profile's sessions leased by a worker of this host whose
    process is gone (killed), instead of waiting for their leases to end."""
    with means.store.read(profile_id) as reader:
        dead = [owner for owner in reader.lease_owners(now=now) if _process_gone(owner)]
    if dead:
        with means.store.write(profile_id) as tx:
            for owner in dead:
                tx.release_leases(owner)


def _lease_end(means: Means, job: Job) -> datetime:
    """A full lease from now (or from the run's own `now`, when that is later)."""
    return max(job.now, utc(means.clock())) + timedelta(minutes=means.settings.lease_minutes)


def leases(
    means: Means, profile_id: str, idle_before: datetime, job: Job
) -> Callable[[int], list[Leased]]:
    """`more(n)`: up to n more of the profile's due sessions in conversation order, each
    with its messages, leased in one transaction (a dry run only reads them); none past
    the run's limit or once a stop is requested."""
    if job.dry_run:
        lease = _reading(means, profile_id, idle_before, job)
    else:
        _take_back_dead_leases(means, profile_id, job.now)
        lease = _leasing(means, profile_id, idle_before, job)

    def more(n: int) -> list[Leased]:
        if job.stopped.is_set() or job.should_stop():
            return []
        return job.take(lease, n)

    return more


def _reading(
    means: Means, profile_id: str, idle_before: datetime, job: Job
) -> Callable[[int], list[Leased]]:
    """A dry run's `lease(n)`: the next n due sessions, read and not leased."""
    with means.store.read(profile_id) as reader:
        due = reader.due_sessions(idle_before=idle_before, now=job.now, limit=10_000)

    def lease(n: int) -> list[Leased]:
        taken, due[:n] = due[:n], []
        with means.store.read(profile_id) as reader:
            return [(s, reader.session_messages(s.id)) for s in taken]

    return lease


def _leasing(
    means: Means, profile_id: str, idle_before: datetime, job: Job
) -> Callable[[int], list[Leased]]:
    """`lease(n)`: up to n due sessions leased to the run, held in `job.held`."""

    def lease(n: int) -> list[Leased]:
        with means.store.write(profile_id) as tx:
            leased = tx.lease_sessions(
                idle_before=idle_before,
                now=job.now,
                owner=job.worker,
                until=_lease_end(means, job),
                limit=n,
            )
            with_messages = [(s, tx.session_messages(s.id)) for s in leased]
        job.held.update((session.id, profile_id) for session in leased)  # under job.leasing
        return with_messages

    return lease


def renew_if_waited(means: Means, profile_id: str, session: Session, job: Job) -> None:
    """Hold the session a full lease from now when it waited for a free call slot long
    enough to need one, so a slow model never outlives its lease."""
    held = session.lease_until
    if held is not None and _lease_end(means, job) - held <= _FRESH_LEASE:
        return
    with means.store.write(profile_id) as tx:
        renewed = tx.renew_lease(session.id, job.worker, until=_lease_end(means, job))
    if not renewed:
        raise ConflictStateError(
            f"Session {session.key!r} is not leased by this worker any more; another "
            "worker has taken it."
        )


def give_back_failed(means: Means, profile_id: str, session: Session, job: Job) -> None:
    """Give back a session that failed, to be tried again after a wait that grows with
    each failure."""
    retry_at = job.now + _retry_delay(session.attempts)
    with means.store.write(profile_id) as tx:
        tx.release_session(session.id, job.worker, retry_at=retry_at)


def give_back(means: Means, job: Job) -> None:
    """Release every lease the run still holds (it stopped early); no lease is taken
    after it starts (`job.stopped` is set, and `take` checks it under the same lock).
    Best effort, since a lease left behind is taken back by the next run on this host,
    or expires after lease_minutes."""
    with job.leasing:
        for session_id, profile_id in list(job.held.items()):
            with suppress(Exception), means.store.write(profile_id) as tx:
                tx.release_session(session_id, job.worker, retry_at=None)
            job.held.pop(session_id, None)


def held_elsewhere(means: Means, profile_id: str, idle_before: datetime, job: Job) -> Run:
    """How many of the profile's due sessions another worker holds, and until when."""
    with means.store.read(profile_id) as reader:
        held = [
            s
            for s in reader.held_sessions(idle_before=idle_before, now=job.now)
            if s.lease_owner != job.worker
        ]
    part = Run(sessions_held=len(held))
    if held:
        part.held_until = max(s.lease_until for s in held if s.lease_until is not None)
    return part
