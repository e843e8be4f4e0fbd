"""Conversions between domain objects and PostgreSQL rows (psycopg dict rows)."""

from __future__ import annotations

from typing import Any

from psycopg.types.json import Jsonb

from somna.model import (
    ApiKey,
    Profile,
)
from somna.store.base import SourceCursor

__all__ = [
    "cursor_from_row",
    "jsonb",
    "key_from_row",
    "profile_from_row",
]


def jsonb(value: dict[str, Any] | list[Any] | None) -> Jsonb | None:
    return None if value is None else Jsonb(value)


def profile_from_row(row: dict[str, Any]) -> Profile:
    return Profile(
        id=row["id"], name=row["name"], settings=row["settings"], created_at=row["created_at"]
    )


def key_from_row(row: dict[str, Any]) -> ApiKey:
    return ApiKey.model_validate(row)


def cursor_from_row(row: dict[str, Any]) -> SourceCursor:
    return SourceCursor(**row)
