"""The three calls Somna makes to a language model, with their input and output models.

- `EXTRACT`: one closed session in, a 3-5 sentence summary and candidate facts out.
- `JUDGE`: pairs (new fact, existing neighbour) in, one verdict per pair out.
- `REWRITE`: a query and the recent turns in, one standalone search query out.

Output models validate shape only (types, enums, ranges); whether a fact is a single
sentence, or its quote really occurs in the session, is the consolidation pipeline's
business: it rejects such a fact alone instead of the whole answer.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator

from somna.llm.base import Task
from somna.model import DEFAULT_SUBJECT, FactType, Role, Verdict

__all__ = [
    "EXTRACT",
    "JUDGE",
    "REWRITE",
    "TASKS",
    "CandidateFact",
    "ChatTurn",
    "JudgePair",
    "JudgeRequest",
    "JudgeVerdict",
    "Judgements",
    "RewriteRequest",
    "RewrittenQuery",
    "SessionDigest",
    "SessionTranscript",
    "TranscriptMessage",
    "render_transcript",
]


def _iso_day(value: str) -> str:
    """``YYYY-MM-DD`` from an ISO date or datetime (``YYYY-MM`` counts as the 1st)."""
    text = value.strip()
    if len(text) == 7:
        text += "-01"
    try:
        return date.fromisoformat(text[:10]).isoformat()
    except ValueError:
        raise ValueError(f"{value!r} is not an ISO date (YYYY-MM-DD)") from None


def _optional_day(value: object) -> object:
    if value is None or (isinstance(value, str) and value.strip().lower() in {"", "null", "none"}):
        return None
    return _iso_day(value) if isinstance(value, str) else value


IsoDay = Annotated[str, BeforeValidator(lambda v: _iso_day(v) if isinstance(v, str) else v)]
OptionalIsoDay = Annotated[str | None, BeforeValidator(_optional_day)]


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Output(BaseModel):
    # Models add keys of their own; the strict schema forbids them, the tolerant modes ignore them.
    model_config = ConfigDict(extra="ignore", frozen=True)


# --- EXTRACT --------------------------------------------------------------------------


class TranscriptMessage(_Input):
    index: int = Field(ge=0)
    role: Role
    speaker: str | None = None
    content: str
    at: str = ""
    """ISO timestamp of the message; shown when it falls on another day than the session."""


class SessionTranscript(_Input):
    session_key: str
    date: IsoDay
    user: str = DEFAULT_SUBJECT
    """The name facts about the user are filed under; "user" is the profile's own user."""
    messages: list[TranscriptMessage]


class CandidateFact(_Output):
    type: FactType
    category: str
    subject: str
    text: str
    quote: str
    message_index: int | None = None
    valid_from: OptionalIsoDay = None
    confidence: float = Field(ge=0.0, le=1.0)

    @field_validator("category")
    @classmethod
    def _fold_category(cls, value: str) -> str:
        return value.strip().lower()


class SessionDigest(_Output):
    summary: str
    facts: list[CandidateFact]


def _speaker(transcript: SessionTranscript, message: TranscriptMessage) -> str:
    if message.speaker:
        return message.speaker
    return transcript.user if message.role is Role.USER else message.role.value


def render_transcript(transcript: SessionTranscript) -> str:
    """One line per message, ``[3] Caroline: text``; the day is added when it is not the session's.

    Whitespace inside a message is folded to single spaces: fewer tokens, and quotes are
    matched with whitespace folded anyway.
    """
    lines = []
    for message in transcript.messages:
        day = message.at[:10]
        when = f" ({day})" if day and day != transcript.date else ""
        content = " ".join(message.content.split())
        lines.append(f"[{message.index}] {_speaker(transcript, message)}{when}: {content}")
    return "\n".join(lines)


def _render_extract(transcript: SessionTranscript) -> dict[str, str]:
    return {
        "session_key": transcript.session_key,
        "date": transcript.date,
        "user": transcript.user,
        "transcript": render_transcript(transcript),
    }


EXTRACT: Task[SessionTranscript, SessionDigest] = Task(
    name="extract",
    prompt="extract.md",
    input_model=SessionTranscript,
    output_model=SessionDigest,
    render=_render_extract,
)

# --- JUDGE ----------------------------------------------------------------------------


class JudgePair(_Input):
    pair_id: int
    new: str
    existing: str
    existing_since: OptionalIsoDay = None


class JudgeRequest(_Input):
    pairs: list[JudgePair]


class JudgeVerdict(_Output):
    pair_id: int
    verdict: Verdict
    reason: str


class Judgements(_Output):
    verdicts: list[JudgeVerdict]

    def by_pair(self) -> dict[int, JudgeVerdict]:
        return {verdict.pair_id: verdict for verdict in self.verdicts}


def _render_judge(request: JudgeRequest) -> dict[str, str]:
    lines = []
    for pair in request.pairs:
        since = f" ({pair.existing_since})" if pair.existing_since else ""
        lines.append(f"#{pair.pair_id} new: {pair.new}\n   old{since}: {pair.existing}")
    return {"pairs": "\n".join(lines)}


def _check_judge(request: JudgeRequest, judgements: Judgements) -> None:
    asked = [pair.pair_id for pair in request.pairs]
    answered = [verdict.pair_id for verdict in judgements.verdicts]
    if sorted(answered) != sorted(asked):
        missing = sorted(set(asked) - set(answered))
        unknown = sorted(set(answered) - set(asked))
        twice = sorted({i for i in answered if answered.count(i) > 1})
        problems = [
            f"{label} {ids}"
            for label, ids in (("missing pairs", missing), ("unknown pairs", unknown))
            if ids
        ] + ([f"pairs judged twice {twice}"] if twice else [])
        raise ValueError("the verdicts do not answer the pairs asked: " + "; ".join(problems))


JUDGE: Task[JudgeRequest, Judgements] = Task(
    name="judge",
    prompt="judge.md",
    input_model=JudgeRequest,
    output_model=Judgements,
    render=_render_judge,
    check=_check_judge,
)

# --- REWRITE --------------------------------------------------------------------------


class ChatTurn(_Input):
    role: Role
    content: str


class RewriteRequest(_Input):
    query: str
    window: list[ChatTurn] = Field(default_factory=list)


class RewrittenQuery(_Output):
    query: str = Field(min_length=1)


def _render_rewrite(request: RewriteRequest) -> dict[str, str]:
    window = "\n".join(
        f"{turn.role.value}: {' '.join(turn.content.split())}" for turn in request.window
    )
    return {"window": window or "(none)", "query": " ".join(request.query.split())}


REWRITE: Task[RewriteRequest, RewrittenQuery] = Task(
    name="rewrite",
    prompt="rewrite.md",
    input_model=RewriteRequest,
    output_model=RewrittenQuery,
    render=_render_rewrite,
)

TASKS = (EXTRACT, JUDGE, REWRITE)
"""Every task Somna asks of a model; each has its prompt file."""
