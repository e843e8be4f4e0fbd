"""`SQLiteScope`: the reads and writes of one profile inside one SQLite transaction."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from somna.errors import InvalidInputError, StoreError
from somna.model import (
    Fact,
)
from somna.store.base import Eligibility
from somna.store.columns import (
    fact_values,
)
from somna.store.facts import UPDATE_FACT, FactQueries
from somna.store.french import french_terms
from somna.store.sql import Params
from somna.store.sqlite.queries import (
    bind,
    fts_match,
    fts_words,
)
from somna.store.sqlite.sessions import SQLiteSessions
from somna.store.sqlite.summaries import SQLiteSummaries
from somna.store.sqlite.threads import SQLiteThreads
from somna.store.vectors import VectorIndex

if TYPE_CHECKING:
    from somna.store.sqlite.store import SQLiteStore

__all__ = ["SQLiteScope"]


class SQLiteScope(FactQueries, SQLiteSessions, SQLiteSummaries, SQLiteThreads):
    """Reads and writes of one profile inside one transaction (a `Reader` and a `Writer`)."""

    _profile_by_id = "+f.profile_id"
    _position = "instr"
    _insertion_order = "rowid"

    def __init__(
        self, store: SQLiteStore, conn: sqlite3.Connection, profile_id: str, facts_rev: int
    ) -> None:
        self._store = store
        self._conn = conn
        self._profile_id = profile_id
        self._revision_at_start = facts_rev
        self._revision_after: int | None = None
        self._patches: list[tuple[Fact, np.ndarray | None]] = []

    @property
    def profile_id(self) -> str:
        return self._profile_id

    # -- statements, for the shared queries ---------------------------------------------

    def _all(self, sql: str, params: Params) -> list[Any]:
        return self._conn.execute(sql, bind(params)).fetchall()

    def _one(self, sql: str, params: Params) -> Any | None:
        return self._conn.execute(sql, bind(params)).fetchone()

    def _count(self, sql: str, params: Params) -> int:
        return int(self._conn.execute(sql, bind(params)).rowcount)

    def _many(self, sql: str, params: Iterable[Params]) -> None:
        self._conn.executemany(sql, [bind(p) for p in params])

    def _json(self, value: Any) -> Any:
        return None if value is None else json.loads(value)

    def _one_of(
        self, column: str, name: str, values: Sequence[object]
    ) -> tuple[str, dict[str, object]]:
        params = {f"{name}{i}": value for i, value in enumerate(values)}
        return f"{column} IN ({', '.join(':' + p for p in params)})", params

    # -- search -------------------------------------------------------------------------

    def text_search(self, query: str, eligible: Eligibility, limit: int) -> list[tuple[str, float]]:
        """English (the main index) and French (`somna.store.french`) matches, each fact at
        its better rank of the two."""
        total = self._fact_total()
        found = dict(self._index_search("facts_fts", fts_words(query), total, eligible, limit))
        french = list(dict.fromkeys(french_terms(query)))
        for fact_id, score in self._index_search("facts_french", french, total, eligible, limit):
            found[fact_id] = max(score, found.get(fact_id, score))
        return sorted(found.items(), key=lambda hit: -hit[1])[:limit]

    def word_search(self, query: str, eligible: Eligibility, limit: int) -> list[tuple[str, float]]:
        total = self._fact_total()
        return self._index_search("facts_fts", fts_words(query), total, eligible, limit)

    def _fact_total(self) -> int:
        """The facts the store has held (any profile): what a word's share is taken of."""
        return int(self._conn.execute("SELECT coalesce(max(rowid), 0) FROM facts").fetchone()[0])

    def _index_search(
        self, index: str, words: list[str], total: int, eligible: Eligibility, limit: int
    ) -> list[tuple[str, float]]:
        kept = self._store.term_counts.selective(
            words, total, partial(self._facts_holding, index), index
        )
        return self._matches(index, kept, eligible, limit)

    def _matches(
        self, index: str, words: list[str], eligible: Eligibility, limit: int
    ) -> list[tuple[str, float]]:
        if not words:
            return []
        where, params = self._eligible(eligible)
        rows = self._all(
            f"SELECT f.id, bm25({index}) AS rank FROM {index} "
            f"JOIN facts f ON f.rowid = {index}.rowid "
            f"WHERE {index} MATCH :match AND f.profile_id = :profile AND {where} "
            "ORDER BY rank LIMIT :limit",
            {"match": fts_match(words), "profile": self._profile_id, "limit": limit, **params},
        )
        return [(row["id"], -float(row["rank"])) for row in rows]

    def _facts_holding(self, index: str, word: str, cap: int) -> int:
        """How many facts of the store (any profile) hold `word`, counting at most `cap`."""
        row = self._conn.execute(
            f"SELECT count(*) FROM (SELECT 1 FROM {index} WHERE {index} MATCH ? LIMIT ?)",
            (fts_match([word]), cap),
        ).fetchone()
        return int(row[0])

    def vector_search(
        self, vector: np.ndarray, eligible: Eligibility, limit: int
    ) -> list[tuple[str, float]]:
        return self.vector_search_many(vector[None, :], eligible, limit)[0]

    def vector_search_many(
        self, vectors: np.ndarray, eligible: Eligibility, limit: int
    ) -> list[list[tuple[str, float]]]:
        if self._patches:
            cached = self._store.cached_fact_index(self._profile_id, self._revision_at_start)
            if cached is not None:
                _check_width(cached, vectors)
                return cached.search_patched(vectors, self._patches, eligible, limit)
        revision = self._revision_at_start if self._revision_after is None else self._revision_after
        index = self._store.fact_index(self._conn, self._profile_id, revision)
        if index is None:
            return [[] for _ in vectors]
        _check_width(index, vectors)
        return index.search_many(vectors, eligible, limit)

    # -- writes -------------------------------------------------------------------------

    def _upsert_fact(self, fact: Fact, vector: list[float] | None) -> None:
        """A fact given with its vector is a new one (`lifecycle.create`): inserted at once;
        any other is updated, and must exist."""
        params = bind(fact_values(fact))
        if vector is not None:
            array = np.asarray(vector, dtype="<f4")
            columns = [*params, "embedding"]
            if self._conn.execute(
                f"INSERT INTO facts ({', '.join(columns)}) "
                f"VALUES ({', '.join(':' + c for c in columns)}) ON CONFLICT (id) DO NOTHING",
                {**params, "embedding": array.tobytes()},
            ).rowcount:
                self._patches.append((fact, array))
                return
        if self._conn.execute(UPDATE_FACT, params).rowcount:
            self._patches.append((fact, None))
            return
        raise InvalidInputError(f"Profile {self._profile_id!r} has no fact with id {fact.id!r}.")

    def patch_index(self) -> None:
        """After commit: bring the cached vector index up to date without reloading it."""
        if self._revision_after is not None:
            self._store.patch_fact_index(
                self._profile_id, self._revision_after - 1, self._revision_after, self._patches
            )


def _check_width(index: VectorIndex, vectors: np.ndarray) -> None:
    if vectors.shape[1:] != (index.dim,):
        raise StoreError(
            f"This profile's facts were embedded in {index.dim} dimensions and the query in "
            f"{vectors.shape[-1]}: the embedder changed, so re-embed the facts or switch back."
        )
