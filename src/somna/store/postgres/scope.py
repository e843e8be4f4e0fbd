"""`PostgresScope`: the reads and writes of one profile inside one Postgres transaction.

Every query names `profile_id`, and every value travels as a bound parameter:
the only text put into SQL is this module's own column names.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from psycopg import Cursor

from somna.errors import InvalidInputError, StoreError
from somna.model import (
    Fact,
    FactStatus,
)
from somna.store.base import Eligibility
from somna.store.columns import (
    FACT_FIELDS,
    fact_values,
)
from somna.store.facts import UPDATE_FACT, FactQueries
from somna.store.french import FRENCH_STOP_WORDS, fold
from somna.store.postgres.hnsw import count_sql, search_settings, search_sql
from somna.store.postgres.queries import (
    FLOAT4_ARRAY_OID,
    Float4ArrayLoader,
    bind,
    named,
    query_words,
    text_match_sql,
    tsquery_of,
)
from somna.store.postgres.sessions import PostgresSessions
from somna.store.postgres.summaries import PostgresSummaries
from somna.store.postgres.threads import PostgresThreads
from somna.store.sql import Params
from somna.store.vectors import INDEXED_STATUSES, VectorIndex

if TYPE_CHECKING:
    from somna.store.postgres.store import PostgresStore

__all__ = ["PostgresScope"]

_INSERTED = (*FACT_FIELDS, "text_hash", "text_config", "embedding")
_INSERT_FACT = (
    f"INSERT INTO facts ({', '.join(_INSERTED)}) "
    f"VALUES ({', '.join(f'%({c})s' for c in _INSERTED)}) ON CONFLICT (id) DO NOTHING"
)


class PostgresScope(FactQueries, PostgresSessions, PostgresSummaries, PostgresThreads):
    """Reads and writes of one profile inside one transaction (a `Reader` and a `Writer`)."""

    def __init__(
        self,
        store: PostgresStore,
        cursor: Cursor[dict[str, Any]],
        profile_id: str,
        *,
        revision: int,
        summaries_rev: int,
        text_config: str,
        embedding_dim: int | None,
        hnsw: bool = False,
    ) -> None:
        self._store = store
        self._cur = cursor
        self._profile_id = profile_id
        self._revision = revision
        self._revision_after: int | None = None
        self._summaries_rev = summaries_rev
        self._summaries_dirty = False
        self._text_config = text_config
        self._dim = embedding_dim
        self._hnsw_valid = hnsw  # the profile's HNSW index was valid when this scope began
        self.patches: list[tuple[Fact, np.ndarray | None]] = []
        """What this scope wrote to facts, to patch a cached vector index after commit."""

    @property
    def profile_id(self) -> str:
        return self._profile_id

    # -- statements, for the shared queries ---------------------------------------------

    def _all(self, sql: str, params: Params) -> list[Any]:
        return self._cur.execute(named(sql), bind(params)).fetchall()

    def _one(self, sql: str, params: Params) -> Any | None:
        return self._cur.execute(named(sql), bind(params)).fetchone()

    def _count(self, sql: str, params: Params) -> int:
        return int(self._cur.execute(named(sql), bind(params)).rowcount)

    def _many(self, sql: str, params: Iterable[Params]) -> None:
        self._cur.executemany(named(sql), [bind(p) for p in params])

    def _json(self, value: Any) -> Any:
        return value  # psycopg reads jsonb as Python data

    @property
    def embedding_dim(self) -> int | None:
        """The dimension of the profile's embeddings; None until its first fact."""
        return self._dim

    @property
    def cursor(self) -> Cursor[dict[str, Any]]:
        """The transaction's cursor, for the store's own profile-wide statements."""
        return self._cur

    @property
    def changed_revisions(self) -> tuple[int, int] | None:
        """(facts_rev before, after) when this scope wrote facts; None otherwise."""
        if self._revision_after is None:
            return None
        return self._revision, self._revision_after

    def _one_of(
        self, column: str, name: str, values: Sequence[object]
    ) -> tuple[str, dict[str, object]]:
        return f"{column} = ANY(:{name})", {name: list(values)}

    # -- search -------------------------------------------------------------------------

    def text_search(self, query: str, eligible: Eligibility, limit: int) -> list[tuple[str, float]]:
        """Matches in the profile's configuration and in French (`tsv_french`), each fact at
        its better rank of the two."""
        if limit <= 0:
            return []
        total = self._fact_total()
        words = query_words(query)
        found = dict(self._english(words, total, eligible, limit))
        for fact_id, score in self._french(words, total, eligible, limit):
            found[fact_id] = max(score, found.get(fact_id, score))
        return sorted(found.items(), key=lambda hit: -hit[1])[:limit]

    def word_search(self, query: str, eligible: Eligibility, limit: int) -> list[tuple[str, float]]:
        if limit <= 0:
            return []
        return self._english(query_words(query), self._fact_total(), eligible, limit)

    def _english(
        self, words: list[str], total: int, eligible: Eligibility, limit: int
    ) -> list[tuple[str, float]]:
        kept = self._store.term_counts.selective(words, total, self._facts_holding)
        exact, wide = tsquery_of(kept)
        if not exact:
            return []
        where, params = self._where(eligible)
        match_from, rank = text_match_sql("f")
        rows = self._cur.execute(
            f"SELECT f.id, {rank} AS rank FROM facts f, {match_from} "
            f"WHERE f.profile_id = %(profile)s AND f.tsv @@ w.query AND {where} "
            "ORDER BY rank DESC, f.id LIMIT %(limit)s",
            {
                "config": self._text_config,
                "exact": exact,
                "wide": wide,
                "profile": self._profile_id,
                "limit": limit,
                **params,
            },
        ).fetchall()
        return [(row["id"], float(row["rank"])) for row in rows]

    def _french(
        self, words: list[str], total: int, eligible: Eligibility, limit: int
    ) -> list[tuple[str, float]]:
        folded = [w for w in dict.fromkeys(map(fold, words)) if w not in FRENCH_STOP_WORDS]
        kept = self._store.term_counts.selective(folded, total, self._french_holding, "french")
        if not kept:
            return []
        where, params = self._where(eligible)
        rows = self._cur.execute(
            "SELECT f.id, ts_rank(f.tsv_french, q.query) AS rank "
            "FROM facts f, to_tsquery('french', %(words)s) AS q (query) "
            f"WHERE f.profile_id = %(profile)s AND f.tsv_french @@ q.query AND {where} "
            "ORDER BY rank DESC, f.id LIMIT %(limit)s",
            {
                "words": " | ".join(f"'{w}'" for w in kept),
                "profile": self._profile_id,
                "limit": limit,
                **params,
            },
        ).fetchall()
        return [(row["id"], float(row["rank"])) for row in rows]

    def _fact_total(self) -> int:
        """The planner's estimate of the facts in the store (0 before its first ANALYZE)."""
        row = self._cur.execute(
            "SELECT greatest(reltuples, 0)::bigint AS n FROM pg_class WHERE oid = 'facts'::regclass"
        ).fetchone()
        return int(row["n"]) if row else 0

    def _facts_holding(self, word: str, cap: int) -> int:
        """How many facts of the store (any profile) the word matches, counting at most `cap`."""
        _exact, wide = tsquery_of([word])
        row = self._cur.execute(
            "SELECT count(*) AS n FROM (SELECT 1 FROM facts "
            "WHERE tsv @@ to_tsquery(%s::regconfig, %s) LIMIT %s) AS held",
            (self._text_config, wide, cap),
        ).fetchone()
        return int(row["n"]) if row else 0

    def _french_holding(self, word: str, cap: int) -> int:
        """`_facts_holding` in the French index."""
        row = self._cur.execute(
            "SELECT count(*) AS n FROM (SELECT 1 FROM facts "
            "WHERE tsv_french @@ to_tsquery('french', %s) LIMIT %s) AS held",
            (f"'{word}'", cap),
        ).fetchone()
        return int(row["n"]) if row else 0

    def vector_search(
        self, vector: np.ndarray, eligible: Eligibility, limit: int
    ) -> list[tuple[str, float]]:
        if self._dim is None or limit <= 0:
            return []  # this profile never stored a fact
        self._check_width(vector.shape)
        query = np.asarray(vector, dtype=np.float32)
        if self._store.vector_mode != "pgvector":
            return self._store._cache.search(self._index(), query, eligible, limit)
        if self._uses_hnsw():
            rows = self._vector_rows(query, eligible, limit, hnsw=True)
            if len(rows) == limit:
                self._store._counted_search("hnsw")
                return rows
            # Fewer than asked: the scan met `hnsw.max_scan_tuples` before enough
            # eligible facts, or there are fewer than `limit`. Exact says which.
            self._store._counted_search("hnsw-short")
        else:
            self._store._counted_search("exact")
        rows = self._vector_rows(query, eligible, limit, hnsw=False)
        self._consider_hnsw()
        return rows

    def vector_search_many(
        self, vectors: np.ndarray, eligible: Eligibility, limit: int
    ) -> list[list[tuple[str, float]]]:
        if self._store.vector_mode == "pgvector" or self._dim is None or limit <= 0:
            return [self.vector_search(vector, eligible, limit) for vector in vectors]
        self._check_width(vectors.shape[1:])
        queries = np.asarray(vectors, dtype=np.float32)
        return self._store._cache.search_many(self._index(), queries, eligible, limit)

    def _check_width(self, shape: tuple[int, ...]) -> None:
        if shape != (self._dim,):
            raise StoreError(
                f"This profile's facts were embedded in {self._dim} dimensions and the query "
                f"in {shape[-1]}: the embedder changed, so re-embed the facts or switch back."
            )

    def vector_search_plan(self, vector: np.ndarray, eligible: Eligibility, limit: int) -> str:
        """The plan of the query `vector_search` would run first (EXPLAIN, without costs)."""
        if self._store.vector_mode != "pgvector" or self._dim is None:
            return ""
        query = np.asarray(vector, dtype=np.float32)
        sql, params = self._vector_query(query, eligible, limit, hnsw=self._uses_hnsw())
        rows = self._cur.execute(f"EXPLAIN (COSTS OFF) {sql}", params).fetchall()
        return "\n".join(row["QUERY PLAN"] for row in rows)

    def _where(self, eligible: Eligibility) -> tuple[str, dict[str, object]]:
        """`_eligible` in psycopg's style, for this module's own statements."""
        where, params = self._eligible(eligible)
        return named(where), params

    def _uses_hnsw(self) -> bool:
        return self._hnsw_valid and self._store._hnsw_searches

    def _vector_query(
        self, query: np.ndarray, eligible: Eligibility, limit: int, *, hnsw: bool
    ) -> tuple[str, dict[str, Any]]:
        where, params = self._where(eligible)
        params.update(vector=query, profile=self._profile_id, limit=limit)
        if hnsw:
            assert self._store._hnsw is not None and self._dim is not None
            self._cur.execute(*search_settings(self._store._hnsw.ef_search, limit))
            return search_sql(self._dim, where), params
        # Exact: every eligible fact of the profile is scored. Vectors are unit
        # length, so the inner product is the cosine, as in `VectorIndex`.
        return (
            "SELECT f.id, -(f.embedding <#> %(vector)s) AS score FROM facts f "
            f"WHERE f.profile_id = %(profile)s AND {where} "
            "ORDER BY score DESC, f.id LIMIT %(limit)s"
        ), params

    def _vector_rows(
        self, query: np.ndarray, eligible: Eligibility, limit: int, *, hnsw: bool
    ) -> list[tuple[str, float]]:
        sql, params = self._vector_query(query, eligible, limit, hnsw=hnsw)
        rows = self._cur.execute(sql, params).fetchall()
        return [(row["id"], float(row["score"])) for row in rows]

    def _consider_hnsw(self) -> None:
        """Now and then, counts the profile's facts: past the threshold, an index is built."""
        hnsw = self._store._hnsw
        if self._hnsw_valid or not self._store._hnsw_searches or hnsw is None or self._dim is None:
            return
        if not hnsw.should_count(self._profile_id, self._revision, self._dim):
            return
        assert hnsw.threshold is not None
        row = self._cur.execute(
            count_sql(), {"profile": self._profile_id, "stop": hnsw.threshold + 1}
        ).fetchone()
        count = int(row["n"]) if row else 0
        hnsw.counted(self._profile_id, self._revision, self._dim, count)

    def _index(self) -> VectorIndex:
        """The profile's in-process index at this transaction's `facts_rev` (array mode)."""
        dirty = self._revision_after is not None
        if not dirty:
            cached = self._store._cache.facts(self._profile_id, self._revision)
            if cached is not None:
                return cached
        assert self._dim is not None
        index = VectorIndex(self._dim, self._revision)
        cursor = self._cur.connection.cursor(binary=True)
        cursor.adapters.register_loader(FLOAT4_ARRAY_OID, Float4ArrayLoader)
        cursor.execute(
            "SELECT id, status, valid_from, valid_to, expires_at, embedding FROM facts "
            "WHERE profile_id = %s AND status = ANY(%s)",
            (self._profile_id, sorted(s.value for s in INDEXED_STATUSES)),
        )
        for fact_id, status, valid_from, valid_to, expires_at, embedding in cursor:
            index.put(
                fact_id,
                status=FactStatus(status),
                valid_from=valid_from,
                valid_to=valid_to,
                expires_at=expires_at,
                vector=embedding,
            )
        cursor.close()
        if not dirty:  # an index holding uncommitted writes is never shared
            self._store._cache.keep_facts(self._profile_id, index)
        return index

    # -- writes -------------------------------------------------------------------------

    def _upsert_fact(self, fact: Fact, vector: list[float] | None) -> None:
        """A fact given with its vector is a new one (`lifecycle.create`): inserted at once,
        one round trip; any other is updated, and must exist."""
        params = fact_values(fact)
        params["profile_id"] = self._profile_id
        if vector is not None:
            array = self._checked_vector(fact, vector)
            # A `vector` or a real[], by the adapter of the store's mode (`_configure`).
            inserted = {**params, "text_config": self._text_config, "embedding": array}
            if self._cur.execute(_INSERT_FACT, inserted).rowcount:
                self.patches.append((fact, array))
                return
        if self._cur.execute(named(UPDATE_FACT), params).rowcount:
            self.patches.append((fact, None))
            return
        raise InvalidInputError(f"Profile {self._profile_id!r} has no fact with id {fact.id!r}.")

    def _checked_vector(self, fact: Fact, vector: list[float]) -> np.ndarray:
        """The embedding as float32, held to the profile's dimension (fixed by its first fact)."""
        array = np.asarray(vector, dtype=np.float32)
        if array.ndim != 1 or array.size == 0:
            raise InvalidInputError(f"Fact {fact.id!r} needs a one-dimensional, non-empty vector.")
        if self._dim is None:
            self._cur.execute(
                "UPDATE profiles SET embedding_dim = %s WHERE id = %s",
                (array.size, self._profile_id),
            )
            self._dim = array.size
        elif array.size != self._dim:
            raise StoreError(
                f"This profile's facts are embedded in {self._dim} dimensions and fact "
                f"{fact.id!r} in {array.size}: the embedder changed, so re-embed the facts "
                "or switch back."
            )
        return array
