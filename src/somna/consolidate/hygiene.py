"""Hygiene: what the night does for a profile after its sessions.

`tidy` re-checks the facts stored unjudged (`somna.consolidate.recheck`), purges the
archive past its retention, expires facts past their time to live, fades the others on
the forgetting curve, and writes the day digests and a new portrait; the digests and
the portrait are embedded before its write scope opens. The rest are pure functions
over facts and summaries. Forgetting follows Ebbinghaus: retention = exp(-t / S), where
t is the time since a fact was last seen or recalled and S its stability, which grows
with every recall.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, time, timedelta

from somna.consolidate.calls import counted
from somna.consolidate.job import ACTOR, Job, Means
from somna.consolidate.recheck import recheck
from somna.llm.tasks import JUDGE
from somna.model import (
    Fact,
    FactStatus,
    FactType,
    Profile,
    Run,
    Summary,
    SummaryKind,
    Verdict,
    lifecycle,
)
from somna.model.lifecycle import Change
from somna.store import FactFilter, Reader, Writer

__all__ = [
    "decayed",
    "digest_text",
    "dry_expired",
    "expiring_after",
    "is_past_ttl",
    "portrait_text",
    "strength_at",
    "tidy",
]

_ACTIVE_FACTS = 10_000  # the most active facts of a profile hygiene looks at

_PORTRAIT_FACTS = 12
_PORTRAIT_CATEGORIES = {"preference", "identity", "client_info"}
"""Who the person is, what they prefer, and for a business's client how to reach them."""


def last_seen(fact: Fact) -> datetime:
    """When the fact was last said or recalled, in the world's time (what TTLs count from)."""
    moments = [fact.first_observed_at, fact.last_verified_at, fact.last_recalled_at]
    return max(m for m in moments if m is not None)


def is_past_ttl(fact: Fact, ttl_days: Mapping[str, float], now: datetime) -> str | None:
    """Why the fact has expired at `now`, or None while it is still alive."""
    if fact.expires_at is not None and fact.expires_at <= now:
        return "its expiry date has passed"
    days = ttl_days.get(fact.category or "")
    if days is not None and last_seen(fact) + timedelta(days=days) <= now:
        return f"not seen for {days:g} days, the time to live of {fact.category!r} facts"
    return None


def expiring_after(
    active: Sequence[Fact],
    planned: Sequence[tuple[Fact, Mapping[str, Verdict]]],
    ttl_days: Mapping[str, float],
    now: datetime,
) -> int:
    """How many facts hygiene would expire once `planned` is written: a dry run's count.

    `active` are the profile's active facts now; `planned` the facts the run's sessions
    proposed, each with its verdicts on neighbors. As the real run does: a known text or
    a duplicate reinforces (seen now, so it stays), a supersede or a contradiction takes
    the neighbor out of the active facts, and a contradicted new fact is disputed.
    """
    live = {f.id: f for f in active}
    by_text = {(f.type, f.subject, f.text_hash): f.id for f in active}
    for fact, verdicts in planned:
        key = (fact.type, fact.subject, fact.text_hash)
        if key in by_text:
            live.pop(by_text[key], None)
            continue
        judged = {v: i for i, v in verdicts.items() if i in live or v is Verdict.CONTRADICTS}
        if Verdict.DUPLICATE in judged:
            live.pop(judged[Verdict.DUPLICATE], None)
            continue
        for verdict in (Verdict.SUPERSEDES, Verdict.CONTRADICTS):
            if verdict in judged:
                live.pop(judged[verdict], None)
                break
        by_text[key] = fact.id
        if Verdict.CONTRADICTS not in judged or Verdict.SUPERSEDES in judged:
            live[fact.id] = fact
    return sum(1 for fact in live.values() if is_past_ttl(fact, ttl_days, now))


def strength_at(fact: Fact, now: datetime, stability_days: float) -> float:
    """Retention on the forgetting curve; each recall adds one `stability_days` to S.

    The clock starts when memory last met the fact: seen, recalled, or learned
    (`recorded_at`), so history imported today is not born forgotten.
    """
    met = max(last_seen(fact), fact.recorded_at)
    elapsed = max((now - met).total_seconds(), 0.0) / 86_400
    stability = stability_days * (1 + fact.recall_count)
    return round(math.exp(-elapsed / stability), 4)


def decayed(facts: Sequence[Fact], now: datetime, stability_days: float) -> list[Fact]:
    """The facts whose strength moved, with their new strength."""
    moved = []
    for fact in facts:
        strength = strength_at(fact, now, stability_days)
        if abs(strength - fact.strength) >= 0.001:
            moved.append(fact.model_copy(update={"strength": strength}))
    return moved


