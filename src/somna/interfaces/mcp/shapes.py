"""What the MCP tools take and give: the values each argument accepts, spelt out for the JSON
schema, and the compact JSON a model reads for a fact, a conflict or a recalled item (empty
fields left out: a model pays for every token)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, get_args

from pydantic import Field

from somna.memory import Recalled
from somna.memory.results import Found
from somna.model import Conflict, Fact

__all__ = [
    "CONFLICT_STATUSES",
    "FACT_STATUSES",
    "FACT_TYPES",
    "RESOLUTIONS",
    "VERDICTS",
    "ConflictStatusName",
    "Count",
    "FactStatusName",
    "FactTypeName",
    "Limit",
    "Offset",
    "ResolutionName",
    "Tools",
    "VerdictName",
    "conflict_view",
    "fact_view",
    "recalled_view",
    "with_degraded",
]

FactTypeName = Literal["fact", "entity", "glossary", "instruction", "persona", "other"]
FactStatusName = Literal["unverified", "verified", "disputed", "superseded", "retired", "expired"]
VerdictName = Literal["duplicate", "supersedes", "contradicts", "distinct"]
ResolutionName = Literal["a_true", "b_true", "neither", "corrected", "defer"]
ConflictStatusName = Literal["open", "deferred", "resolved"]
Count = Annotated[int, Field(ge=1, le=100)]
Limit = Annotated[int, Field(ge=1, le=1000)]
Offset = Annotated[int, Field(ge=0)]

FACT_TYPES: tuple[str, ...] = get_args(FactTypeName)
FACT_STATUSES: tuple[str, ...] = get_args(FactStatusName)
VERDICTS: tuple[str, ...] = get_args(VerdictName)
RESOLUTIONS: tuple[str, ...] = get_args(ResolutionName)
CONFLICT_STATUSES: tuple[str, ...] = get_args(ConflictStatusName)
"""The values each tool accepts, spelt out for the JSON schema (a test pins them to the enums)."""

Tools = dict[str, Callable[..., dict[str, Any]]]
"""Tools by name, each a function whose docstring is its description."""

_WHAT = ("id", "type", "category", "subject", "text")
_HOW_SURE = ("status", "confidence")
_SINCE_WHEN = ("valid_from", "valid_to", "recorded_at", "superseded_by", "expires_at")
_SHOWN = {*_WHAT, *_HOW_SURE, *_SINCE_WHEN}
"""The fields of a fact a model reads: what, how sure, since when."""


def fact_view(fact: Fact) -> dict[str, Any]:
    """A fact as the model reads it: what, how sure, since when; empty fields left out."""
    data = fact.model_dump(mode="json", include=_SHOWN)
    return {name: value for name, value in data.items() if value is not None}


def conflict_view(conflict: Conflict) -> dict[str, Any]:
    data = conflict.model_dump(mode="json", exclude={"profile_id", "fact_a_id", "fact_b_id"})
    return {name: value for name, value in data.items() if value is not None}


def recalled_view(item: Recalled) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": item.id,
        "kind": item.kind,
        "text": item.text,
        "score": round(item.score, 4),
        "valid_from": None if item.valid_from is None else item.valid_from.isoformat(),
        "recorded_at": item.recorded_at.isoformat(),
    }
    if item.fact is not None:
        data["type"] = item.fact.type.value
        data["status"] = item.fact.status.value
        data["confidence"] = item.fact.confidence
    if item.quote is not None:
        data["quote"] = item.quote
    return {name: value for name, value in data.items() if value is not None}


def with_degraded(answer: dict[str, Any], found: Found[Any]) -> dict[str, Any]:
    """The answer with `degraded` (one sentence per part that was down) when a part was."""
    return {**answer, "degraded": found.degraded} if found.degraded else answer
