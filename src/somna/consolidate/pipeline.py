"""The nightly job (DESIGN section 4): closed sessions in, quoted and reconciled facts out.

For each profile: lease the sessions quiet for `idle_hours`; for each session,
one structured call (summary + candidate facts), quote verification, one
batched judge call at most for the neighbors, then ONE write transaction with
the facts, evidence, events, summary, session status and archived messages
(invariant 6). Then the profile's hygiene: archive purge, expiry, forgetting
curve, day digest, portrait. Model calls and embeddings never happen inside a
transaction. Extractions of later sessions, and other profiles, run while a
profile's sessions are reconciled in order, so many calls are in flight and the
result is that of a run one session at a time. Any model failure, or a store error,
fails its session alone, which is given back with a growing wait before its next try.
"""

from __future__ import annotations

import os
import socket
import threading
import time as clock
import uuid
from collections import deque
from collections.abc import Callable
from concurrent.futures import FIRST_EXCEPTION, Future, wait
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from functools import partial
from typing import Any, TypeVar

import numpy as np
from pydantic import ValidationError

from somna.config import Settings
from somna.consolidate.calls import URGENT, CallPool
from somna.consolidate.evidence import locate_quote
from somna.consolidate.grounding import check_summary
from somna.consolidate.hygiene import (
    decayed,
    digest_text,
    expiring_after,
    is_past_ttl,
    portrait_text,
)
from somna.consolidate.recheck import recheck
from somna.consolidate.restoring import restore_said_again
from somna.consolidate.staging import StagedWrite
from somna.consolidate.transcript import spoken
from somna.consolidate.wording import (
    ONE_OFF,
    changed_values,
    diet_clashes,
    same_wording,
    updated_numbers,
)
from somna.embed import Embedder
from somna.errors import ConflictStateError, LLMError, ProfileNotFoundError, SomnaError
from somna.llm import LLM
from somna.llm.base import LLMCallError
from somna.llm.tasks import (
    EXTRACT,
    JUDGE,
    CandidateFact,
    JudgePair,
    JudgeRequest,
    SessionDigest,
    SessionTranscript,
    TranscriptMessage,
)
from somna.model import (
    ACTIVE_STATUSES,
    Evidence,
    Fact,
    FactStatus,
    Message,
    Profile,
    Run,
    RunStatus,
    Session,
    Summary,
    SummaryKind,
    Verdict,
    Wording,
    lifecycle,
    utc,
)
from somna.model.lifecycle import Change
from somna.store import Eligibility, FactFilter, Reader, Store
from somna.tuning import for_profile

__all__ = ["Consolidator", "worker_name"]

ACTOR = "consolidation"
_NEIGHBORS = 1  # the closest neighbor of the same subject is the one worth judging
_VERDICT_ORDER = (Verdict.DUPLICATE, Verdict.SUPERSEDES, Verdict.CONTRADICTS)
_POLL_S = 0.5  # how often a wait for a model call looks at its deadline and at stop requests
_RUNS_CHECKED = 100  # how many recent runs a new run looks through for dead ones
_WIND_DOWN_S = 1.0
"""How long a stopped run waits for its threads to finish a model call: no longer, as its
reply is never read."""
_EMBED_GRACE_S = 30.0
"""How much longer it waits for the embeddings in progress (the drained queue leaves one
per thread), which must end before the process does."""
_AHEAD = 3
"""Sessions a profile holds at least (never more than the run's concurrency), leased and
extracted ahead of its writes: the one being judged, the next, and one to spare. More than
its share of the call slots (the concurrency over the profiles run side by side) would only
keep other profiles waiting: measured with 16 profiles and 32 slots, 3 ahead gave 13.4
sessions/s, 32 ahead 9.6."""
_FRESH_LEASE = timedelta(minutes=1)
"""A lease taken less than this long ago is a full lease still: the extraction does not
renew it (one write less per session, and the write checks the lease anyway)."""
_RETRY_NEXT_RUN = timedelta(seconds=1)
_RETRY_FIRST = timedelta(minutes=5)
_RETRY_MAX = timedelta(hours=24)
"""A session that failed once is retried by the next run (never by the same one); after
that it waits 5 minutes, then twice as long after each failure, up to a day, so one bad
session is not the first one every run picks."""


def _retry_delay(failures_before: int) -> timedelta:
    if failures_before == 0:
        return _RETRY_NEXT_RUN
    delay: timedelta = _RETRY_FIRST * (2 ** (failures_before - 1))
    return min(delay, _RETRY_MAX)


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


