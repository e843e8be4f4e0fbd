"""Conversation metrics, per session and per profile: what a team running a chat product reads.

- turns, and the mean length in characters of user and assistant messages;
- time to close: from the first to the last message of a session no longer open;
- clarification questions: assistant turns that ask the user what they meant;
- topic shifts: consecutive user turns whose embeddings are further apart than
  `SHIFT_BELOW` cosine similarity;
- facts used: what the caller reported in a message's `meta.facts_used` (how
  many recalled facts the answer used), summed, with how many turns reported it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import numpy as np

from somna.embed import Embedder
from somna.memory.sessions import shown_status
from somna.model import Message, Role, Session, SessionStatus
from somna.store import Store

__all__ = ["SHIFT_BELOW", "ProfileMetrics", "SessionMetrics", "clarifies", "measure"]

SHIFT_BELOW = 0.25
"""Cosine similarity under which two consecutive user turns change the subject (bundled model:
turns on one subject score 0.3 and more, unrelated ones 0.0 to 0.2)."""

_CLARIFY = re.compile(
    r"\b(do|did) you mean\b|\bcould you (clarify|specify|tell me more|be more specific)\b"
    r"|\bcan you (clarify|specify|tell me more|be more specific)\b|\bwhat do you mean\b"
    r"|\bwhich (one|of (these|them|the))\b|\bto clarify\b|\bjust to be sure\b|\bare you asking\b"
    r"|\bvoulez-vous dire\b|\bvous voulez dire\b|\btu veux dire\b|\bpouvez-vous préciser\b"
    r"|\bpeux-tu préciser\b|\blequel\b|\blaquelle\b",
    re.IGNORECASE,
)
_QUESTION = re.compile(r"[^.!?\n]*\?")


def clarifies(text: str) -> bool:
    """Whether an assistant turn asks the user what they meant."""
    return any(_CLARIFY.search(question) for question in _QUESTION.findall(text))


@dataclass(frozen=True)
class SessionMetrics:
    session_id: str
    key: str
    status: SessionStatus
    started_at: datetime
    turns: int
    user_turns: int
    assistant_turns: int
    user_chars_mean: float | None
    assistant_chars_mean: float | None
    time_to_close_s: float | None
    """None while the session is open (or has no messages left)."""
    clarifications: int
    topic_shifts: int
    facts_used: int
    facts_used_reported: int


@dataclass(frozen=True)
class ProfileMetrics:
    profile: str
    sessions: int
    """Sessions measured: those that still hold their messages."""
    turns: int
    turns_per_session: float | None
    user_chars_mean: float | None
    assistant_chars_mean: float | None
    time_to_close_s_mean: float | None
    clarifications: int
    clarification_rate: float | None
    """Clarifications per assistant turn."""
    topic_shifts: int
    facts_used: int
    facts_used_reported: int
    per_session: list[SessionMetrics]


def measure(
    store: Store,
    embedder: Embedder,
    profile: str,
    now: datetime,
    *,
    idle_hours: float,
    limit: int,
    session_key: str | None = None,
) -> ProfileMetrics:
    """Metrics of the profile's `limit` latest sessions (or of the latest under `session_key`)."""
    with store.read(profile) as tx:
        if session_key is not None:
            latest = tx.latest_session(session_key)
            sessions = [] if latest is None else [latest]
        else:
            sessions = sorted(tx.sessions(limit=limit), key=lambda s: s.started_at)
        transcripts = [(s, tx.session_transcript(s.id)) for s in sessions]
    measured = []
    for session, messages in transcripts:
        if not messages:
            continue  # purged from the archive: nothing left to measure
        status = shown_status(session, now, timedelta(hours=idle_hours))
        measured.append(_session(session, status, messages, embedder))
    return _profile(profile, measured)


def _session(
    session: Session, status: SessionStatus, messages: Sequence[Message], embedder: Embedder
) -> SessionMetrics:
    users = [m for m in messages if m.role is Role.USER]
    assistants = [m for m in messages if m.role is Role.ASSISTANT]
    reported = [m.meta["facts_used"] for m in messages if _count(m.meta.get("facts_used"))]
    span = (messages[-1].created_at - messages[0].created_at).total_seconds()
    return SessionMetrics(
        session_id=session.id,
        key=session.key,
        status=status,
        started_at=session.started_at,
        turns=len(users) + len(assistants),
        user_turns=len(users),
        assistant_turns=len(assistants),
        user_chars_mean=_mean([len(m.content) for m in users]),
        assistant_chars_mean=_mean([len(m.content) for m in assistants]),
        time_to_close_s=None if status is SessionStatus.OPEN else span,
        clarifications=sum(clarifies(m.content) for m in assistants),
        topic_shifts=_shifts([m.content for m in users], embedder),
        facts_used=sum(reported),
        facts_used_reported=len(reported),
    )


def _profile(profile: str, sessions: list[SessionMetrics]) -> ProfileMetrics:
    turns = sum(s.turns for s in sessions)
    assistant_turns = sum(s.assistant_turns for s in sessions)
    clarifications = sum(s.clarifications for s in sessions)
    closes = [s.time_to_close_s for s in sessions if s.time_to_close_s is not None]
    return ProfileMetrics(
        profile=profile,
        sessions=len(sessions),
        turns=turns,
        turns_per_session=turns / len(sessions) if sessions else None,
        user_chars_mean=_pooled([(s.user_chars_mean, s.user_turns) for s in sessions]),
        assistant_chars_mean=_pooled(
            [(s.assistant_chars_mean, s.assistant_turns) for s in sessions]
        ),
        time_to_close_s_mean=_mean(closes),
        clarifications=clarifications,
        clarification_rate=clarifications / assistant_turns if assistant_turns else None,
        topic_shifts=sum(s.topic_shifts for s in sessions),
        facts_used=sum(s.facts_used for s in sessions),
        facts_used_reported=sum(s.facts_used_reported for s in sessions),
        per_session=sessions,
    )


def _shifts(texts: Sequence[str], embedder: Embedder) -> int:
    if len(texts) < 2:
        return 0
    vectors = np.asarray(embedder.embed(list(texts)), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1)
    norms[norms == 0] = 1.0
    unit = vectors / norms[:, None]
    cosines = np.sum(unit[1:] * unit[:-1], axis=1)
    return int(np.sum(cosines < SHIFT_BELOW))


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _pooled(pairs: Sequence[tuple[float | None, int]]) -> float | None:
    """The mean over every message, from per-session (mean, count) pairs."""
    total = sum(n for mean, n in pairs if mean is not None)
    return sum(mean * n for mean, n in pairs if mean is not None) / total if total else None
