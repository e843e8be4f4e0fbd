"""The response documents of the REST API, kept apart from the domain models of `somna.model`:
the API can rename, hide or add a field (a key's secret hash never leaves; a run gains
`duration_s`) without touching the domain."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from somna.interfaces.api.wire import ResponseBody
from somna.model import (
    ConflictStatus,
    EventAction,
    FactStatus,
    FactType,
    RecalledKind,
    Resolution,
    Role,
    RunCounts,
    SessionStatus,
    SummaryKind,
)

__all__ = [
    "AddedOut",
    "ApiKeyOut",
    "BatchOut",
    "CompactRecalledOut",
    "ConflictOut",
    "ConflictPairOut",
    "ContextOut",
    "CreatedKeyOut",
    "EventOut",
    "EvidenceOut",
    "FactOut",
    "ForgetOut",
    "HealthOut",
    "HistoryOut",
    "MessageOut",
    "OutcomeOut",
    "ProfileOut",
    "RecalledOut",
    "RunOut",
    "SearchHitOut",
    "SessionOut",
    "SimilarOut",
    "SummaryOut",
]


class HealthOut(ResponseBody):
    status: Literal["ok"] = "ok"
    version: str
    auth: bool


class ProfileOut(ResponseBody):
    id: str
    name: str
    settings: dict[str, Any]
    created_at: datetime


class SessionOut(ResponseBody):
    id: str
    key: str
    started_at: datetime
    last_message_at: datetime
    status: SessionStatus
    consolidated_at: datetime | None


class MessageOut(ResponseBody):
    id: str
    session_id: str
    seq: int
    role: Role
    content: str
    created_at: datetime
    meta: dict[str, Any]


class FactOut(ResponseBody):
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


class SimilarOut(ResponseBody):
    fact: FactOut
    similarity: float = Field(description="Cosine similarity to the new fact, 0 to 1.")


class AddedOut(ResponseBody):
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


class BatchOut(ResponseBody):
    added: list[AddedOut] = Field(description="One result per fact sent, in the same order.")


class ConflictOut(ResponseBody):
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


class OutcomeOut(ResponseBody):
    facts: list[FactOut]
    conflict: ConflictOut | None


class ConflictPairOut(ResponseBody):
    conflict: ConflictOut
    fact_a: FactOut
    fact_b: FactOut
    correction: FactOut | None


class EvidenceOut(ResponseBody):
    id: str
    fact_id: str
    session_id: str | None
    message_id: str | None
    quote: str
    observed_at: datetime


class EventOut(ResponseBody):
    id: str
    fact_id: str
    at: datetime
    action: EventAction
    actor: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None


class HistoryOut(ResponseBody):
    fact: FactOut
    versions: list[FactOut]
    events: list[EventOut]
    evidence: list[EvidenceOut]


class SearchHitOut(ResponseBody):
    fact: FactOut
    score: float
    text_rank: int | None
    vector_rank: int | None
    similarity: float | None


class SummaryOut(ResponseBody):
    id: str
    kind: SummaryKind
    text: str
    period_start: datetime | None
    period_end: datetime | None
    session_id: str | None
    sources: list[str]
    created_at: datetime


class RecalledOut(ResponseBody):
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


class CompactRecalledOut(ResponseBody):
    id: str
    text: str
    date: str = Field(description="When it became true (else was recorded), YYYY-MM-DD.")
    status: str = Field(description="The fact's status (verified, unverified), or `summary`.")


class ContextOut(ResponseBody):
    context: str = Field(description="The block to put in a system prompt.")
    degraded: list[str] = Field(
        default_factory=list,
        description="One sentence per part that was down and done without (the embedder, "
        "query rewriting); empty when everything worked.",
    )


class RunOut(ResponseBody, RunCounts):
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
    messages_archived: int
    messages_purged: int
    rejections: list[dict[str, Any]]
    failures: list[dict[str, Any]]


class ForgetOut(ResponseBody):
    erased: dict[str, int] = Field(description="How many rows went, per table.")


class ApiKeyOut(ResponseBody):
    id: str
    name: str
    profiles: list[str]
    prefix: str | None
    admin: bool
    created_at: datetime
    revoked_at: datetime | None


class CreatedKeyOut(ResponseBody):
    key: ApiKeyOut
    secret: str = Field(description="Shown this once: store it now, it cannot be read again.")
