"""What goes over the wire: request bodies and response documents of the REST API.

These are data transfer objects, kept apart from the domain models of
`somna.model`: the API can rename, hide or add a field (a key's secret hash
never leaves; a run gains `duration_s`) without touching the domain.

Responses are built with `XOut.model_validate(domain_object)`. Requests forbid
unknown fields, so a misspelt field is a 422 rather than silently ignored.
Bounds here protect the server (sizes, counts); the domain still checks meaning.
"""

from __future__ import annotations

import json
from datetime import datetime
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
)

from somna.config import bounds
from somna.memory import FactChanges, NewFact
from somna.memory.bulk import MAX_BATCH
from somna.memory.writes import Instant
from somna.model import (
    ConflictStatus,
    EventAction,
    FactStatus,
    FactType,
    RecalledKind,
    Resolution,
    Role,
    SessionStatus,
    SummaryKind,
    Verdict,
)

__all__ = [
    "AddedOut",
    "ApiKeyOut",
    "BatchOut",
    "CompactRecalledOut",
    "ConflictOut",
    "ConflictPairOut",
    "ConflictResolveIn",
    "ConsolidateIn",
    "ContextIn",
    "ContextOut",
    "CreatedKeyOut",
    "EventOut",
    "EvidenceOut",
    "FactIn",
    "FactOut",
    "FactPatch",
    "FactsIn",
    "ForgetOut",
    "HealthOut",
    "HistoryOut",
    "Instant",
    "KeyIn",
    "MessageIn",
    "MessageOut",
    "MessagesIn",
    "OutcomeOut",
    "ProfileIn",
    "ProfileOut",
    "RecallIn",
    "RecalledOut",
    "ResolveIn",
    "RunOut",
    "SearchHitOut",
    "SearchIn",
    "SessionOut",
    "SimilarOut",
    "SummaryOut",
]