def worker_name() -> str:
    """Who holds a lease: host, process and a random part, so two workers never collide."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


@dataclass
class _Candidate:
    """A fact the model proposed that passed verification, with its evidence."""

    fact: Fact
    evidence: list[Evidence]
    vector: np.ndarray
    neighbors: list[Fact] = field(default_factory=list)
    verdicts: dict[str, Verdict] = field(default_factory=dict)
    rule: str | None = None
    """The extraction rule that proposed it, kept in its `created` event."""


@dataclass
class _Plan:
    """Everything one session will write, decided before its transaction opens."""

    session: Session
    summary: str
    candidates: list[_Candidate]
    through_seq: int = -1
    """The last message read: only messages up to it are archived."""
    summary_vector: np.ndarray | None = None


@dataclass
class _Read:
    """A session's messages as read, what of them was said, and the extraction's reply."""

    messages: list[Message]
    said: list[Message]
    digest: SessionDigest | None


class _Deadline:
    """A session's time budget for its model calls: the time they run, not the time they wait
    for a free slot or for the profile's earlier sessions."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._spent = 0.0
        self._began: float | None = None
        self._lock = threading.Lock()

    def timed(self, call: Callable[[], Any]) -> Any:
        """Run one model call of the session on the budget."""
        with self._lock:
            self._began = clock.monotonic()
        try:
            return call()
        finally:
            with self._lock:
                if self._began is not None:
                    self._spent += clock.monotonic() - self._began
                self._began = None

    def left(self) -> float | None:
        """Seconds left while a call runs; None while none does (nothing to time out)."""
        with self._lock:
            if self._began is None:
                return None
            return self.seconds - self._spent - (clock.monotonic() - self._began)


@dataclass
class _Pending:
    """A session leased, its extraction submitted, and its own account of the run."""

    session: Session
    deadline: _Deadline
    messages: list[Message]
    """Read with the lease, so that the call threads never wait for the store."""
    run: Run = field(default_factory=Run)
    future: Future[_Plan] = field(default_factory=Future)


_Leased = TypeVar("_Leased")


@dataclass
class _Job:
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
    planned: list[_Plan] = field(default_factory=list)
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


class _Stopped(Exception):
    """The run is stopping (another profile failed, or a signal): leave this profile."""