def digest_text(day: str, sessions: Sequence[Summary]) -> str:
    """The day digest: the day, then each session's summary, in order."""
    ordered = sorted(sessions, key=lambda s: (s.period_start or s.created_at, s.id))
    return f"{day}: " + " ".join(" ".join(s.text.split()) for s in ordered)


def portrait_text(facts: Sequence[Fact]) -> str | None:
    """A short persona: who the person is and what they prefer, strongest facts first."""
    chosen = [
        f
        for f in facts
        if f.status in {FactStatus.VERIFIED, FactStatus.UNVERIFIED}
        and (f.type is FactType.PERSONA or (f.category or "") in _PORTRAIT_CATEGORIES)
    ]
    if not chosen:
        return None
    chosen.sort(key=lambda f: (-f.confidence, -f.recorded_at.timestamp(), f.id))
    by_subject: dict[str, list[str]] = {}
    for fact in chosen[:_PORTRAIT_FACTS]:
        by_subject.setdefault(fact.subject, []).append(fact.text)
    return " ".join(
        f"{subject}: {' '.join(texts)}" if len(by_subject) > 1 else " ".join(texts)
        for subject, texts in by_subject.items()
    )


def tidy(means: Means, profile: Profile, run: Run, now: datetime, days: set[str]) -> None:
    """The profile's hygiene, counted in `run`; `days` are those of the sessions written."""
    settings = means.tuned(profile)
    recheck(
        means.store,
        means.embedder,
        lambda request: counted(run, lambda: means.llm.structured(JUDGE, request)),
        profile.id,
        floor=settings.judge_floor,
        now=now,
        actor=ACTOR,
        run=run,
    )
    with means.store.read(profile.id) as reader:
        active = reader.list_facts(FactFilter(limit=_ACTIVE_FACTS), now)
        alive = [f for f in active if not is_past_ttl(f, settings.ttl_days, now)]
        drafted = _summaries_due(reader, profile.id, alive, days, now)
    texts = [s.text for s in drafted]
    vectors = dict(zip(texts, means.embedder.embed(texts), strict=True)) if texts else {}
    with means.store.write(profile.id) as tx:
        run.messages_purged += tx.purge_archive(now)
        alive = _expire(tx, settings.ttl_days, run, now)
        tx.record_usage(decayed(alive, now, settings.stability_days))
        for summary in _summaries_due(tx, profile.id, alive, days, now):
            vector = vectors.get(summary.text)
            if vector is not None:  # a text that changed meanwhile waits for the next run
                tx.add_summary(summary, vector.tolist())


def _expire(tx: Writer, ttl_days: Mapping[str, float], run: Run, now: datetime) -> list[Fact]:
    """Expire the active facts past their time to live; the others, still alive."""
    active = tx.list_facts(FactFilter(limit=_ACTIVE_FACTS), now)
    change = Change()
    for fact in active:
        reason = is_past_ttl(fact, ttl_days, now)
        if reason:
            change = change.merge(lifecycle.expire(fact, at=now, actor=ACTOR, reason=reason))
    if change.facts:
        tx.apply(change)
        run.facts_expired += len(change.facts)
    expired = {f.id for f in change.facts}
    return [f for f in active if f.id not in expired]


def dry_expired(means: Means, profile: Profile, job: Job) -> int:
    """What `tidy` would expire after this dry run's plans were written."""
    planned = [
        (c.fact, c.verdicts)
        for plan in job.planned
        if plan.session.profile_id == profile.id
        for c in plan.candidates
    ]
    with means.store.read(profile.id) as reader:
        active = reader.list_facts(FactFilter(limit=_ACTIVE_FACTS), job.now)
    return expiring_after(active, planned, means.tuned(profile).ttl_days, job.now)


def _summaries_due(
    tx: Reader, profile_id: str, alive: list[Fact], days: set[str], now: datetime
) -> list[Summary]:
    """The day digests of `days` and a new portrait when the facts changed it."""
    summaries = [d for day in sorted(days) if (d := _digest(tx, profile_id, day, now))]
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


def _digest(tx: Reader, profile_id: str, day: str, now: datetime) -> Summary | None:
    """The day's digest of its session summaries; None for a day of one conversation,
    which its summary already tells."""
    start = datetime.combine(datetime.fromisoformat(day).date(), time(), tzinfo=UTC)
    end = start + timedelta(days=1)
    of_day = [
        s
        for s in tx.summaries(SummaryKind.SESSION, limit=1_000, since=start)
        if s.period_start is not None and start <= s.period_start < end
    ]
    if len(of_day) <= 1:
        return None
    return Summary(
        profile_id=profile_id,
        kind=SummaryKind.DAY,
        text=digest_text(day, of_day),
        period_start=start,
        period_end=end,
        sources=[s.id for s in of_day],
        created_at=now,
    )
