"""The columns both backends store a fact and a conflict in, and which of them may change.

The two schemas name these columns alike, so the lists, and the mapping of a
row to a model object, live here once; a backend adds only how its driver
spells a value (SQLite's ISO text, Postgres's timestamptz).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any, Protocol

from somna.model import FROM_STORE, STATEMENT_FIELDS, Conflict, Fact, FactType, Session, utc
from somna.store.base import Candidate

__all__ = [
    "CANDIDATE_COLUMNS",
    "CONFLICT_COLUMNS",
    "CONFLICT_FIELDS",
    "FACT_COLUMNS",
    "FACT_FIELDS",
    "MESSAGE_COLUMNS",
    "MESSAGE_FIELDS",
    "MUTABLE_FACT_COLUMNS",
    "SUMMARY_COLUMNS",
    "SUMMARY_FIELDS",
    "Row",
    "candidate_from_row",
    "conflict_from_row",
    "conflict_values",
    "fact_from_row",
    "fact_values",
    "instant",
    "session_from_row",
]


class Row(Protocol):
    """A row as either driver returns it: a psycopg dict row or a `sqlite3.Row`."""

    def __getitem__(self, key: str, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...

    def __iter__(self) -> Iterator[Any]: ...


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

FACT_FIELDS = (
    "id",
    "profile_id",
    *STATEMENT_FIELDS,
    "recorded_at",
    "first_observed_at",
    *MUTABLE_FACT_COLUMNS,
)
"""A fact's columns: what it says and when it was first known, then what may change."""

CONFLICT_FIELDS = (
    "id",
    "profile_id",
    "fact_a_id",
    "fact_b_id",
    "status",
    "resolution",
    "correction",
    "correction_fact_id",
    "created_at",
    "deferred_until",
    "resolved_at",
    "resolved_by",
)

MESSAGE_FIELDS = ("id", "session_id", "seq", "role", "content", "created_at", "meta")
SUMMARY_FIELDS = (
    "id",
    "profile_id",
    "kind",
    "text",
    "period_start",
    "period_end",
    "session_id",
    "sources",
    "created_at",
)

FACT_COLUMNS = ", ".join(f"f.{name}" for name in FACT_FIELDS)
"""The fact columns of a query that names the facts table `f`."""
CANDIDATE_COLUMNS = "f.id, f.type, f.text, f.confidence, f.strength, f.valid_from, f.recorded_at"
"""The columns of a `Candidate`, in its order, of a query that names the facts table `f`."""
CONFLICT_COLUMNS = ", ".join(CONFLICT_FIELDS)
MESSAGE_COLUMNS = ", ".join(MESSAGE_FIELDS)
SUMMARY_COLUMNS = ", ".join(SUMMARY_FIELDS)


def fact_values(fact: Fact) -> dict[str, Any]:
    """The fact's columns, with `text_hash`, as Python values (enums as their values)."""
    values = {name: getattr(fact, name) for name in FACT_FIELDS}
    values["type"] = fact.type.value
    values["status"] = fact.status.value
    values["text_hash"] = fact.text_hash
    return values


def fact_from_row(row: Row) -> Fact:
    """The fact of a row of `FACT_COLUMNS`, its text trusted as it was checked when written."""
    return Fact.model_validate(_as_dict(row), context=FROM_STORE)


def candidate_from_row(row: Row) -> Candidate:
    """The candidate of a row of `CANDIDATE_COLUMNS`."""
    return Candidate(
        row["id"],
        FactType(row["type"]),
        row["text"],
        row["confidence"],
        row["strength"],
        instant(row["valid_from"]),
        instant(row["recorded_at"]),
    )


def instant(value: datetime | str) -> datetime:
    """A time as Postgres returns it, or as SQLite keeps it (ISO text), in UTC."""
    return utc(value if isinstance(value, datetime) else datetime.fromisoformat(value))


def _as_dict(row: Row) -> dict[str, Any]:
    """A psycopg dict row as it is; a `sqlite3.Row`, whose lookups by name scan its columns,
    read once in order with its names (three times faster)."""
    return row if isinstance(row, dict) else dict(zip(row.keys(), row, strict=True))


def conflict_values(conflict: Conflict) -> dict[str, Any]:
    """The conflict's columns as Python values (enums as their values)."""
    values = {name: getattr(conflict, name) for name in CONFLICT_FIELDS}
    values["status"] = conflict.status.value
    values["resolution"] = None if conflict.resolution is None else conflict.resolution.value
    return values


def session_from_row(row: Row) -> Session:
    return Session.model_validate(dict(row))


def conflict_from_row(row: Row) -> Conflict:
    return Conflict.model_validate({name: row[name] for name in CONFLICT_FIELDS})
