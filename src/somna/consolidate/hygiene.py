"""What the night does after the sessions: expire, fade, digest, portray.

Pure functions over facts and summaries; the pipeline writes their results.
Forgetting follows Ebbinghaus: retention = exp(-t / S), where t is the time
since a fact was last seen or recalled and S its stability, which grows with
every recall.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from somna.model import Fact, FactStatus, FactType, Summary, Verdict

__all__ = [
    "decayed",
    "digest_text",
    "expiring_after",
    "is_past_ttl",
    "portrait_text",
    "strength_at",
]

_PORTRAIT_FACTS = 12
_PORTRAIT_CATEGORIES = {"preference", "identity"}


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
