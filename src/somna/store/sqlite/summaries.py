"""The summary side of a SQLite scope: digests of sessions and days, and the portrait."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

import numpy as np

from somna.errors import InvalidInputError
from somna.model import Summary, SummaryKind
from somna.store.sqlite.queries import fts_query, placeholders
from somna.store.sqlite.rows import ts
from somna.store.summaries import SummaryQueries

if TYPE_CHECKING:
    from somna.store.sqlite.store import SQLiteStore

__all__ = ["SQLiteSummaries"]


class SQLiteSummaries(SummaryQueries):
    """Mixed into `SQLiteScope`: the summary queries of one profile's transaction."""

    _conn: sqlite3.Connection
    _profile_id: str
    _store: SQLiteStore

    def summary_text_search(
        self, query: str, kinds: Sequence[SummaryKind], at: datetime, limit: int
    ) -> list[tuple[str, float]]:
        match = fts_query(query)
        if not match or not kinds:
            return []
        values = [k.value for k in kinds]
        rows = self._conn.execute(
            "SELECT s.id, bm25(summaries_fts) AS rank FROM summaries_fts "
            "JOIN summaries s ON s.rowid = summaries_fts.rowid "
            f"WHERE summaries_fts MATCH ? AND s.profile_id = ? AND s.kind IN "
            f"({placeholders(values)}) AND coalesce(s.period_start, s.created_at) <= ? "
            "ORDER BY rank LIMIT ?",
            (match, self._profile_id, *values, ts(at), limit),
        ).fetchall()
        return [(row["id"], -float(row["rank"])) for row in rows]

    def summary_vector_search(
        self, vector: np.ndarray, kinds: Sequence[SummaryKind], at: datetime, limit: int
    ) -> list[tuple[str, float]]:
        if not kinds:
            return []
        index = self._store.summary_index(self._conn, self._profile_id)
        if index is None:
            return []
        return index.search(vector, kinds, at, limit)

    def add_summary(self, summary: Summary, vector: list[float] | None) -> None:
        if summary.profile_id != self._profile_id:
            raise InvalidInputError(
                f"Summary {summary.id!r} does not belong to profile {self._profile_id!r}."
            )
        self._conn.execute(
            "INSERT INTO summaries (id, profile_id, kind, text, period_start, period_end, "
            "session_id, sources, created_at, embedding) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                summary.id,
                self._profile_id,
                summary.kind.value,
                summary.text,
                ts(summary.period_start),
                ts(summary.period_end),
                summary.session_id,
                json.dumps(summary.sources),
                ts(summary.created_at),
                None if vector is None else np.asarray(vector, dtype="<f4").tobytes(),
            ),
        )
