"""The request bodies of the REST API: what a client may send, and the bounds that protect the
server (sizes, counts); the domain still checks meaning. Settings sent here (a profile's
overrides, a run's idle_hours) are checked against the one table of `somna.config`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from somna.config import bounds, help_of, per_profile
from somna.interfaces.api.wire import RequestBody
from somna.memory import FactChanges, NewFact
from somna.memory.bulk import MAX_BATCH
from somna.memory.writes import Instant
from somna.model import FactType, Resolution, Role, Verdict

__all__ = [
    "ConflictResolveIn",
    "ConsolidateIn",
    "ContextIn",
    "FactIn",
    "FactPatch",
    "FactsIn",
    "KeyIn",
    "MessageIn",
    "MessagesIn",
    "ProfileIn",
    "RecallIn",
    "ResolveIn",
    "SearchIn",
]

Query = Annotated[str, Field(min_length=1, max_length=2000, description="Words or a question.")]
K = Annotated[int, Field(ge=1, le=100, description="How many results to return.")]


class ProfileIn(RequestBody):
    id: str = Field(
        min_length=1, max_length=128, description="Letters, digits or _ . @ : - (1 to 128)."
    )
    name: str | None = Field(default=None, max_length=200, description="A display name.")
    settings: dict[str, Any] = Field(
        default_factory=dict,
        description="The profile's own settings; `overrides` holds the global settings it "
        f"overrides ({', '.join(per_profile())}), each checked against its range.",
    )


class MessageIn(RequestBody):
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


class MessagesIn(RequestBody):
    messages: list[MessageIn] = Field(min_length=1, max_length=1000)


class FactIn(RequestBody, NewFact):
    """A fact to add: the fields of `somna.NewFact`."""


class FactsIn(RequestBody):
    """Facts to add in one call, each stored or reinforced as `POST …/facts` would."""

    facts: list[FactIn] = Field(
        min_length=1, max_length=MAX_BATCH, description="In order; a text given twice is one fact."
    )


class ResolveIn(RequestBody):
    existing_id: str = Field(min_length=1, max_length=64, description="The neighbor's id.")
    verdict: Verdict


class FactPatch(RequestBody, FactChanges):
    """A correction: the fields of `somna.FactChanges` to change."""


class ConflictResolveIn(RequestBody):
    resolution: Resolution
    correction: str | None = Field(
        default=None, min_length=1, max_length=2000, description="With `corrected` only."
    )


class SearchIn(RequestBody):
    query: Query
    k: K = 5
    as_of: Instant | None = None


class RecallIn(RequestBody):
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


class ContextIn(RequestBody):
    query: Query
    budget_tokens: int = Field(default=800, ge=1, le=100_000)
    k: K | None = None
    session_key: str | None = Field(default=None, min_length=1, max_length=256)


class ConsolidateIn(RequestBody):
    profile: str | None = Field(
        default=None,
        max_length=128,
        description="One profile (required for a key that is not an admin key), else all.",
    )
    dry_run: bool = False
    idle_hours: float | None = Field(
        default=None,
        ge=bounds("idle_hours")[0],
        le=bounds("idle_hours")[1],
        description=f"{help_of('idle_hours')} Default: the setting's value.",
    )
    limit: int | None = Field(default=None, ge=1, le=100_000)


class KeyIn(RequestBody):
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
