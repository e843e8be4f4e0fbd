"""`SQLiteScope`: the reads and writes of one profile inside one SQLite transaction."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from somna.errors import InvalidInputError, StoreError
from somna.model import (
    ACTIVE_STATUSES,
    Conflict,
    ConflictStatus,
    Evidence,
    Fact,
    FactEvent,
    utc,
)
from somna.store.base import Candidate, Eligibility, FactFilter
from somna.store.columns import (
    CANDIDATE_COLUMNS,
    FACT_COLUMNS,
    candidate_from_row,
    conflict_from_row,
    fact_from_row,
    fact_values,
)
from somna.store.facts import UPDATE_FACT, FactQueries
from somna.store.french import french_terms
from somna.store.sql import Params
from somna.store.sqlite.queries import (
    bind,
    eligibility_sql,
    fts_match,
    fts_words,
    placeholders,
)
from somna.store.sqlite.rows import (
    event_from_row,
    evidence_from_row,
    ts,
)
from somna.store.sqlite.sessions import SQLiteSessions
from somna.store.sqlite.summaries import SQLiteSummaries
from somna.store.sqlite.threads import SQLiteThreads

if TYPE_CHECKING:
    from somna.store.sqlite.store import SQLiteStore

__all__ = ["SQLiteScope"]


class SQLiteScope(FactQueries, SQLiteSessions, SQLiteSummaries, SQLiteThreads):
    """Reads and writes of one profile inside one transaction (a `Reader` and a `Writer`)."""

    def __init__(
        self, store: SQLiteStore, conn: sqlite3.Connection, profile_id: str, facts_rev: int
    ) -> None:
        self._store = store
        self._conn = conn
        self._profile_id = profile_id
        self._revision_at_start = facts_rev
        self._revision_before: int | None = None
        self._revision_after = 0
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

    def _facts(
        self, where: str, params: Sequence[object], tail: str = "", *, by_id: bool = False
    ) -> list[Fact]:
        # Looking up by id, the unary plus keeps the planner off the profile indexes,
        # which would scan every fact of the profile instead of using the primary key.
        profile = "+f.profile_id" if by_id else "f.profile_id"
        rows = self._conn.execute(
            f"SELECT {FACT_COLUMNS} FROM facts f WHERE {profile} = ? AND {where} {tail}",
            (self._profile_id, *params),
        ).fetchall()
        return [fact_from_row(row) for row in rows]

    # -- facts --------------------------------------------------------------------------

    def get_fact(self, fact_id: str) -> Fact | None:
        found = self._facts("f.id = ?", (fact_id,), by_id=True)
        return found[0] if found else None

    def get_facts(self, fact_ids: Sequence[str]) -> list[Fact]:
        if not fact_ids:
            return []
        rows = self._facts(f"f.id IN ({placeholders(fact_ids)})", fact_ids, by_id=True)
        found = {f.id: f for f in rows}
        return [found[i] for i in fact_ids if i in found]

    def candidates(self, fact_ids: Sequence[str]) -> list[Candidate]:
        if not fact_ids:
            return []
        rows = self._conn.execute(
            f"SELECT {CANDIDATE_COLUMNS} FROM facts f WHERE +f.profile_id = ? "
            f"AND f.id IN ({placeholders(fact_ids)})",
            (self._profile_id, *fact_ids),
        ).fetchall()
        found = {c.id: c for c in map(candidate_from_row, rows)}
        return [found[i] for i in fact_ids if i in found]

    def list_facts(self, flt: FactFilter, now: datetime) -> list[Fact]:
        where, params = self._filtered(flt, now)
        return self._facts(
            where,
            [*params, flt.limit, flt.offset],
            "ORDER BY f.valid_from DESC, f.recorded_at DESC, f.id LIMIT ? OFFSET ?",
        )

    def count_facts(self, flt: FactFilter, now: datetime) -> int:
        where, params = self._filtered(flt, now)
        row = self._conn.execute(
            f"SELECT count(*) FROM facts f WHERE f.profile_id = ? AND {where}",
            (self._profile_id, *params),
        ).fetchone()
        return int(row[0])

    def _filtered(self, flt: FactFilter, now: datetime) -> tuple[str, list[object]]:
        clauses: list[str] = []
        params: list[object] = []
        if flt.as_of is not None and flt.statuses is None:
            eligible = Eligibility(at=utc(flt.as_of), now=now, include_superseded=True)
            sql, extra = eligibility_sql(eligible)
            clauses.append(sql)
            params.extend(extra)
        else:
            statuses = sorted(s.value for s in (flt.statuses or ACTIVE_STATUSES))
            clauses.append(f"f.status IN ({placeholders(statuses)})")
            params.extend(statuses)
            if flt.as_of is not None:
                clauses.append("f.valid_from <= ? AND (f.valid_to IS NULL OR f.valid_to > ?)")
                params.extend([ts(flt.as_of), ts(flt.as_of)])
        if flt.types:
            clauses.append(f"f.type IN ({placeholders(flt.types)})")
            params.extend(t.value for t in flt.types)
        for column in ("category", "subject"):
            value = getattr(flt, column)
            if value is not None:
                clauses.append(f"f.{column} = ?")
                params.append(value)
        if flt.text:
            clauses.append("instr(lower(f.text), lower(?)) > 0")
            params.append(flt.text)
        return " AND ".join(clauses), params

    def evidence(self, fact_ids: Sequence[str]) -> list[Evidence]:
        if not fact_ids:
            return []
        rows = self._conn.execute(
            f"SELECT * FROM evidence WHERE profile_id = ? AND fact_id IN "
            f"({placeholders(fact_ids)}) ORDER BY observed_at, rowid",
            (self._profile_id, *fact_ids),
        ).fetchall()
        return [evidence_from_row(row) for row in rows]

    def events(self, fact_ids: Sequence[str]) -> list[FactEvent]:
        if not fact_ids:
            return []
        rows = self._conn.execute(
            f"SELECT * FROM fact_events WHERE profile_id = ? AND fact_id IN "
            f"({placeholders(fact_ids)}) ORDER BY at, rowid",
            (self._profile_id, *fact_ids),
        ).fetchall()
        return [event_from_row(row) for row in rows]

    # -- conflicts ----------------------------------------------------------------------

    def list_conflicts(
        self, statuses: Sequence[ConflictStatus], fact_id: str | None = None
    ) -> list[Conflict]:
        values = [s.value for s in statuses]
        sql = f"SELECT * FROM conflicts WHERE profile_id = ? AND status IN ({placeholders(values)})"
        params: list[object] = [self._profile_id, *values]
        if fact_id is not None:
            sql += " AND (fact_a_id = ? OR fact_b_id = ?)"
            params.extend([fact_id, fact_id])
        rows = self._conn.execute(sql + " ORDER BY created_at, id", params).fetchall()
        return [conflict_from_row(row) for row in rows]

    # -- search -------------------------------------------------------------------------

    def text_search(self, query: str, eligible: Eligibility, limit: int) -> list[tuple[str, float]]:
        """English (the main index) and French (`somna.store.french`) matches, each fact at
        its better rank of the two."""
        total = self._conn.execute("SELECT coalesce(max(rowid), 0) FROM facts").fetchone()[0]
        found: dict[str, float] = {}
        for index, words in (
            ("facts_fts", fts_words(query)),
            ("facts_french", list(dict.fromkeys(french_terms(query)))),
        ):
            kept = self._store.term_counts.selective(
                words, total, partial(self._facts_holding, index), index
            )
            for fact_id, score in self._matches(index, kept, eligible, limit):
                found[fact_id] = max(score, found.get(fact_id, score))
        return sorted(found.items(), key=lambda hit: -hit[1])[:limit]

    def _matches(
        self, index: str, words: list[str], eligible: Eligibility, limit: int
    ) -> list[tuple[str, float]]:
        if not words:
            return []
        where, params = eligibility_sql(eligible)
        rows = self._conn.execute(
            f"SELECT f.id, bm25({index}) AS rank FROM {index} "
            f"JOIN facts f ON f.rowid = {index}.rowid "
            f"WHERE {index} MATCH ? AND f.profile_id = ? AND {where} "
            "ORDER BY rank LIMIT ?",
            (fts_match(words), self._profile_id, *params, limit),
        ).fetchall()
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
        revision = (
            self._revision_at_start if self._revision_before is None else self._revision_after
        )
        index = self._store.fact_index(self._conn, self._profile_id, revision)
        if index is None:
            return []
        if vector.shape != (index.dim,):
            raise StoreError(
                f"This profile's facts were embedded in {index.dim} dimensions and the query in "
                f"{vector.shape[0]}: the embedder changed, so re-embed the facts or switch back."
            )
        return index.search(vector, eligible, limit)

    # -- writes -------------------------------------------------------------------------

    def _known_facts(self, fact_ids: Sequence[str]) -> Iterable[str]:
        found = self._conn.execute(
            f"SELECT id FROM facts WHERE profile_id = ? AND id IN ({placeholders(fact_ids)})",
            (self._profile_id, *fact_ids),
        )
        return [row[0] for row in found]

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

    def _bump_revision(self) -> None:
        """Once a transaction: the counter says that the facts changed, not how often."""
        if self._revision_before is not None:
            return
        row = self._conn.execute(
            "UPDATE profiles SET facts_rev = facts_rev + 1 WHERE id = ? RETURNING facts_rev",
            (self._profile_id,),
        ).fetchone()
        self._revision_after = int(row[0])
        self._revision_before = self._revision_after - 1

    def patch_index(self) -> None:
        """After commit: bring the cached vector index up to date without reloading it."""
        if self._revision_before is not None:
            self._store.patch_fact_index(
                self._profile_id, self._revision_before, self._revision_after, self._patches
            )
