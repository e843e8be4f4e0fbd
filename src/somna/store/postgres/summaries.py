"""The summary side of a Postgres scope: digests of sessions and days, and the portrait."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np
from psycopg import Cursor

from somna.errors import InvalidInputError
from somna.model import Summary, SummaryKind
from somna.store.postgres.queries import (
    FLOAT4_ARRAY_OID,
    Float4ArrayLoader,
    text_match_sql,
    tsquery_texts,
)
from somna.store.postgres.rows import jsonb
from somna.store.summaries import SummaryQueries
from somna.store.vectors import SummaryIndex

if TYPE_CHECKING:
    from somna.store.postgres.store import PostgresStore

__all__ = ["PostgresSummaries"]

# Summaries are searched from the day (or session) they begin.
_START = "coalesce(s.period_start, s.created_at)"


class PostgresSummaries(SummaryQueries):
    """Mixed into `PostgresScope`: the summary queries of one profile's transaction."""

    _cur: Cursor[dict[str, Any]]
    _profile_id: str
    _store: PostgresStore
    _text_config: str
    _summaries_rev: int
    _summaries_dirty: bool

    def summary_text_search(
        self, query: str, kinds: Sequence[SummaryKind], at: datetime, limit: int
    ) -> list[tuple[str, float]]:
        exact, wide = tsquery_texts(query)
        if not exact or not kinds or limit <= 0:
            return []
        match_from, rank = text_match_sql("s")
        rows = self._cur.execute(
            f"SELECT s.id, {rank} AS rank FROM summaries s, {match_from} "
            "WHERE s.profile_id = %(profile)s AND s.tsv @@ w.query AND s.kind = ANY(%(kinds)s) "
            f"AND {_START} <= %(at)s ORDER BY rank DESC, s.id LIMIT %(limit)s",
            {
                "config": self._text_config,
                "exact": exact,
                "wide": wide,
                **self._searched(kinds, at, limit),
            },
        ).fetchall()
        return [(row["id"], float(row["rank"])) for row in rows]

    def summary_vector_search(
        self, vector: np.ndarray, kinds: Sequence[SummaryKind], at: datetime, limit: int
    ) -> list[tuple[str, float]]:
        if not kinds or limit <= 0 or vector.ndim != 1:
            return []
        query = np.asarray(vector, dtype=np.float32)
        if self._store.vector_mode == "pgvector":
            # Only summaries embedded like the query are comparable.
            rows = self._cur.execute(
                "SELECT s.id, -(s.embedding <#> %(vector)s) AS score FROM summaries s "
                "WHERE s.profile_id = %(profile)s AND s.embedding IS NOT NULL "
                "AND vector_dims(s.embedding) = %(dim)s AND s.kind = ANY(%(kinds)s) "
                f"AND {_START} <= %(at)s ORDER BY score DESC, s.id LIMIT %(limit)s",
                {"vector": query, "dim": query.size, **self._searched(kinds, at, limit)},
            ).fetchall()
            return [(row["id"], float(row["score"])) for row in rows]
        return self._summary_index(query.size).search(query, kinds, at, limit)

    def _searched(self, kinds: Sequence[SummaryKind], at: datetime, limit: int) -> dict[str, Any]:
        """What both searches ask: this profile's summaries of `kinds` begun by `at`, `limit`."""
        return {
            "profile": self._profile_id,
            "kinds": [k.value for k in kinds],
            "at": at,
            "limit": limit,
        }

    def _summary_index(self, dim: int) -> SummaryIndex:
        if not self._summaries_dirty:
            cached = self._store._cache.summaries(self._profile_id, self._summaries_rev, dim)
            if cached is not None:
                return cached
        cursor = self._cur.connection.cursor(binary=True)
        cursor.adapters.register_loader(FLOAT4_ARRAY_OID, Float4ArrayLoader)
        cursor.execute(
            f"SELECT s.id, s.kind, extract(epoch FROM {_START}) AS start, s.embedding "
            "FROM summaries s WHERE s.profile_id = %s AND array_length(s.embedding, 1) = %s",
            (self._profile_id, dim),
        )
        rows = cursor.fetchall()
        cursor.close()
        index = SummaryIndex(
            revision=self._summaries_rev,
            ids=[row[0] for row in rows],
            matrix=np.vstack([row[3] for row in rows]) if rows else np.zeros((0, dim), np.float32),
            kinds=np.array([row[1] for row in rows]),
            starts=np.array([float(row[2]) for row in rows]),
        )
        if not self._summaries_dirty:  # an index holding uncommitted rows is never shared
            self._store._cache.keep_summaries(self._profile_id, dim, index)
        return index

    def add_summary(self, summary: Summary, vector: list[float] | None) -> None:
        if summary.profile_id != self._profile_id:
            raise InvalidInputError(
                f"Summary {summary.id!r} does not belong to profile {self._profile_id!r}."
            )
        if (
            summary.session_id is not None
            and not self._cur.execute(
                "SELECT 1 FROM sessions WHERE profile_id = %s AND id = %s",
                (self._profile_id, summary.session_id),
            ).fetchone()
        ):
            raise InvalidInputError(
                f"Profile {self._profile_id!r} has no session with id {summary.session_id!r}."
            )
        # A `vector` or a real[], by the adapter of the store's mode (`_configure`).
        embedding = None if vector is None else np.asarray(vector, dtype=np.float32)
        self._cur.execute(
            "INSERT INTO summaries (id, profile_id, kind, text, period_start, period_end, "
            "session_id, sources, created_at, text_config, embedding) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                summary.id,
                self._profile_id,
                summary.kind.value,
                summary.text,
                summary.period_start,
                summary.period_end,
                summary.session_id,
                jsonb(summary.sources),
                summary.created_at,
                self._text_config,
                embedding,
            ),
        )
        self._cur.execute(
            "UPDATE profiles SET summaries_rev = summaries_rev + 1 WHERE id = %s",
            (self._profile_id,),
        )
        self._summaries_dirty = True
