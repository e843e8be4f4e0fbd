"""The nightly job (DESIGN section 4): closed sessions in, quoted and reconciled facts out.

For each profile: lease the sessions quiet for `idle_hours`; for each session,
one structured call (summary + candidate facts), quote verification, one
batched judge call at most for the neighbours, then ONE write transaction with
the facts, evidence, events, summary, session status and archived messages
(invariant 6). Then the profile's hygiene: archive purge, expiry, forgetting
curve, day digest, portrait. Model calls never happen inside a transaction.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from typing import Any

import numpy as np
from pydantic import ValidationError

from somna.config import Settings
from somna.consolidate.evidence import locate_quote
from somna.consolidate.hygiene import decayed, digest_text, is_past_ttl, portrait_text
from somna.embed import Embedder
from somna.errors import SomnaError
from somna.llm import LLM
from somna.llm.base import LLMCallError
from somna.llm.tasks import (
    EXTRACT,
    JUDGE,
    CandidateFact,
    JudgePair,
    JudgeRequest,
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
    Session,
    Summary,
    SummaryKind,
    Verdict,
    lifecycle,
    normalize_text,
    utc,
    word_overlap,
)
from somna.model.lifecycle import Change
from somna.store import Eligibility, FactFilter, Store, Writer

__all__ = ["Consolidator", "worker_name"]

ACTOR = "consolidation"
_NEIGHBOURS = 1  # the closest neighbour of the same subject is the one worth judging
_SAME_WORDING = 0.9  # word overlap from which a pair is a duplicate without asking the model
_ONE_OFF = frozenset({"event"})
"""Categories of dated happenings: two of them never supersede or contradict each other, so
only the cheap duplicate pass looks at their neighbours and the model is not asked."""
_VERDICT_ORDER = (Verdict.DUPLICATE, Verdict.SUPERSEDES, Verdict.CONTRADICTS)


def worker_name() -> str:
    """Who holds a lease: host, process and a random part, so two workers never collide."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


@dataclass
class _Candidate:
    """A fact the model proposed that passed verification, with its evidence."""

    fact: Fact
    evidence: list[Evidence]
    vector: np.ndarray
    neighbours: list[Fact] = field(default_factory=list)
    verdicts: dict[str, Verdict] = field(default_factory=dict)


