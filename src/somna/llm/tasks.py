"""The three calls Somna makes to a language model, with their input and output models.

- `EXTRACT`: one closed session in, a 3-5 sentence summary and candidate facts out.
- `JUDGE`: pairs (new fact, existing neighbor) in, one verdict per pair out.
- `REWRITE`: a query and the recent turns in, one standalone search query out.

Output models validate shape only (types, enums, ranges); whether a fact is a single
sentence, or its quote really occurs in the session, is the consolidation pipeline's
business. A `SessionDigest` validates its facts one by one: what can be mended is
(a confidence of 90 or 1.4, an unreadable date), and a fact that still does not fit is
set aside in ``rejected`` with its reason instead of failing the whole answer.

Whatever a model replies is stored the same on SQLite and Postgres: NUL characters
(which Postgres cannot store) are dropped from every text of a reply, and a session's
summary longer than `SUMMARY_CHARS` is cut at its last sentence that fits, so one
runaway reply cannot bloat the session's and the day's summaries.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema

from somna.llm.base import Task
from somna.llm.structured import describe_validation_error
from somna.model import DEFAULT_SUBJECT, FactType, Role, Verdict

# What `somna.llm` offers: the tasks and their models. `render_transcript`,
# `render_turns` and `SUMMARY_CHARS` serve the providers and stay here.
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
    "RejectedCandidate",
    "RewriteRequest",
    "RewrittenQuery",
    "SessionDigest",
    "SessionTranscript",
    "TranscriptMessage",
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


SUMMARY_CHARS = 4000
"""The longest session summary kept, in characters (3-5 sentences take about 600)."""


def _without_nul(value: Any) -> Any:
    """`value` with NUL dropped from every string in it, however nested."""
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, dict):
        return {_without_nul(k): _without_nul(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_nul(v) for v in value]
    return value


def _cut(summary: str) -> str:
    """`summary` if it fits `SUMMARY_CHARS`, else its sentences that fit (its start, cut
    at a space, when the first sentence alone is too long), ended by an ellipsis."""
    if len(summary) <= SUMMARY_CHARS:
        return summary
    head = summary[: SUMMARY_CHARS - 1]
    end = max(head.rfind(". "), head.rfind("! "), head.rfind("? "))
    kept = head[: end + 1] if end > 0 else head.rsplit(" ", 1)[0]
    return kept.rstrip() + "…"


class _Output(BaseModel):
    # Models add keys of their own; the strict schema forbids them, the tolerant modes ignore them.
    model_config = ConfigDict(extra="ignore", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _drop_nul(cls, data: Any) -> Any:
        return _without_nul(data)


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
    rule: SkipJsonSchema[str | None] = None
    """The offline extractor's rule that found this fact, recorded with it so each rule's
    precision can be measured; never asked of a model."""

    @field_validator("category")
    @classmethod
    def _fold_category(cls, value: str) -> str:
        return value.strip().lower()

    @field_validator("text", "quote")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("it is empty")
        return value


class RejectedCandidate(BaseModel):
    """A proposed fact set aside by validation, and why."""

    model_config = ConfigDict(frozen=True)

    text: str
    reason: str


class SessionDigest(_Output):
    summary: Annotated[str, AfterValidator(_cut)]
    facts: list[CandidateFact]
    rejected: SkipJsonSchema[list[RejectedCandidate]] = Field(default_factory=list, exclude=True)
    """Facts the model proposed that do not fit `CandidateFact`; never asked of the model."""

    @model_validator(mode="before")
    @classmethod
    def _one_fact_at_a_time(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not isinstance(data.get("facts"), list):
            return data
        kept: list[CandidateFact] = []
        rejected: list[RejectedCandidate] = []
        for item in data["facts"]:
            try:
                kept.append(CandidateFact.model_validate(_mended(item)))
            except ValidationError as exc:
                reason = describe_validation_error(exc)
                rejected.append(RejectedCandidate(text=_text_of(item), reason=reason))
        return {**data, "facts": kept, "rejected": rejected}


def _mended(item: object) -> object:
    """A proposed fact with what can be mended mended: confidence into [0, 1] (a whole 90
    read as 90%), a date that cannot be read dropped to null."""
    if not isinstance(item, dict):
        return item
    fixed = dict(item)
    confidence = fixed.get("confidence")
    if isinstance(confidence, int | float) and not isinstance(confidence, bool):
        value = float(confidence)
        if 1.0 < value <= 100.0 and value.is_integer():
            value /= 100.0  # a whole number above 1 is a percentage
        fixed["confidence"] = min(max(value, 0.0), 1.0)
    try:
        _optional_day(fixed.get("valid_from"))
    except ValueError:
        fixed["valid_from"] = None
    return fixed


def _text_of(item: object) -> str:
    text = item.get("text") if isinstance(item, dict) else item
    return text if isinstance(text, str) else str(text)[:200]


def _speaker(transcript: SessionTranscript, message: TranscriptMessage) -> str:
    if message.speaker:
        return message.speaker
    return transcript.user if message.role is Role.USER else message.role.value


def render_transcript(transcript: SessionTranscript) -> str:
    """One line per message, ``[3] Odile: text``; the day is added when it is not the session's.

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


EXTRACT = Task("extract", SessionTranscript, SessionDigest, render=_render_extract)

# --- JUDGE ----------------------------------------------------------------------------


class JudgePair(_Input):
    pair_id: int
    new: str
    existing: str
    existing_since: OptionalIsoDay = None
    new_said: str | None = None
    """The words the new fact was said in, when a message gave it: "Now it's Rust." says it
    changed where the fact's text alone may not."""


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
        said = f'\n   new, as said: "{pair.new_said}"' if pair.new_said else ""
        lines.append(f"#{pair.pair_id} new: {pair.new}\n   old{since}: {pair.existing}{said}")
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


JUDGE = Task("judge", JudgeRequest, Judgements, render=_render_judge, check=_check_judge)

# --- REWRITE --------------------------------------------------------------------------


class ChatTurn(_Input):
    role: Role
    content: str


class RewriteRequest(_Input):
    query: str
    window: list[ChatTurn] = Field(default_factory=list)


class RewrittenQuery(_Output):
    query: str = Field(min_length=1)


def render_turns(turns: Iterable[ChatTurn]) -> str:
    """``role: text`` a line, whitespace folded: recent turns as every prompt shows them."""
    return "\n".join(f"{turn.role.value}: {' '.join(turn.content.split())}" for turn in turns)


def _render_rewrite(request: RewriteRequest) -> dict[str, str]:
    window = render_turns(request.window)
    return {"window": window or "(none)", "query": " ".join(request.query.split())}


REWRITE = Task("rewrite", RewriteRequest, RewrittenQuery, render=_render_rewrite)

TASKS = (EXTRACT, JUDGE, REWRITE)
"""Every task Somna asks of a model; each has its prompt file."""
