"""Which embedder made a database's vectors, and a re-embedding to another one.

A database keeps one embedder: vectors of two models (or two dimensions) side by
side would be compared as if they lived in one space, and ranked by noise. The
one-row table `embedder` names the model and its dimension; while a re-embedding
runs it also names the target and, per kind (facts, then summaries), the last row
done, so an interrupted run goes on from there. Rows are taken in id order, in
batches, each batch written in one transaction with its cursor.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np

from somna.store.sql import Params

__all__ = [
    "FINISH",
    "STATE",
    "EmbedderLedger",
    "EmbedderRecord",
    "EmbedderState",
    "LedgerReads",
    "PendingText",
    "start_sql",
    "state_from_row",
]

Kind = Literal["fact", "summary"]


@dataclass(frozen=True)
class EmbedderRecord:
    """An embedding model as a database knows it: its name and its vectors' length."""

    name: str
    dim: int

    def __str__(self) -> str:
        return f"{self.name} ({self.dim} dimensions)"


@dataclass(frozen=True)
class EmbedderState:
    """The database's embedder (None before its first vector, in a database made before
    this was recorded) and the one a re-embedding under way is moving it to."""

    current: EmbedderRecord | None
    target: EmbedderRecord | None = None


@dataclass(frozen=True)
class PendingText:
    """A fact or summary whose vector a re-embedding has still to replace."""

    kind: Kind
    id: str
    text: str


class EmbedderLedger(Protocol):
    """A backend's record of its embedder, and the steps of a re-embedding."""

    def state(self) -> EmbedderState | None: ...

    def claim(self, record: EmbedderRecord) -> EmbedderState:
        """Record `record` as the embedder if none is; the state either way."""
        ...

    def start(self, target: EmbedderRecord) -> EmbedderState:
        """Begin (or, for the same target, resume) a re-embedding to `target`."""
        ...

    def pending(self, limit: int) -> list[PendingText]:
        """The next rows to re-embed, facts first, at most `limit`."""
        ...

    def counts(self) -> tuple[int, int]:
        """(rows already re-embedded, rows in all) of the re-embedding under way."""
        ...

    def save(self, rows: Sequence[tuple[PendingText, np.ndarray]]) -> None:
        """Replace these rows' vectors and move the cursors past them, in one transaction."""
        ...

    def finish(self) -> EmbedderState:
        """Make the target the database's embedder; caches of every profile start over."""
        ...


STATE = "SELECT name, dim, target_name, target_dim FROM embedder WHERE id = 1"
CLAIM = (
    "INSERT INTO embedder (id, name, dim) VALUES (1, :name, :dim) "
    "ON CONFLICT (id) DO UPDATE SET name = :name, dim = :dim WHERE embedder.name IS NULL"
)
PENDING_FACTS = (
    "SELECT id, text FROM facts WHERE id > (SELECT coalesce(facts_after, '') FROM embedder) "
    "ORDER BY id LIMIT :limit"
)
PENDING_SUMMARIES = (
    "SELECT id, text FROM summaries "
    "WHERE id > (SELECT coalesce(summaries_after, '') FROM embedder) ORDER BY id LIMIT :limit"
)
REMAINING = (
    "SELECT (SELECT count(*) FROM facts WHERE id > (SELECT coalesce(facts_after, '') "
    "FROM embedder)) + (SELECT count(*) FROM summaries WHERE id > "
    "(SELECT coalesce(summaries_after, '') FROM embedder))"
)
TOTAL = "SELECT (SELECT count(*) FROM facts) + (SELECT count(*) FROM summaries)"
FINISH = (
    "UPDATE embedder SET name = target_name, dim = target_dim, target_name = NULL, "
    "target_dim = NULL, facts_after = NULL, summaries_after = NULL "
    "WHERE target_name IS NOT NULL"
)


def start_sql(state: EmbedderState | None, target: EmbedderRecord) -> str:
    """The statement that starts a re-embedding to `target` from `state`: a run to the
    same target goes on where it stopped, one to another target starts over."""
    if state is not None and state.target == target:
        return "SELECT 1"
    return (
        "INSERT INTO embedder (id, target_name, target_dim, facts_after, summaries_after) "
        "VALUES (1, :name, :dim, '', '') ON CONFLICT (id) DO UPDATE SET "
        "target_name = :name, target_dim = :dim, facts_after = '', summaries_after = ''"
    )


def state_from_row(row: Any) -> EmbedderState | None:
    """The state of an `embedder` row read by `STATE`, None without one."""
    if row is None:
        return None
    name, dim, target_name, target_dim = row
    return EmbedderState(
        current=None if name is None else EmbedderRecord(str(name), int(dim)),
        target=None if target_name is None else EmbedderRecord(str(target_name), int(target_dim)),
    )


class LedgerReads(ABC):
    """The steps of an `EmbedderLedger` that read the same on both backends, each statement
    run on its own; a backend adds the transactions of `start`, `save` and `finish`."""

    @staticmethod
    def _by_table(
        rows: Sequence[tuple[PendingText, np.ndarray]],
    ) -> Iterator[tuple[str, list[tuple[str, np.ndarray]], str]]:
        """What `save` writes, per table (facts first): the table, its (id, vector) pairs
        and the last id, where that table's cursor moves; a table with none is left out."""
        for kind, table in (("fact", "facts"), ("summary", "summaries")):
            mine = [(row.id, vector) for row, vector in rows if row.kind == kind]
            if mine:
                yield table, mine, max(row_id for row_id, _ in mine)

    @abstractmethod
    def _rows(self, sql: str, params: Params | None = None) -> list[Any]:
        """The rows of one statement (`:name` parameters), none for a write."""

    def state(self) -> EmbedderState | None:
        rows = self._rows(STATE)
        return state_from_row(rows[0] if rows else None)

    def claim(self, record: EmbedderRecord) -> EmbedderState:
        self._rows(CLAIM, {"name": record.name, "dim": record.dim})
        state = self.state()
        assert state is not None
        return state

    def pending(self, limit: int) -> list[PendingText]:
        facts = self._rows(PENDING_FACTS, {"limit": limit})
        found = [PendingText("fact", row[0], row[1]) for row in facts]
        if len(found) < limit:
            summaries = self._rows(PENDING_SUMMARIES, {"limit": limit - len(found)})
            found += [PendingText("summary", row[0], row[1]) for row in summaries]
        return found

    def counts(self) -> tuple[int, int]:
        total = int(self._rows(TOTAL)[0][0])
        remaining = int(self._rows(REMAINING)[0][0])
        return total - remaining, total
