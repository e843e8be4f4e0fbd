"""Conversions between domain objects and SQLite rows."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import Any

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
    utc,
)
from somna.store.base import SourceCursor

__all__ = [
    "FACT_COLUMNS",
    "conflict_from_row",
    "conflict_params",
    "cursor_from_row",
    "cursor_params",
    "event_from_row",
    "evidence_from_row",
    "fact_from_row",
    "fact_params",
    "key_from_row",
    "message_from_row",
    "profile_from_row",
    "session_from_row",
    "summary_from_row",
    "ts",
]

FACT_COLUMNS = (
    "id, profile_id, type, category, subject, predicate, object, text, status, confidence, "
    "valid_from, valid_to, recorded_at, superseded_at, superseded_by, retired_at, "
    "first_observed_at, last_verified_at, expires_at, last_recalled_at, recall_count, strength, "
    "judged_at"
)
_FACT_FIELDS = [name.strip() for name in FACT_COLUMNS.split(",")]


def ts(value: datetime | None) -> str | None:
    """A timestamp as stored: ISO 8601 in UTC with microseconds, so text order is time order."""
    return None if value is None else utc(value).isoformat(timespec="microseconds")


def _row_dict(row: sqlite3.Row) -> dict[str, Any]:
    return {key: row[key] for key in row.keys()}  # noqa: SIM118 - sqlite3.Row is not a mapping


def fact_params(fact: Fact) -> dict[str, Any]:
    data = fact.model_dump()
    params = {name: data[name] for name in _FACT_FIELDS}
    for name, value in params.items():
        if isinstance(value, datetime):
            params[name] = ts(value)
    params["type"] = fact.type.value
    params["status"] = fact.status.value
    params["text_hash"] = fact.text_hash
    return params


def fact_from_row(row: sqlite3.Row) -> Fact:
    return Fact.model_validate({name: row[name] for name in _FACT_FIELDS})


def evidence_from_row(row: sqlite3.Row) -> Evidence:
    data = _row_dict(row)
    data.pop("profile_id", None)
    return Evidence.model_validate(data)


def event_from_row(row: sqlite3.Row) -> FactEvent:
    data = _row_dict(row)
    data.pop("profile_id", None)
    for name in ("before", "after"):
        data[name] = json.loads(data[name]) if data[name] else None
    return FactEvent.model_validate(data)


def conflict_params(conflict: Conflict) -> dict[str, Any]:
    data = conflict.model_dump(mode="json")
    for name in ("created_at", "deferred_until", "resolved_at"):
        data[name] = ts(getattr(conflict, name))
    return data


def conflict_from_row(row: sqlite3.Row) -> Conflict:
    return Conflict.model_validate(_row_dict(row))


def profile_from_row(row: sqlite3.Row) -> Profile:
    return Profile(
        id=row["id"],
        name=row["name"],
        settings=json.loads(row["settings"]),
        created_at=row["created_at"],
    )


def session_from_row(row: sqlite3.Row) -> Session:
    return Session.model_validate(_row_dict(row))


def message_from_row(row: sqlite3.Row) -> Message:
    data = _row_dict(row)
    data.pop("profile_id", None)
    data["meta"] = json.loads(data["meta"])
    return Message.model_validate(data)


def summary_from_row(row: sqlite3.Row) -> Summary:
    data = _row_dict(row)
    data.pop("embedding", None)
    data["sources"] = json.loads(data["sources"])
    return Summary.model_validate(data)


def key_from_row(row: sqlite3.Row) -> ApiKey:
    data = _row_dict(row)
    data["profiles"] = json.loads(data["profiles"])
    data["admin"] = bool(data["admin"])
    return ApiKey.model_validate(data)


def cursor_params(cursor: SourceCursor) -> dict[str, Any]:
    return {
        "profile_id": cursor.profile_id,
        "source": cursor.source,
        "key": cursor.key,
        "segment": cursor.segment,
        "session_key": cursor.session_key,
        "after_row_id": cursor.after_row_id,
        "last_row_id": cursor.last_row_id,
        "last_change_seen_at": ts(cursor.last_change_seen_at),
        "purged_at": ts(cursor.purged_at),
    }


def cursor_from_row(row: sqlite3.Row) -> SourceCursor:
    purged = row["purged_at"]
    return SourceCursor(
        source=row["source"],
        key=row["key"],
        segment=row["segment"],
        profile_id=row["profile_id"],
        session_key=row["session_key"],
        after_row_id=row["after_row_id"],
        last_row_id=row["last_row_id"],
        last_change_seen_at=utc(datetime.fromisoformat(row["last_change_seen_at"])),
        purged_at=None if purged is None else utc(datetime.fromisoformat(purged)),
    )