class Consolidator:
    """Runs consolidation over one store; `Memory.consolidate` is the way in."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        llm: LLM,
        settings: Settings,
        clock: Callable[[], datetime],
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.llm = llm
        self.settings = settings
        self.clock = clock

    def run(
        self,
        profile: str | None = None,
        *,
        now: datetime | None = None,
        idle_hours: float | None = None,
        limit: int | None = None,
        dry_run: bool = False,
        owner: str | None = None,
        progress: Callable[[Session], None] | None = None,
        hygiene: bool = True,
        concurrency: int | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> Run:
        """Consolidate the due sessions of one profile, or of all; returns the run's account.

        Up to `concurrency` model calls run at once (extractions of different
        sessions, and different profiles side by side), while each profile's
        sessions are reconciled and written one after the other in conversation
        order, so the facts are those of a run one session at a time. Without
        `hygiene` (a worker polling often), a profile's hygiene runs only when
        one of its sessions was consolidated, and a run that found nothing to do
        is not recorded. `should_stop` is asked before each session is taken.
        On any exception (Ctrl-C included) the sessions still held are given
        back before it propagates, and the run is recorded as interrupted or
        failed.
        """
        at = utc(now) if now is not None else utc(self.clock())
        idle = idle_hours  # None: each profile's own idle_hours
        worker = owner or worker_name()
        run = Run(profile_id=profile, started_at=utc(self.clock()), dry_run=dry_run, owner=worker)
        profiles = [profile] if profile else [p.id for p in self.store.list_profiles()]
        record = not dry_run and hygiene
        if record:
            self._abandon_dead_runs()
            self.store.save_run(run)
        width = concurrency or self.settings.consolidation_concurrency
        calls = CallPool(width)
        runners = CallPool(max(1, min(width, len(profiles))))
        job = _Job(
            run=run,
            now=at,
            idle_hours=idle,
            dry_run=dry_run,
            worker=worker,
            hygiene=hygiene,
            calls=calls,
            ahead=min(width, max(_AHEAD, -(-width // runners.size))),
            progress=progress,
            budget=limit,
            should_stop=should_stop or (lambda: False),
        )
        try:
            self._wait_all([runners.submit(partial(self._profile_alone, p, job)) for p in profiles])
            partial_run = run.sessions_failed or job.erased or run.failures
            run.status = RunStatus.PARTIAL if partial_run else RunStatus.SUCCEEDED
        except KeyboardInterrupt:
            run.status = RunStatus.INTERRUPTED
            raise
        except BaseException:
            run.status = RunStatus.FAILED
            raise
        finally:
            job.stopped.set()
            calls.close()
            runners.close()
            self._give_back(job)
            # A thread still embedding when the interpreter exits aborts the process.
            ends = clock.monotonic() + _WIND_DOWN_S
            runners.join(ends, ends + _EMBED_GRACE_S)
            calls.join(ends, ends + _EMBED_GRACE_S)
            run.finished_at = utc(self.clock())
            if record or (not dry_run and run.sessions_seen):
                self.store.save_run(run)
        return run

    def _wait_all(self, futures: list[Future[None]]) -> None:
        """Wait for the profiles; on the first failure, stop the others and raise it."""
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=_POLL_S, return_when=FIRST_EXCEPTION)
            for future in done:
                if future.exception() is not None:
                    raise future.exception()  # type: ignore[misc]

    def _give_back(self, job: _Job) -> None:
        """Release every lease the run still holds (it stopped early); no lease is taken
        after it starts (`job.stopped` is set, and `take` checks it under the same lock).
        Best effort, since a lease left behind is taken back by the next run on this host,
        or expires after lease_minutes."""
        with job.leasing:
            for session_id, profile_id in list(job.held.items()):
                with suppress(Exception), self.store.write(profile_id) as tx:
                    tx.release_session(session_id, job.worker, retry_at=None)
                job.held.pop(session_id, None)

    def _abandon_dead_runs(self) -> None:
        """Mark `running` runs whose process on this host is gone (killed) as abandoned."""
        for past in self.store.list_runs(_RUNS_CHECKED):
            if past.status is RunStatus.RUNNING and past.owner and _process_gone(past.owner):
                past.status = RunStatus.ABANDONED
                past.finished_at = utc(self.clock())
                self.store.save_run(past)

    # -- one profile ------------------------------------------------------------------

    def _profile_alone(self, profile_id: str, job: _Job) -> None:
        """One profile's part; its failure, whatever it is, is recorded and the others go on."""
        try:
            self._run_unless_erased(profile_id, job)
        except _Stopped:
            raise
        except Exception as exc:  # an old database's bad setting, a bug: this profile alone
            said = str(exc) if isinstance(exc, SomnaError) else f"{type(exc).__name__}: {exc}"
            job.merge(Run(failures=[{"profile": profile_id, "error": said}]))

    def _run_unless_erased(self, profile_id: str, job: _Job) -> None:
        """`_run_profile`; a profile erased meanwhile ends its part, not the run."""
        try:
            self._run_profile(profile_id, job)
        except ProfileNotFoundError:
            if self.store.get_profile(profile_id) is not None:
                raise
            job.erased.add(profile_id)

    def _run_profile(self, profile_id: str, job: _Job) -> None:
        """Extract up to `job.ahead` sessions ahead; reconcile and write them in order."""
        profile = self.store.get_profile(profile_id)
        if profile is None:
            raise ProfileNotFoundError(profile_id)
        idle = for_profile(self.settings, profile).idle_hours
        idle_before = job.now - timedelta(hours=idle if job.idle_hours is None else job.idle_hours)
        more = self._leases(profile_id, idle_before, job)
        window: deque[_Pending] = deque()
        touched_days: set[str] = set()
        place = 0  # the session's place in this profile's order: earlier ones are read first
        left = True  # whether the last lease got all it asked for
        try:
            while True:
                room = job.ahead - len(window)
                if left and room > 0:
                    leased = more(room)
                    left = len(leased) == room
                    for session, messages in leased:
                        deadline = _Deadline(self.settings.session_deadline_s)
                        item = _Pending(session, deadline, messages)
                        read = partial(self._read, profile, item, job)
                        prepare = partial(self._prepare, profile, item, job)
                        item.future = job.calls.submit(read, rank=place, then=prepare)
                        place += 1
                        window.append(item)
                if not window:
                    break
                item = window.popleft()
                if self._settle(profile, item, job):
                    touched_days.add(item.session.started_at.date().isoformat())
        finally:
            for item in window:
                item.future.cancel()
        if job.stopped.is_set():
            return  # the run is stopping: the next one does the hygiene
        if job.dry_run:
            if job.hygiene or touched_days:
                job.merge(Run(facts_expired=self._dry_expired(profile, job)))
            return
        with self.store.read(profile_id) as reader:
            held = [
                s
                for s in reader.held_sessions(idle_before=idle_before, now=job.now)
                if s.lease_owner != job.worker
            ]
        part = Run(sessions_held=len(held))
        if held:
            part.held_until = max(s.lease_until for s in held if s.lease_until is not None)
        if job.hygiene or touched_days:
            recheck(
                self.store,
                self.embedder,
                lambda request: self._call(part, lambda: self.llm.structured(JUDGE, request)),
                profile_id,
                floor=for_profile(self.settings, profile).judge_floor,
                now=job.now,
                actor=ACTOR,
                run=part,
            )
            self._hygiene(profile, part, job.now, touched_days)
        job.merge(part)

    def _leases(
        self, profile_id: str, idle_before: datetime, job: _Job
    ) -> Callable[[int], list[tuple[Session, list[Message]]]]:
        """`more(n)`: up to n more of the profile's due sessions in conversation order, each
        with its messages, leased in one transaction (a dry run only reads them); none past
        the run's limit or once a stop is requested."""
        due: list[Session] = []
        if job.dry_run:
            with self.store.read(profile_id) as reader:
                due = reader.due_sessions(idle_before=idle_before, now=job.now, limit=10_000)
        else:
            self._take_back_dead_leases(profile_id, job.now)

        def lease(n: int) -> list[tuple[Session, list[Message]]]:
            if job.dry_run:
                taken, due[:n] = due[:n], []
                with self.store.read(profile_id) as reader:
                    return [(s, reader.session_messages(s.id)) for s in taken]
            with self.store.write(profile_id) as tx:
                leased = tx.lease_sessions(
                    idle_before=idle_before,
                    now=job.now,
                    owner=job.worker,
                    until=self._lease_end(job),
                    limit=n,
                )
                with_messages = [(s, tx.session_messages(s.id)) for s in leased]
            job.held.update((session.id, profile_id) for session in leased)  # under job.leasing
            return with_messages

        def more(n: int) -> list[tuple[Session, list[Message]]]:
            if job.stopped.is_set() or job.should_stop():
                return []
            return job.take(lease, n)

        return more

    def _take_back_dead_leases(self, profile_id: str, now: datetime) -> None:
        """Give back at once the profile's sessions leased by a worker of this host whose
        process is gone (killed), instead of waiting for their leases to end."""
        with self.store.read(profile_id) as reader:
            dead = [owner for owner in reader.lease_owners(now=now) if _process_gone(owner)]
        if dead:
            with self.store.write(profile_id) as tx:
                for owner in dead:
                    tx.release_leases(owner)

    def _settle(self, profile: Profile, item: _Pending, job: _Job) -> bool:
        """Finish one session: plan, then write (or count, in a dry run); a failure fails this
        session alone, which is given back to be retried later. True when consolidated."""
        session, run, done = item.session, item.run, False
        run.sessions_seen += 1
        try:
            plan = self._await(item.future, item.deadline, job)
            if plan.candidates:  # against the facts the profile's earlier sessions wrote
                self._judge(profile, plan.candidates, run, job, item.deadline)
            if job.dry_run:
                self._count_dry(plan, run, job.planned)
                job.planned.append(plan)
            else:  # the write checks that the session is still ours
                self._write(profile, plan, run, job.now, job.worker)
            run.sessions_consolidated += 1
            done = True
        except SomnaError as exc:
            run.sessions_failed += 1
            run.failures.append({"session": session.id, "key": session.key, "error": str(exc)})
            if not job.dry_run:
                retry_at = job.now + _retry_delay(session.attempts)
                with self.store.write(profile.id) as tx:
                    tx.release_session(session.id, job.worker, retry_at=retry_at)
        finally:
            job.merge(run)
        job.held.pop(session.id, None)
        if job.progress is not None:
            job.progress(session)
        return done

    def _renew(self, profile_id: str, session: Session, job: _Job) -> None:
        """Hold the session a full lease from now, so a slow model never outlives its lease."""
        with self.store.write(profile_id) as tx:
            held = tx.renew_lease(session.id, job.worker, until=self._lease_end(job))
        if not held:
            raise ConflictStateError(
                f"Session {session.key!r} is not leased by this worker any more; another "
                "worker has taken it."
            )

    def _waited(self, session: Session, job: _Job) -> bool:
        """Whether the session waited for a free call slot long enough to need a new lease."""
        held = session.lease_until
        return held is None or self._lease_end(job) - held > _FRESH_LEASE

    def _lease_end(self, job: _Job) -> datetime:
        """A full lease from now (or from the run's own `now`, when that is later)."""
        return max(job.now, utc(self.clock())) + timedelta(minutes=self.settings.lease_minutes)

    def _await(self, pending: Future[Any], deadline: _Deadline, job: _Job) -> Any:
        """The call's result, or a failure of the session once its deadline has passed."""
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
                raise _Stopped

    # -- reading a session: model calls, outside any transaction -----------------------

    def _read(self, profile: Profile, item: _Pending, job: _Job) -> _Read:
        """Read the session and make its one extraction call (on a call thread)."""
        session = item.session
        if not job.dry_run and self._waited(session, job):  # a full lease from now
            self._renew(profile.id, session, job)
        messages = item.messages
        said = spoken(messages)  # tool traffic stays in the session, never becomes facts
        if not said:
            return _Read(messages, said, None)
        transcript = _transcript(profile, session, said)
        digest = item.deadline.timed(
            lambda: self._call(item.run, lambda: self.llm.structured(EXTRACT, transcript))
        )
        return _Read(messages, said, digest)

    def _prepare(self, profile: Profile, item: _Pending, job: _Job, read: _Read) -> _Plan:
        """Verify and embed what the extraction proposed, as soon as it is back (before any
        transaction). None of it depends on the profile's earlier sessions, so it runs ahead
        of them; only the judge and the write wait their turn."""
        session, run = item.session, item.run
        through = max((m.seq for m in read.messages), default=-1)
        if read.digest is None:
            return _Plan(session, "", [], through)
        digest = read.digest
        check_summary(digest.summary, read.said, profile)
        for rejected in digest.rejected:  # facts the reply held that did not fit the shape
            self._reject(run, session, rejected.text, rejected.reason)
        candidates = self._verify(profile.id, session, read.said, digest.facts, run, job.now)
        summary = digest.summary.strip()
        texts = [c.fact.text for c in candidates] + ([summary] if summary else [])
        vectors: list[np.ndarray] = list(self.embedder.embed(texts)) if texts else []
        for candidate, vector in zip(candidates, vectors, strict=False):
            candidate.vector = vector
        plan = _Plan(session, summary, candidates, through)
        if summary:
            plan.summary_vector = vectors[-1]
        return plan

    def _call(self, run: Run, call: Callable[[], Any]) -> Any:
        """One model call, counted; any failure of the model becomes an `LLMError`, which
        fails the session alone."""
        try:
            reply = call()
        except LLMCallError as exc:
            run.llm_calls += exc.calls
            run.prompt_tokens += exc.prompt_tokens
            run.completion_tokens += exc.completion_tokens
            raise
        except SomnaError:
            raise
        except Exception as exc:
            run.llm_calls += 1
            raise LLMError(f"The model failed: {type(exc).__name__}: {exc}") from exc
        run.llm_calls += reply.calls
        run.prompt_tokens += reply.prompt_tokens
        run.completion_tokens += reply.completion_tokens
        return reply.value

    def _verify(
        self,
        profile_id: str,
        session: Session,
        messages: list[Message],
        proposed: list[CandidateFact],
        run: Run,
        now: datetime,
    ) -> list[_Candidate]:
        """Keep candidates whose quote is verbatim in the session (invariant 5); count the rest."""
        kept: dict[Wording, _Candidate] = {}
        for candidate in proposed:
            message = locate_quote(candidate.quote, messages, candidate.message_index)
            if message is None:
                self._reject(run, session, candidate.text, "its quote is not in the conversation")
                continue
            try:
                fact = Fact(
                    profile_id=profile_id,
                    type=candidate.type,
                    category=candidate.category or None,
                    subject=candidate.subject.strip() or "user",
                    text=candidate.text,
                    confidence=candidate.confidence,
                    valid_from=_day(candidate.valid_from) or message.created_at,
                    recorded_at=now,
                    first_observed_at=message.created_at,
                    judged_at=now,  # against its neighbors, before it is written
                )
            except ValidationError as exc:
                reason = str(exc.errors()[0].get("ctx", {}).get("error") or exc.errors()[0]["msg"])
                self._reject(run, session, candidate.text, reason)
                continue
            evidence = Evidence(
                fact_id=fact.id,
                session_id=session.id,
                message_id=message.id,
                quote=candidate.quote.strip(),
                observed_at=message.created_at,
            )
            key = fact.wording
            if key in kept:  # said twice in one session: one fact, both quotes
                kept[key].evidence.append(
                    evidence.model_copy(update={"fact_id": kept[key].fact.id})
                )
            else:
                kept[key] = _Candidate(
                    fact, [evidence], np.zeros(0, dtype=np.float32), rule=candidate.rule
                )
        return list(kept.values())

    @staticmethod
    def _reject(run: Run, session: Session, text: str, reason: str) -> None:
        run.facts_rejected += 1
        run.rejections.append({"session": session.id, "text": text, "reason": reason})

    def _judge(
        self,
        profile: Profile,
        candidates: list[_Candidate],
        run: Run,
        job: _Job,
        deadline: _Deadline,
    ) -> None:
        """Find each candidate's closest neighbor of its subject; judge all pairs in one call."""
        now = job.now
        floor = for_profile(self.settings, profile).judge_floor
        near: dict[int, list[str]] = {}  # by candidate, in the order of their scores
        with self.store.read(profile.id) as tx:
            worded = tx.worded_like(c.fact.wording for c in candidates)
            known = {f.wording for f in worded if f.is_active}
            for i, candidate in enumerate(candidates):
                if candidate.fact.wording in known:
                    continue  # the same fact is known: it will be reinforced, nothing to judge
                near[i] = [
                    fact_id
                    for fact_id, score in tx.vector_search(
                        candidate.vector, Eligibility(at=now, now=now), 4 * _NEIGHBORS
                    )
                    if score >= floor
                ]
            every = dict.fromkeys(fact_id for ids in near.values() for fact_id in ids)
            found = {f.id: f for f in tx.get_facts(list(every))}
            reframed = {
                i: changed_values(tx, candidates[i].fact, Eligibility(at=now, now=now))
                for i in near
            }
            recounted = {
                i: updated_numbers(tx, candidates[i].fact, Eligibility(at=now, now=now))
                for i in near
            }
            clashing = {
                i: diet_clashes(tx, candidates[i].fact, Eligibility(at=now, now=now)) for i in near
            }
        for i, ids in near.items():
            subject = candidates[i].fact.subject.casefold()
            same_subject = [
                found[n] for n in ids if n in found and found[n].subject.casefold() == subject
            ]
            close = same_subject[:_NEIGHBORS]
            found_by_words = reframed[i] + recounted[i] + clashing[i]
            others = [f for f in found_by_words if f.id not in {c.id for c in close}]
            candidates[i].neighbors = close + list({f.id: f for f in others}.values())
        pairs: list[tuple[_Candidate, Fact]] = []
        for i, candidate in enumerate(candidates):
            updated = {f.id for f in recounted.get(i, [])}
            clashes = {f.id for f in clashing.get(i, [])}
            for neighbor in candidate.neighbors:
                # The cheap pass first: the same words in another order need no model, nor
                # a dated statement that gives a count anew and says it changed, nor a
                # plan that breaks a stated diet.
                if same_wording(candidate.fact.text, neighbor.text):
                    candidate.verdicts[neighbor.id] = Verdict.DUPLICATE
                elif neighbor.id in updated:
                    candidate.verdicts[neighbor.id] = Verdict.SUPERSEDES
                elif neighbor.id in clashes:
                    candidate.verdicts[neighbor.id] = Verdict.CONTRADICTS
                elif candidate.fact.category not in ONE_OFF:
                    pairs.append((candidate, neighbor))
        if not pairs:
            return
        request = JudgeRequest(
            pairs=[
                JudgePair(
                    pair_id=i,
                    new=c.fact.text,
                    existing=n.text,
                    existing_since=n.valid_from.date().isoformat(),
                )
                for i, (c, n) in enumerate(pairs)
            ]
        )
        ask = partial(
            deadline.timed, lambda: self._call(run, lambda: self.llm.structured(JUDGE, request))
        )
        judged = self._await(job.calls.submit(ask, URGENT), deadline, job)
        for verdict in judged.verdicts:
            if 0 <= verdict.pair_id < len(pairs):
                candidate, neighbor = pairs[verdict.pair_id]
                candidate.verdicts[neighbor.id] = Verdict(verdict.verdict)

    # -- writing a session: one transaction ---------------------------------------------

    def _write(self, profile: Profile, plan: _Plan, run: Run, now: datetime, worker: str) -> None:
        counts = {"added": 0, "reinforced": 0, "superseded": 0, "disputed": 0}
        profile_id = profile.id
        purge_after = now + timedelta(days=for_profile(self.settings, profile).archive_days)
        with self.store.write(profile_id) as tx:
            staged = StagedWrite(
                tx,
                (c.fact.wording for c in plan.candidates),
                (fact_id for c in plan.candidates for fact_id in c.verdicts),
            )
            fact_ids = [self._reconcile(staged, c, now, counts) for c in plan.candidates]
            tx.apply(staged.change)
            if plan.summary:
                session = plan.session
                summary = Summary(
                    profile_id=profile_id,
                    kind=SummaryKind.SESSION,
                    text=plan.summary,
                    period_start=session.started_at,
                    period_end=session.last_message_at,
                    session_id=session.id,
                    sources=fact_ids,
                    created_at=now,
                )
                vector = plan.summary_vector
                tx.add_summary(summary, None if vector is None else vector.tolist())
            archived = tx.finish_session(
                plan.session.id,
                worker,
                at=now,
                purge_after=purge_after,
                through_seq=plan.through_seq,
            )
        run.facts_added += counts["added"]
        run.facts_reinforced += counts["reinforced"]
        run.facts_superseded += counts["superseded"]
        run.facts_disputed += counts["disputed"]
        run.messages_archived += archived

    def _reconcile(
        self, tx: StagedWrite, candidate: _Candidate, now: datetime, counts: dict[str, int]
    ) -> str:
        """Stage one candidate against the facts as the ones before it left them; returns
        the fact it became."""
        fact = candidate.fact
        known = tx.find_active(fact.type, fact.subject, fact.text_hash)
        if known is not None:
            tx.stage(lifecycle.reinforce(known, at=now, actor=ACTOR, evidence=candidate.evidence))
            counts["reinforced"] += 1
            return known.id
        verdict, neighbor = self._verdict(tx, candidate)
        if verdict is Verdict.DUPLICATE and neighbor is not None:
            tx.stage(
                lifecycle.reinforce(neighbor, at=now, actor=ACTOR, evidence=candidate.evidence)
            )
            counts["reinforced"] += 1
            return neighbor.id
        change = restore_said_again(tx, fact, candidate.evidence, at=now, actor=ACTOR)
        restored = change is not None
        if change is None:
            change = lifecycle.create(
                fact,
                vector=candidate.vector.tolist(),
                actor=ACTOR,
                evidence=candidate.evidence,
                note={"rule": candidate.rule} if candidate.rule else None,
            )
        else:  # said again after it was let go: the old fact comes back (counted reinforced)
            change.facts[0] = change.facts[0].model_copy(update={"judged_at": now})
            # It replaces a neighbor from the moment it was said again, under its old id.
            fact = fact.model_copy(update={"id": change.facts[0].id})
        if verdict is Verdict.SUPERSEDES and neighbor is not None:
            change = change.merge(lifecycle.supersede(neighbor, fact, at=now, actor=ACTOR))
            counts["superseded"] += 1
        elif verdict is Verdict.CONTRADICTS and neighbor is not None:
            change = change.merge(
                lifecycle.dispute(change.fact(fact.id), neighbor, at=now, actor=ACTOR)
            )
            counts["disputed"] += 2 if neighbor.status is not FactStatus.DISPUTED else 1
        tx.stage(change)
        counts["reinforced" if restored else "added"] += 1
        return fact.id

    @staticmethod
    def _verdict(tx: StagedWrite, candidate: _Candidate) -> tuple[Verdict, Fact | None]:
        """The strongest verdict on a neighbor that is still active now (or disputed)."""
        for wanted in _VERDICT_ORDER:
            for neighbor_id, verdict in candidate.verdicts.items():
                if verdict is not wanted:
                    continue
                neighbor = tx.get_fact(neighbor_id)
                allowed = ACTIVE_STATUSES | (
                    {FactStatus.DISPUTED} if wanted is Verdict.CONTRADICTS else set()
                )
                if neighbor is not None and neighbor.status in allowed:
                    return verdict, neighbor
        return Verdict.DISTINCT, None

    @staticmethod
    def _count_dry(plan: _Plan, run: Run, earlier: list[_Plan]) -> None:
        """Count as the real run would: a text an earlier session of the run already said
        is reinforced then, not added twice."""
        said = {
            c.fact.wording
            for p in earlier
            if p.session.profile_id == plan.session.profile_id
            for c in p.candidates
        }
        for candidate in plan.candidates:
            verdicts = set(candidate.verdicts.values())
            if Verdict.DUPLICATE in verdicts or candidate.fact.wording in said:
                run.facts_reinforced += 1
            else:
                run.facts_added += 1
                run.facts_superseded += Verdict.SUPERSEDES in verdicts
                run.facts_disputed += Verdict.CONTRADICTS in verdicts

    # -- hygiene ------------------------------------------------------------------------

    def _dry_expired(self, profile: Profile, job: _Job) -> int:
        """What `_hygiene` would expire after this dry run's plans were written."""
        planned = [
            (c.fact, c.verdicts)
            for plan in job.planned
            if plan.session.profile_id == profile.id
            for c in plan.candidates
        ]
        with self.store.read(profile.id) as reader:
            active = reader.list_facts(FactFilter(limit=10_000), job.now)
        ttl_days = for_profile(self.settings, profile).ttl_days
        return expiring_after(active, planned, ttl_days, job.now)

    def _hygiene(self, profile: Profile, run: Run, now: datetime, days: set[str]) -> None:
        settings = for_profile(self.settings, profile)
        # The new digests and portrait are embedded before the write scope opens.
        with self.store.read(profile.id) as reader:
            active = reader.list_facts(FactFilter(limit=10_000), now)
            alive = [f for f in active if not is_past_ttl(f, settings.ttl_days, now)]
            drafted = self._summaries_due(reader, profile.id, alive, days, now)
        texts = [s.text for s in drafted]
        vectors = dict(zip(texts, self.embedder.embed(texts), strict=True)) if texts else {}
        with self.store.write(profile.id) as tx:
            run.messages_purged += tx.purge_archive(now)
            active = tx.list_facts(FactFilter(limit=10_000), now)
            change = Change()
            for fact in active:
                reason = is_past_ttl(fact, settings.ttl_days, now)
                if reason:
                    change = change.merge(
                        lifecycle.expire(fact, at=now, actor=ACTOR, reason=reason)
                    )
            if change.facts:
                tx.apply(change)
                run.facts_expired += len(change.facts)
            expired = {f.id for f in change.facts}
            alive = [f for f in active if f.id not in expired]
            tx.record_usage(decayed(alive, now, settings.stability_days))
            for summary in self._summaries_due(tx, profile.id, alive, days, now):
                vector = vectors.get(summary.text)
                if vector is not None:  # a text that changed meanwhile waits for the next run
                    tx.add_summary(summary, vector.tolist())

    def _summaries_due(
        self, tx: Reader, profile_id: str, alive: list[Fact], days: set[str], now: datetime
    ) -> list[Summary]:
        """The day digests of `days` and a new portrait when the facts changed it."""
        summaries = self._digests(tx, profile_id, days, now)
        portrait = portrait_text(alive)
        latest = tx.summaries(SummaryKind.PORTRAIT, limit=1)
        if portrait and (not latest or latest[0].text != portrait):
            summaries.append(
                Summary(
                    profile_id=profile_id,
                    kind=SummaryKind.PORTRAIT,
                    text=portrait,
                    period_end=now,
                    sources=[f.id for f in alive][:50],
                    created_at=now,
                )
            )
        return summaries

    @staticmethod
    def _digests(tx: Reader, profile_id: str, days: set[str], now: datetime) -> list[Summary]:
        digests = []
        for day in sorted(days):
            start = datetime.combine(datetime.fromisoformat(day).date(), time(), tzinfo=UTC)
            end = start + timedelta(days=1)
            of_day = [
                s
                for s in tx.summaries(SummaryKind.SESSION, limit=1_000, since=start)
                if s.period_start is not None and start <= s.period_start < end
            ]
            if len(of_day) > 1:  # a day of one conversation is already summarised by it
                digests.append(
                    Summary(
                        profile_id=profile_id,
                        kind=SummaryKind.DAY,
                        text=digest_text(day, of_day),
                        period_start=start,
                        period_end=end,
                        sources=[s.id for s in of_day],
                        created_at=now,
                    )
                )
        return digests


def _day(value: str | None) -> datetime | None:
    if value is None:
        return None
    return datetime.combine(datetime.fromisoformat(value).date(), time(), tzinfo=UTC)


def _transcript(profile: Profile, session: Session, messages: list[Message]) -> SessionTranscript:
    return SessionTranscript(
        session_key=session.key,
        date=session.started_at.date().isoformat(),
        user=str(profile.settings.get("user_name") or "user"),
        messages=[
            TranscriptMessage(
                index=m.seq,
                role=m.role,
                speaker=m.meta.get("speaker"),
                content=m.content,
                at=m.created_at.isoformat(),
            )
            for m in messages
        ],
    )
