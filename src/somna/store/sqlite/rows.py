"""A timestamp as a SQLite column keeps it: text that sorts in time order."""

from __future__ import annotations

from datetime import datetime

from somna.model import utc

__all__ = ["ts"]


def ts(value: datetime | None) -> str | None:
    """A timestamp as stored: ISO 8601 in UTC with microseconds, so text order is time order."""
    return None if value is None else utc(value).isoformat(timespec="microseconds")
