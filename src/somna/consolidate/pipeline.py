"""The nightly job (DESIGN section 4): closed sessions in, quoted and reconciled facts out.

For each profile, the stages in order, each in a module of its own:

1. take a lease on the sessions quiet for `idle_hours` (`leasing`);
2. read each one: what was said, as the model reads it (`transcript`);
3. extract: one structured call, summary and candidate facts (`extraction`, `calls`);
4. ground: quotes verbatim in the session, a summary about it (`grounding`, `evidence`);
5. judge each candidate against its neighbors, in one batched call at most (`judging`);
6. stage the session's changes over the facts as they stand (`staging`);
7. write and archive in ONE transaction (invariant 6): facts, evidence, events,
   summary, session status and archived messages (`writing`);
8. hygiene: the re-check of unjudged facts, archive purge, expiry, forgetting curve,
   day digest, portrait (`hygiene`, `recheck`).

What the run's threads share, its counts and how it stops are in `job`. Model calls and
embeddings never happen inside a transaction. Extractions of later sessions, and other
profiles, run while a profile's sessions are judged and written in order, so many calls
are in flight and the result is that of a run one session at a time. Any model failure,
or a store error, fails its session alone, which is given back with a growing wait
before its next try; a profile that fails as a whole is recorded and the others go on.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Unpack

from somna.config import Settings
from somna.consolidate.calls import CallPool, Deadline
from somna.consolidate.extraction import start
from somna.consolidate.hygiene import dry_expired, tidy
from somna.consolidate.job import (
    Job,
    Means,
    Pending,
    Stopped,
    await_call,
    join,
    stop,
    uninterrupted,
    wait_all,
)
from somna.consolidate.judging import judge
from somna.consolidate.leasing import (
    Leased,
    abandon_dead_runs,
    give_back,
    give_back_failed,
    held_elsewhere,
    leases,
    worker_name,
)
from somna.consolidate.rests import keep_the_rest
from somna.consolidate.writing import count_dry, write
from somna.embed import Embedder
from somna.errors import ProfileNotFoundError, SomnaError
from somna.llm import LLM
from somna.model import Profile, Run, RunOptions, RunStatus, utc
from somna.store import Store

__all__ = ["Consolidator", "worker_name"]

_AHEAD = 3
"""Sessions a profile holds at least (never more than the run's concurrency), leased and
extracted ahead of its writes: the one being judged, the next, and one to spare. More than
its share of the call slots (the concurrency over the profiles run side by side) would only
keep other profiles waiting: measured with 16 profiles and 32 slots, 3 ahead gave 13.4
sessions/s, 32 ahead 9.6."""


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
        self.means = Means(store, embedder, llm, settings, clock)

    def run(self, profile: str | None = None, **options: Unpack[RunOptions]) -> Run:
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
        means = self.means
        now, dry_run = options.get("now"), options.get("dry_run", False)
        hygiene, concurrency = options.get("hygiene", True), options.get("concurrency")
        at = utc(now) if now is not None else utc(means.clock())
        worker = worker_name()
        run = Run(profile_id=profile, started_at=utc(means.clock()), dry_run=dry_run, owner=worker)
        profiles = [profile] if profile else [p.id for p in means.store.list_profiles()]
        record = not dry_run and hygiene
        if record:
            abandon_dead_runs(means)
            means.store.save_run(run)
        width = concurrency or means.settings.consolidation_concurrency
        runners = CallPool(max(1, min(width, len(profiles))))
        job = Job(
            run=run,
            now=at,
            idle_hours=options.get("idle_hours"),  # None: each profile's own idle_hours
            dry_run=dry_run,
            worker=worker,
            hygiene=hygiene,
            calls=CallPool(width),
            ahead=min(width, max(_AHEAD, -(-width // runners.size))),
            progress=options.get("progress"),
            budget=options.get("limit"),
            should_stop=options.get("should_stop") or (lambda: False),
        )
        self._go(job, runners, profiles, record)
        return run

    def _go(self, job: Job, runners: CallPool, profiles: list[str], record: bool) -> None:
        """Run the profiles side by side, each on a thread of `runners`; the run's status
        says how they ended."""
        run = job.run
        try:
            wait_all([runners.submit(partial(self._profile_alone, p, job)) for p in profiles])
            partial_run = run.sessions_failed or job.erased or run.failures
            run.status = RunStatus.PARTIAL if partial_run else RunStatus.SUCCEEDED
        except KeyboardInterrupt:
            run.status = RunStatus.INTERRUPTED
            raise
        except BaseException:
            run.status = RunStatus.FAILED
            raise
        finally:
            self._end(job, runners, record)

    def _end(self, job: Job, runners: CallPool, record: bool) -> None:
        """Stop the threads, give back the leases still held, and record the run (a dry
        run never; a polling run only when it saw a session). A signal cannot cut this
        short: a run half ended would keep its leases and stay "running". One that comes
        once the profiles are done is too late to stop anything: the run ends as it was."""
        uninterrupted(partial(self._wind_down, job, runners, record))

    def _wind_down(self, job: Job, runners: CallPool, record: bool) -> None:
        stop(job, (job.calls, runners))
        give_back(self.means, job)
        join((runners, job.calls))
        run = job.run
        run.finished_at = utc(self.means.clock())
        if record or (not job.dry_run and run.sessions_seen):
            self.means.store.save_run(run)

    # -- one profile ------------------------------------------------------------------

    def _profile_alone(self, profile_id: str, job: Job) -> None:
        """One profile's part; its failure, whatever it is, is recorded and the others go on."""
        try:
            self._run_unless_erased(profile_id, job)
        except Stopped:
            raise
        except Exception as exc:  # an old database's bad setting, a bug: this profile alone
            said = str(exc) if isinstance(exc, SomnaError) else f"{type(exc).__name__}: {exc}"
            job.merge(Run(failures=[{"profile": profile_id, "error": said}]))

    def _run_unless_erased(self, profile_id: str, job: Job) -> None:
        """`_run_profile`; a profile erased meanwhile ends its part, not the run."""
        try:
            self._run_profile(profile_id, job)
        except ProfileNotFoundError:
            if self.means.store.get_profile(profile_id) is not None:
                raise
            job.erased.add(profile_id)

    def _run_profile(self, profile_id: str, job: Job) -> None:
        """The profile's due sessions in order, then its hygiene."""
        profile = self.means.store.get_profile(profile_id)
        if profile is None:
            raise ProfileNotFoundError(profile_id)
        idle = self.means.tuned(profile).idle_hours
        idle_before = job.now - timedelta(hours=idle if job.idle_hours is None else job.idle_hours)
        days = self._sessions(profile, idle_before, job)
        if not job.stopped.is_set():  # a run stopping leaves the hygiene to the next one
            self._after_sessions(profile, idle_before, days, job)

    def _sessions(self, profile: Profile, idle_before: datetime, job: Job) -> set[str]:
        """Extract up to `job.ahead` sessions ahead; judge and write them in order. The days
        of the sessions consolidated."""
        more = leases(self.means, profile.id, idle_before, job)
        window: deque[Pending] = deque()
        days: set[str] = set()
        place = 0  # the session's place in this profile's order: earlier ones are read first
        left = True  # whether the last lease got all it asked for
        try:
            while True:
                room = job.ahead - len(window)
                if left and room > 0:
                    leased = self._extract_ahead(profile, more(room), place, job)
                    left, place = len(leased) == room, place + len(leased)
                    window.extend(leased)
                if not window:
                    return days
                item = window.popleft()
                if self._settle(profile, item, job):
                    days.add(item.session.started_at.date().isoformat())
        finally:
            for item in window:
                item.future.cancel()

    def _extract_ahead(
        self, profile: Profile, leased: list[Leased], place: int, job: Job
    ) -> list[Pending]:
        """Submit the extractions of the sessions just leased, ranked from `place` on."""
        pending = []
        for rank, (session, messages) in enumerate(leased, start=place):
            item = Pending(session, Deadline(self.means.settings.session_deadline_s), messages)
            item.future = start(self.means, profile, item, job, rank)
            pending.append(item)
        return pending

    def _settle(self, profile: Profile, item: Pending, job: Job) -> bool:
        """Finish one session; a failure fails this session alone, which is given back to
        be retried later. True when consolidated."""
        session, run, done = item.session, item.run, False
        run.sessions_seen += 1
        try:
            self._consolidate(profile, item, job)
            run.sessions_consolidated += 1
            done = True
        except SomnaError as exc:
            run.sessions_failed += 1
            run.failures.append({"session": session.id, "key": session.key, "error": str(exc)})
            if not job.dry_run:
                give_back_failed(self.means, profile.id, session, job)
        finally:
            job.merge(run)
        job.held.pop(session.id, None)
        if job.progress is not None:
            job.progress(session)
        return done

    def _consolidate(self, profile: Profile, item: Pending, job: Job) -> None:
        """Judge the session's plan against the facts the profile's earlier sessions wrote,
        then write it (or count it, in a dry run)."""
        plan = await_call(item.future, item.deadline, job)
        if plan.candidates:
            judge(self.means, profile, plan.candidates, item.run, job, item.deadline)
        if job.dry_run:
            count_dry(plan, item.run, job.planned)
            job.planned.append(plan)
        else:  # the write checks that the session is still ours
            keep_the_rest(self.means, profile, plan.candidates, job.now)
            write(self.means, profile, plan, item.run, job)

    def _after_sessions(
        self, profile: Profile, idle_before: datetime, days: set[str], job: Job
    ) -> None:
        """The profile's hygiene (only counted, in a dry run) when the run does hygiene or
        wrote one of its sessions; and how many of its due sessions others hold."""
        due = job.hygiene or bool(days)
        if job.dry_run:
            if due:
                job.merge(Run(facts_expired=dry_expired(self.means, profile, job)))
            return
        part = held_elsewhere(self.means, profile.id, idle_before, job)
        if due:
            tidy(self.means, profile, part, job.now, days)
        job.merge(part)