@dataclass
class _Plan:
    """Everything one session will write, decided before its transaction opens."""

    session: Session
    summary: str
    candidates: list[_Candidate]


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
    ) -> Run:
        """Consolidate the due sessions of one profile, or of all; returns the run's account.

        Without `hygiene` (a worker polling often), a profile's hygiene runs only
        when one of its sessions was consolidated, and a run that found nothing
        to do is not recorded.
        """
        at = utc(now) if now is not None else utc(self.clock())
        idle = self.settings.idle_hours if idle_hours is None else idle_hours
        run = Run(profile_id=profile, started_at=utc(self.clock()), dry_run=dry_run)
        worker = owner or worker_name()
        profiles = [profile] if profile else [p.id for p in self.store.list_profiles()]
        record = not dry_run and hygiene
        if record:
            self.store.save_run(run)
        try:
            for profile_id in profiles:
                remaining = None if limit is None else limit - run.sessions_seen
                if remaining is not None and remaining <= 0:
                    break
                self._run_profile(
                    profile_id, run, at, idle, remaining, dry_run, worker, progress, hygiene
                )
            run.status = "succeeded" if not run.sessions_failed else "partial"
        except BaseException:
            run.status = "failed"
            raise
        finally:
            run.finished_at = utc(self.clock())
            if record or (not dry_run and run.sessions_seen):
                self.store.save_run(run)
        return run

    # -- one profile ------------------------------------------------------------------

    def _run_profile(
        self,
        profile_id: str,
        run: Run,
        now: datetime,
        idle_hours: float,
        limit: int | None,
        dry_run: bool,
        worker: str,
        progress: Callable[[Session], None] | None,
        hygiene: bool,
    ) -> None:
        profile = self.store.get_profile(profile_id)
        if profile is None:
            from somna.errors import ProfileNotFoundError

            raise ProfileNotFoundError(profile_id)
        idle_before = now - timedelta(hours=idle_hours)
        batch = 10_000 if limit is None else limit
        if dry_run:
            with self.store.read(profile_id) as tx:
                sessions = tx.due_sessions(idle_before=idle_before, now=now, limit=batch)
        else:
            until = now + timedelta(minutes=self.settings.lease_minutes)
            with self.store.write(profile_id) as tx:
                sessions = tx.lease_sessions(
                    idle_before=idle_before, now=now, owner=worker, until=until, limit=batch
                )
        touched_days: set[str] = set()
        for session in sessions:
            run.sessions_seen += 1
            try:
                plan = self._plan(profile, session, run, now)
                if not dry_run:
                    self._write(profile_id, plan, run, now, worker)
                else:
                    self._count_dry(plan, run)
                run.sessions_consolidated += 1
                touched_days.add(session.started_at.date().isoformat())
            except SomnaError as exc:
                run.sessions_failed += 1
                run.failures.append({"session": session.id, "key": session.key, "error": str(exc)})
                if not dry_run:
                    with self.store.write(profile_id) as tx:
                        tx.release_session(session.id, worker)
            if progress is not None:
                progress(session)
        if not dry_run and (hygiene or touched_days):
            self._hygiene(profile, run, now, touched_days)

    # -- reading a session: model calls, outside any transaction -----------------------

    def _plan(self, profile: Profile, session: Session, run: Run, now: datetime) -> _Plan:
        with self.store.read(profile.id) as tx:
            messages = tx.session_messages(session.id)
        if not messages:
            return _Plan(session, "", [])
        transcript = _transcript(profile, session, messages)
        digest = self._call(run, lambda: self.llm.structured(EXTRACT, transcript))
        candidates = self._verify(profile.id, session, messages, digest.facts, run, now)
        if candidates:
            vectors = self.embedder.embed([c.fact.text for c in candidates])
            for candidate, vector in zip(candidates, vectors, strict=True):
                candidate.vector = vector
            self._judge(profile.id, candidates, run, now)
        return _Plan(session, digest.summary.strip(), candidates)

    def _call(self, run: Run, call: Callable[[], Any]) -> Any:
        try:
            reply = call()
        except LLMCallError as exc:
            run.llm_calls += exc.calls
            run.prompt_tokens += exc.prompt_tokens
            run.completion_tokens += exc.completion_tokens
            raise
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
        kept: dict[tuple[str, str, str], _Candidate] = {}
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
            key = (fact.type.value, fact.subject, fact.text_hash)
            if key in kept:  # said twice in one session: one fact, both quotes
                kept[key].evidence.append(
                    evidence.model_copy(update={"fact_id": kept[key].fact.id})
                )
            else:
                kept[key] = _Candidate(fact, [evidence], np.zeros(0, dtype=np.float32))
        return list(kept.values())

    @staticmethod
    def _reject(run: Run, session: Session, text: str, reason: str) -> None:
        run.facts_rejected += 1
        run.rejections.append({"session": session.id, "text": text, "reason": reason})

    def _judge(
        self, profile_id: str, candidates: list[_Candidate], run: Run, now: datetime
    ) -> None:
        """Find each candidate's closest neighbour of its subject; judge all pairs in one call."""
        floor = self.settings.judge_floor
        with self.store.read(profile_id) as tx:
            for candidate in candidates:
                fact = candidate.fact
                if tx.find_active(fact.type, fact.subject, fact.text_hash) is not None:
                    continue  # the same fact is known: it will be reinforced, nothing to judge
                near = [
                    fact_id
                    for fact_id, score in tx.vector_search(
                        candidate.vector, Eligibility(at=now, now=now), 4 * _NEIGHBOURS
                    )
                    if score >= floor
                ]
                same_subject = [
                    n for n in tx.get_facts(near) if n.subject.casefold() == fact.subject.casefold()
                ]
                candidate.neighbours = same_subject[:_NEIGHBOURS]
        pairs: list[tuple[_Candidate, Fact]] = []
        for candidate in candidates:
            for neighbour in candidate.neighbours:
                # The cheap pass first: the same words in another order need no model.
                if _same_wording(candidate.fact.text, neighbour.text):
                    candidate.verdicts[neighbour.id] = Verdict.DUPLICATE
                elif candidate.fact.category not in _ONE_OFF:
                    pairs.append((candidate, neighbour))
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
        judged = self._call(run, lambda: self.llm.structured(JUDGE, request))
        for verdict in judged.verdicts:
            if 0 <= verdict.pair_id < len(pairs):
                candidate, neighbour = pairs[verdict.pair_id]
                candidate.verdicts[neighbour.id] = Verdict(verdict.verdict)

    # -- writing a session: one transaction ---------------------------------------------

    def _write(self, profile_id: str, plan: _Plan, run: Run, now: datetime, worker: str) -> None:
        counts = {"added": 0, "reinforced": 0, "superseded": 0, "disputed": 0}
        with self.store.write(profile_id) as tx:
            fact_ids = [self._reconcile(tx, c, now, counts) for c in plan.candidates]
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
                tx.add_summary(summary, self.embedder.embed([summary.text])[0].tolist())
            archived = tx.finish_session(
                plan.session.id,
                worker,
                at=now,
                purge_after=now + timedelta(days=self.settings.archive_days),
            )
        run.facts_added += counts["added"]
        run.facts_reinforced += counts["reinforced"]
        run.facts_superseded += counts["superseded"]
        run.facts_disputed += counts["disputed"]
        run.messages_archived += archived

    def _reconcile(
        self, tx: Writer, candidate: _Candidate, now: datetime, counts: dict[str, int]
    ) -> str:
        """Apply one candidate against the facts as they are now; returns the fact it became."""
        fact = candidate.fact
        known = tx.find_active(fact.type, fact.subject, fact.text_hash)
        if known is not None:
            tx.apply(lifecycle.reinforce(known, at=now, actor=ACTOR, evidence=candidate.evidence))
            counts["reinforced"] += 1
            return known.id
        verdict, neighbour = self._verdict(tx, candidate)
        if verdict is Verdict.DUPLICATE and neighbour is not None:
            tx.apply(
                lifecycle.reinforce(neighbour, at=now, actor=ACTOR, evidence=candidate.evidence)
            )
            counts["reinforced"] += 1
            return neighbour.id
        change = lifecycle.create(
            fact, vector=candidate.vector.tolist(), actor=ACTOR, evidence=candidate.evidence
        )
        if verdict is Verdict.SUPERSEDES and neighbour is not None:
            change = change.merge(lifecycle.supersede(neighbour, fact, at=now, actor=ACTOR))
            counts["superseded"] += 1
        elif verdict is Verdict.CONTRADICTS and neighbour is not None:
            change = change.merge(lifecycle.dispute(fact, neighbour, at=now, actor=ACTOR))
            counts["disputed"] += 2 if neighbour.status is not FactStatus.DISPUTED else 1
        tx.apply(change)
        counts["added"] += 1
        return fact.id

    @staticmethod
    def _verdict(tx: Writer, candidate: _Candidate) -> tuple[Verdict, Fact | None]:
        """The strongest verdict on a neighbour that is still active now (or disputed)."""
        for wanted in _VERDICT_ORDER:
            for neighbour_id, verdict in candidate.verdicts.items():
                if verdict is not wanted:
                    continue
                neighbour = tx.get_fact(neighbour_id)
                allowed = ACTIVE_STATUSES | (
                    {FactStatus.DISPUTED} if wanted is Verdict.CONTRADICTS else set()
                )
                if neighbour is not None and neighbour.status in allowed:
                    return verdict, neighbour
        return Verdict.DISTINCT, None

    @staticmethod
    def _count_dry(plan: _Plan, run: Run) -> None:
        for candidate in plan.candidates:
            verdicts = set(candidate.verdicts.values())
            if Verdict.DUPLICATE in verdicts:
                run.facts_reinforced += 1
            else:
                run.facts_added += 1
                run.facts_superseded += Verdict.SUPERSEDES in verdicts
                run.facts_disputed += Verdict.CONTRADICTS in verdicts

    # -- hygiene ------------------------------------------------------------------------

    def _hygiene(self, profile: Profile, run: Run, now: datetime, days: set[str]) -> None:
        settings = self.settings
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
            summaries = self._digests(tx, profile.id, days, now)
            portrait = portrait_text(alive)
            latest = tx.summaries(SummaryKind.PORTRAIT, limit=1)
            if portrait and (not latest or latest[0].text != portrait):
                summaries.append(
                    Summary(
                        profile_id=profile.id,
                        kind=SummaryKind.PORTRAIT,
                        text=portrait,
                        period_end=now,
                        sources=[f.id for f in alive][:50],
                        created_at=now,
                    )
                )
            if summaries:
                vectors = self.embedder.embed([s.text for s in summaries])
                for summary, vector in zip(summaries, vectors, strict=True):
                    tx.add_summary(summary, vector.tolist())

    @staticmethod
    def _digests(tx: Writer, profile_id: str, days: set[str], now: datetime) -> list[Summary]:
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


_NEGATIONS = frozenset(
    {
        "not", "no", "never", "nor", "cannot", "t", "don", "doesn", "didn", "isn", "wasn",
        "aren", "weren", "won", "can", "ne", "n", "pas", "plus", "jamais", "rien", "aucun",
    }
)  # fmt: skip
"""Words (as `normalize_text` leaves them: "don't" is "don t") that flip a statement."""


def _same_wording(a: str, b: str) -> bool:
    """Nearly the same words, and not one of them negating the other: a duplicate for sure."""
    if word_overlap(a, b) < _SAME_WORDING:
        return False
    differing = set(normalize_text(a).split()) ^ set(normalize_text(b).split())
    return not differing & _NEGATIONS


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
