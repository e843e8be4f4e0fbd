"""Conversions between domain objects and PostgreSQL rows (psycopg dict rows)."""

from __future__ import annotations

from typing import Any

from psycopg.types.json import Jsonb

from somna.model import (
    ApiKey,
    Conflict,
    Evidence,
    Fact,
    FactEvent,
    Message,
    Profile,
    Session,
    Summary,
)
from somna.store.base import SourceCursor

__all__ = [
    "CONFLICT_COLUMNS",
    "CONFLICT_FIELDS",
    "FACT_COLUMNS",
    "FACT_FIELDS",
    "MESSAGE_COLUMNS",
    "MUTABLE_FACT_COLUMNS",
    "SUMMARY_COLUMNS",
    "conflict_from_row",
    "conflict_params",
    "cursor_from_row",
    "event_from_row",
    "evidence_from_row",
    "fact_from_row",
    "fact_params",
    "jsonb",
    "key_from_row",
    "message_from_row",
    "profile_from_row",
    "session_from_row",
    "summary_from_row",
]

FACT_FIELDS = (
    "id",
    "profile_id",
    "type",
    "category",
    "subject",
    "predicate",
    "object",
    "text",
    "status",
    "confidence",
    "valid_from",
    "valid_to",
    "recorded_at",
    "superseded_at",
    "superseded_by",
    "retired_at",
    "first_observed_at",
    "last_verified_at",
    "expires_at",
    "last_recalled_at",
    "recall_count",
    "strength",
    "judged_at",
)
FACT_COLUMNS = ", ".join(f"f.{name}" for name in FACT_FIELDS)

MUTABLE_FACT_COLUMNS = (
    "status",
    "confidence",
    "valid_from",
    "valid_to",
    "superseded_at",
    "superseded_by",
    "retired_at",
    "last_verified_at",
    "expires_at",
    "last_recalled_at",
    "recall_count",
    "strength",
    "judged_at",
)
"""Columns a fact may change in place; a change of wording or meaning is a new version."""

CONFLICT_FIELDS = (
    "id",
    "profile_id",
    "fact_a",
    "fact_b",
    "status",
    "resolution",
    "correction",
    "correction_fact_id",
    "created_at",
    "deferred_until",
    "resolved_at",
    "resolved_by",
)
CONFLICT_COLUMNS = ", ".join(CONFLICT_FIELDS)


MESSAGE_COLUMNS = "id, session_id, seq, role, content, created_at, meta"
SUMMARY_COLUMNS = (
    "id, profile_id, kind, text, period_start, period_end, session_id, sources, created_at"
)


def jsonb(value: dict[str, Any] | list[Any] | None) -> Jsonb | None:
    return None if value is None else Jsonb(value)


def fact_params(fact: Fact) -> dict[str, Any]:
    """The fact's columns as query parameters; datetimes stay datetimes (timestamptz)."""
    params = {name: getattr(fact, name) for name in FACT_FIELDS}
    params["type"] = fact.type.value
    params["status"] = fact.status.value
    params["text_hash"] = fact.text_hash
    return params


def fact_from_row(row: dict[str, Any]) -> Fact:
    return Fact.model_validate({name: row[name] for name in FACT_FIELDS})


def evidence_from_row(row: dict[str, Any]) -> Evidence:
    data = dict(row)
    data.pop("profile_id", None)
    data.pop("seq", None)
    return Evidence.model_validate(data)


def event_from_row(row: dict[str, Any]) -> FactEvent:
    data = dict(row)
    data.pop("profile_id", None)
    data.pop("seq", None)
    return FactEvent.model_validate(data)


def conflict_params(conflict: Conflict) -> dict[str, Any]:
    params = {name: getattr(conflict, name) for name in CONFLICT_FIELDS}
    params["status"] = conflict.status.value
    params["resolution"] = None if conflict.resolution is None else conflict.resolution.value
    return params


def conflict_from_row(row: dict[str, Any]) -> Conflict:
    return Conflict.model_validate({name: row[name] for name in CONFLICT_FIELDS})


def profile_from_row(row: dict[str, Any]) -> Profile:
    return Profile(
        id=row["id"], name=row["name"], settings=row["settings"], created_at=row["created_at"]
    )


def session_from_row(row: dict[str, Any]) -> Session:
    return Session.model_validate(row)


def message_from_row(row: dict[str, Any]) -> Message:
    data = dict(row)
    data.pop("profile_id", None)
    return Message.model_validate(data)


def summary_from_row(row: dict[str, Any]) -> Summary:
    return Summary.model_validate(row)


def key_from_row(row: dict[str, Any]) -> ApiKey:
    return ApiKey.model_validate(row)


def cursor_from_row(row: dict[str, Any]) -> SourceCursor:
    return SourceCursor(**row)
