"""A JSON value as a Postgres column takes it: jsonb."""

from __future__ import annotations

from typing import Any

from psycopg.types.json import Jsonb

__all__ = ["jsonb"]


def jsonb(value: dict[str, Any] | list[Any] | None) -> Jsonb | None:
    return None if value is None else Jsonb(value)
