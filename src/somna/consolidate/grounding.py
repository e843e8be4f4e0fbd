"""Ground what the extraction proposed in the session, before anything of it is kept.

A candidate fact is kept only with a quote found verbatim in the session (invariant 5,
`somna.consolidate.evidence`), and as a well-formed fact; the others are rejected and
counted, with their reason. A summary is recalled like a fact and its session is
archived on the strength of it, so an invented one ("a girl meets a man…", from a model
that never saw the transcript) does lasting harm: a grounded summary names at least one
speaker of the session and shares content words with what was said. An empty summary
stores nothing and passes.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, time

import numpy as np
from pydantic import ValidationError

from somna.consolidate.evidence import locate_quote
from somna.consolidate.plan import Candidate
from somna.errors import LLMError
from somna.llm.tasks import CandidateFact
from somna.model import Evidence, Fact, Message, Profile, Run, Session, Wording, normalize_text
from somna.ranking import keywords

__all__ = ["MIN_SHARED_WORDS", "check_summary", "ground", "reject", "ungrounded"]

MIN_SHARED_WORDS = 1
"""Content words (stop words and names aside) a summary must share with the session."""


def _speakers(messages: Sequence[Message], profile: Profile) -> set[str]:
    names = {str(profile.settings.get("user_name") or "user"), profile.id, profile.name or ""}
    for message in messages:
        names.add(message.role.value)
        speaker = message.meta.get("speaker")
        if isinstance(speaker, str) and speaker.strip():
            names.add(speaker)
    return names


def ungrounded(summary: str, messages: Sequence[Message], profile: Profile) -> str | None:
    """Why ``summary`` is not grounded in ``messages``, or None when it is (or is empty)."""
    if not summary.strip():
        return None
    speakers = _speakers(messages, profile)
    name_words = {word for name in speakers for word in normalize_text(name).split()}
    said = set(normalize_text(summary).split())
    if not said & name_words:
        shown = ", ".join(sorted(name for name in speakers if name))
        return f"it names none of the speakers ({shown})"
    spoken = {_stem(w) for w in keywords(" ".join(message.content for message in messages))}
    shared = {_stem(w) for w in keywords(summary) if w not in name_words} & spoken
    if len(shared) < MIN_SHARED_WORDS:
        return (
            f"it shares {len(shared)} content word{'' if len(shared) == 1 else 's'} with the "
            f"conversation (at least {MIN_SHARED_WORDS} needed)"
        )
    return None


def _stem(word: str) -> str:
    """A crude stem, enough to match "ferns" with "fern" and "reminder" with "remind"."""
    return word[:5] if len(word) > 5 else word.rstrip("s")


def check_summary(summary: str, messages: Sequence[Message], profile: Profile) -> None:
    """Raise `LLMError` (the session fails and stays open) when the summary is not grounded."""
    reason = ungrounded(summary, messages, profile)
    if reason is not None:
        shown = summary.strip()
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        raise LLMError(
            f"The model's summary is not grounded in the conversation: {reason}: {shown!r}. "
            "The session stays open for a later run."
        )


def reject(run: Run, session: Session, text: str, reason: str) -> None:
    """Count a proposed fact that is not kept, with why."""
    run.facts_rejected += 1
    run.rejections.append({"session": session.id, "text": text, "reason": reason})


def ground(
    profile_id: str,
    session: Session,
    messages: list[Message],
    proposed: list[CandidateFact],
    run: Run,
    now: datetime,
) -> list[Candidate]:
    """Keep candidates whose quote is verbatim in the session (invariant 5); count the rest.
    A fact said twice in one session is one candidate with both quotes."""
    kept: dict[Wording, Candidate] = {}
    for candidate in proposed:
        message = locate_quote(candidate.quote, messages, candidate.message_index)
        if message is None:
            reject(run, session, candidate.text, "its quote is not in the conversation")
            continue
        try:
            fact = _fact(profile_id, candidate, message, now)
        except ValidationError as exc:
            reason = str(exc.errors()[0].get("ctx", {}).get("error") or exc.errors()[0]["msg"])
            reject(run, session, candidate.text, reason)
            continue
        evidence = Evidence(
            fact_id=fact.id,
            session_id=session.id,
            message_id=message.id,
            quote=candidate.quote.strip(),
            observed_at=message.created_at,
        )
        if (twin := kept.get(fact.wording)) is not None:
            twin.evidence.append(evidence.model_copy(update={"fact_id": twin.fact.id}))
        else:
            empty = np.zeros(0, dtype=np.float32)  # embedded once all are grounded
            kept[fact.wording] = Candidate(fact, [evidence], empty, rule=candidate.rule)
    return list(kept.values())


def _fact(profile_id: str, candidate: CandidateFact, message: Message, now: datetime) -> Fact:
    """The fact a candidate states, observed when its quote was said; `ValidationError`
    when it is not a well-formed fact."""
    return Fact(
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


def _day(value: str | None) -> datetime | None:
    if value is None:
        return None
    return datetime.combine(datetime.fromisoformat(value).date(), time(), tzinfo=UTC)
