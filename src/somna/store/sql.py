"""How the store's shared code runs a statement on either backend.

A statement that reads the same on SQLite and Postgres is written once, in the
module of `store/` that decides what it is for, with named `:name` parameters
(SQLite's own style; the Postgres scope rewrites them to `%(name)s`). Values
travel as Python objects: each backend binds them (SQLite stores a timestamp as
ISO text, Postgres as timestamptz) and `Json` marks a value stored as JSON.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Json", "Params", "Statements"]

Params = Mapping[str, object]


@dataclass(frozen=True)
class Json:
    """A value stored as JSON: text on SQLite, jsonb on Postgres."""

    value: Any


class Statements(ABC):
    """What a backend's scope gives the shared algorithms: one statement at a time, in
    its transaction."""

    @abstractmethod
    def _all(self, sql: str, params: Params) -> list[Any]:
        """Every row the statement returns (rows read by name)."""

    @abstractmethod
    def _one(self, sql: str, params: Params) -> Any | None:
        """The statement's first row, or None."""

    @abstractmethod
    def _count(self, sql: str, params: Params) -> int:
        """Run the statement; how many rows it changed."""

    @abstractmethod
    def _many(self, sql: str, params: Iterable[Params]) -> None:
        """Run the statement once for each set of parameters."""

    @abstractmethod
    def _json(self, value: Any) -> Any:
        """A JSON column's value as read, as Python data."""

    @abstractmethod
    def _one_of(
        self, column: str, name: str, values: Sequence[object]
    ) -> tuple[str, dict[str, object]]:
        """`column` equal to one of `values`: the SQL, with named parameters that begin
        with `name`, and those parameters (a list on SQLite, an array on Postgres)."""