def _check_text(value: Any) -> None:
    """Every text of a request, however nested, is valid Unicode without NUL (which Postgres
    cannot store and SQLite would): both stores take the same requests."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("the text contains invalid Unicode (a lone surrogate)") from None
        if "\x00" in value:
            raise ValueError("the text contains a NUL character, which cannot be stored")
    elif isinstance(value, list | tuple):
        for item in value:
            _check_text(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key)
            _check_text(item)


_SCALARS: dict[type, tuple[tuple[type, ...], str]] = {
    bool: ((bool,), "must be true or false"),
    int: ((int,), "must be a whole number"),
    float: ((int, float), "must be a number"),
}


def _scalar(annotation: Any) -> tuple[tuple[type, ...], str] | None:
    """What JSON values a field of type bool, int or float (or optional) accepts, and why."""
    if get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    if annotation in _SCALARS:
        return _SCALARS[annotation]
    union = isinstance(annotation, UnionType) or get_origin(annotation) is Union
    members = [
        get_args(a)[0] if get_origin(a) is Annotated else a
        for a in (get_args(annotation) if union else ())
        if a is not type(None)
    ]
    return _SCALARS[members[0]] if len(members) == 1 and members[0] in _SCALARS else None


class _In(BaseModel):
    """A request body: unknown fields refused, text checked to be valid Unicode, and no
    coercion of JSON types (`"verified": "yes"` or `"idle_hours": false` is a 422, not a
    guess). Dates and enum values still come as JSON strings."""

    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="before")
    @classmethod
    def _json_type(cls, value: Any, info: ValidationInfo) -> Any:
        field = cls.model_fields.get(info.field_name or "")
        wanted = None if field is None else _scalar(field.annotation)
        if wanted is not None and value is not None:
            kinds, rule = wanted
            if isinstance(value, bool) != (bool in kinds) or not isinstance(value, kinds):
                raise ValueError(f"{info.field_name} {rule}, not {json.dumps(value)}")
        return value

    @field_validator("*", mode="after")
    @classmethod
    def _valid_unicode(cls, value: Any) -> Any:
        _check_text(value)
        return value


class _Out(BaseModel):
    model_config = ConfigDict(from_attributes=True)


# -- requests -------------------------------------------------------------------------

Query = Annotated[str, Field(min_length=1, max_length=2000, description="Words or a question.")]
K = Annotated[int, Field(ge=1, le=100, description="How many results to return.")]


class ProfileIn(_In):
    id: str = Field(
        min_length=1, max_length=128, description="Letters, digits or _ . @ : - (1 to 128)."
    )
    name: str | None = Field(default=None, max_length=200, description="A display name.")
    settings: dict[str, Any] = Field(
        default_factory=dict,
        description="The profile's own settings; `overrides` holds the global settings it "
        "overrides (neighbor_floor, judge_floor, idle_hours, archive_days, ttl_days), each "
        "checked against its range.",
    )


class MessageIn(_In):
    role: Role
    content: str = Field(min_length=1, max_length=100_000)
    at: Instant | None = Field(default=None, description="When it was said (default: now).")
    meta: dict[str, Any] | None = Field(
        default=None,
        description="Where it came from (your own ids), kept for tracing; `facts_used`: how "
        "many recalled facts this answer used, for the conversation metrics.",
    )
    device: str | None = Field(
        default=None,
        min_length=1,
        max_length=128,
        description="The device it was typed on (kept as `meta.device`), to follow a "
        "conversation across devices.",
    )


class MessagesIn(_In):
    messages: list[MessageIn] = Field(min_length=1, max_length=1000)


class FactIn(_In, NewFact):
    """A fact to add: the fields of `somna.NewFact`."""


class FactsIn(_In):
    """Facts to add in one call, each stored or reinforced as `POST …/facts` would."""

    facts: list[FactIn] = Field(
        min_length=1, max_length=MAX_BATCH, description="In order; a text given twice is one fact."
    )


class ResolveIn(_In):
    existing_id: str = Field(min_length=1, max_length=64, description="The neighbor's id.")
    verdict: Verdict


class FactPatch(_In, FactChanges):
    """A correction: the fields of `somna.FactChanges` to change."""


class ConflictResolveIn(_In):
    resolution: Resolution
    correction: str | None = Field(
        default=None, min_length=1, max_length=2000, description="With `corrected` only."
    )


class SearchIn(_In):
    query: Query
    k: K = 5
    as_of: Instant | None = None


class RecallIn(_In):
    query: Query
    k: K = 5
    as_of: Instant | None = None
    types: list[FactType] | None = Field(default=None, max_length=len(FactType))
    include_summaries: bool = True
    session_key: str | None = Field(default=None, min_length=1, max_length=256)
    format: Literal["full", "compact"] = Field(
        default="full",
        description="`compact`: each item as `id`, `text`, `date` and `status` only, for an "
        "agent's tool; `full`: scores, signals and the whole fact or summary.",
    )


class ContextIn(_In):
    query: Query
    budget_tokens: int = Field(default=800, ge=1, le=100_000)
    k: K | None = None
    session_key: str | None = Field(default=None, min_length=1, max_length=256)


class ConsolidateIn(_In):
    profile: str | None = Field(
        default=None,
        max_length=128,
        description="One profile (required for a key that is not an admin key), else all.",
    )
    dry_run: bool = False
    idle_hours: float | None = Field(
        default=None, ge=bounds("idle_hours")[0], le=bounds("idle_hours")[1]
    )
    limit: int | None = Field(default=None, ge=1, le=100_000)


class KeyIn(_In):
    profiles: list[Annotated[str, Field(min_length=1, max_length=128)]] = Field(
        default_factory=list, max_length=1000
    )
    prefix: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="Reach every profile whose id starts with it, created on first use.",
    )
    admin: bool = False
    name: str = Field(default="", max_length=200)


# -- responses ------------------------------------------------------------------------


class HealthOut(_Out):
    status: Literal["ok"] = "ok"
    version: str
    auth: bool


class ProfileOut(_Out):
    id: str
    name: str
    settings: dict[str, Any]
    created_at: datetime


class SessionOut(_Out):
    id: str
    key: str
    started_at: datetime
    last_message_at: datetime
    status: SessionStatus
    consolidated_at: datetime | None


class MessageOut(_Out):
    id: str
    session_id: str
    seq: int
    role: Role
    content: str
    created_at: datetime
    meta: dict[str, Any]


class FactOut(_Out):
    id: str
    profile_id: str
    type: FactType
    category: str | None
    subject: str
    predicate: str | None
    object: str | None
    text: str
    status: FactStatus
    confidence: float
    valid_from: datetime
    valid_to: datetime | None
    recorded_at: datetime
    superseded_at: datetime | None
    superseded_by: str | None
    retired_at: datetime | None
    first_observed_at: datetime
    last_verified_at: datetime | None
    expires_at: datetime | None
    last_recalled_at: datetime | None
    recall_count: int
    strength: float


class SimilarOut(_Out):
    fact: FactOut
    similarity: float = Field(description="Cosine similarity to the new fact, 0 to 1.")


class AddedOut(_Out):
    fact: FactOut
    created: bool = Field(description="False when the same active fact was reinforced instead.")
    similar: list[SimilarOut] = Field(
        description="Active facts close to this one: judge each with POST …/facts/{id}/resolve."
    )
    candidates: list[SimilarOut] = Field(
        default_factory=list,
        description="Active facts of the same subject, further apart than `similar` but close "
        "enough to contradict it (a changed value): judge each the same way.",
    )
    note: str | None = Field(
        default=None,
        description="When the fact was already known and the request gave another category: "
        "that the stored category was kept, and how to change it.",
    )


class BatchOut(_Out):
    added: list[AddedOut] = Field(description="One result per fact sent, in the same order.")


class ConflictOut(_Out):
    id: str
    fact_a_id: str
    fact_b_id: str
    status: ConflictStatus
    resolution: Resolution | None
    correction: str | None
    correction_fact_id: str | None
    created_at: datetime
    deferred_until: datetime | None
    resolved_at: datetime | None
    resolved_by: str | None


class OutcomeOut(_Out):
    facts: list[FactOut]
    conflict: ConflictOut | None


class ConflictPairOut(_Out):
    conflict: ConflictOut
    fact_a: FactOut
    fact_b: FactOut
    correction: FactOut | None


class EvidenceOut(_Out):
    id: str
    fact_id: str
    session_id: str | None
    message_id: str | None
    quote: str
    observed_at: datetime


class EventOut(_Out):
    id: str
    fact_id: str
    at: datetime
    action: EventAction
    actor: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None


class HistoryOut(_Out):
    fact: FactOut
    versions: list[FactOut]
    events: list[EventOut]
    evidence: list[EvidenceOut]


class SearchHitOut(_Out):
    fact: FactOut
    score: float
    text_rank: int | None
    vector_rank: int | None
    similarity: float | None


class SummaryOut(_Out):
    id: str
    kind: SummaryKind
    text: str
    period_start: datetime | None
    period_end: datetime | None
    session_id: str | None
    sources: list[str]
    created_at: datetime


class RecalledOut(_Out):
    id: str
    kind: RecalledKind = Field(description="`fact` or `summary`.")
    text: str
    score: float
    signals: dict[str, float] = Field(description="What found it and how it was weighed.")
    valid_from: datetime | None
    recorded_at: datetime
    quote: str | None
    fact: FactOut | None
    summary: SummaryOut | None


class CompactRecalledOut(_Out):
    id: str
    text: str
    date: str = Field(description="When it became true (else was recorded), YYYY-MM-DD.")
    status: str = Field(description="The fact's status (verified, unverified), or `summary`.")


class ContextOut(_Out):
    context: str = Field(description="The block to put in a system prompt.")
    degraded: list[str] = Field(
        default_factory=list,
        description="One sentence per part that was down and done without (the embedder, "
        "query rewriting); empty when everything worked.",
    )


class RunOut(_Out):
    id: str
    profile_id: str | None
    started_at: datetime
    finished_at: datetime | None
    duration_s: float | None
    status: str
    dry_run: bool
    sessions_seen: int
    sessions_consolidated: int
    sessions_failed: int
    facts_added: int
    facts_reinforced: int
    facts_superseded: int
    facts_disputed: int
    facts_rejected: int
    facts_expired: int
    messages_archived: int
    messages_purged: int
    llm_calls: int
    prompt_tokens: int
    completion_tokens: int
    rejections: list[dict[str, Any]]
    failures: list[dict[str, Any]]


class ForgetOut(_Out):
    erased: dict[str, int] = Field(description="How many rows went, per table.")


class ApiKeyOut(_Out):
    id: str
    name: str
    profiles: list[str]
    prefix: str | None
    admin: bool
    created_at: datetime
    revoked_at: datetime | None


class CreatedKeyOut(_Out):
    key: ApiKeyOut
    secret: str = Field(description="Shown this once: store it now, it cannot be read again.")
