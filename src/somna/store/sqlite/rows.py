"""Conversions between domain objects and SQLite rows."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime

from somna.model import (
    ApiKey,
    Profile,
    utc,
)
from somna.store.base import SourceCursor

__all__ = [
    "cursor_from_row",
    "key_from_row",
    "profile_from_row",
    "ts",
]


def ts(value: datetime | None) -> str | None:
    """A timestamp as stored: ISO 8601 in UTC with microseconds, so text order is time order."""
    return None if value is None else utc(value).isoformat(timespec="microseconds")


def profile_from_row(row: sqlite3.Row) -> Profile:
    return Profile(
        id=row["id"],
        name=row["name"],
        settings=json.loads(row["settings"]),
        created_at=row["created_at"],
    )


def key_from_row(row: sqlite3.Row) -> ApiKey:
    data = dict(row)
    data["profiles"] = json.loads(data["profiles"])
    data["admin"] = bool(data["admin"])
    return ApiKey.model_validate(data)


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
