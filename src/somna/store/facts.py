"""How a scope reads and writes facts and conflicts, where both backends do it alike.

`apply` writes a `Change` in one order: the checks first (`check_change`, then
every fact the change names without carrying must be in the profile), then the
facts, their evidence and events, the conflicts, and last the profile's
`facts_rev` when any fact changed. Use and judging are not state: they change
without an event. Searches, lists and lookups by many ids differ (full-text
engines, vectors), so each backend keeps those; a lookup by many ids reads the
same on both through `_one_of` (a list on SQLite, an array on Postgres).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import TypeVar

from somna.model import (
    ACTIVE_STATUSES,
    Conflict,
    ConflictStatus,
    Evidence,
    Fact,
    FactEvent,
    FactType,
    Wording,
    utc,
)
from somna.model.lifecycle import Change
from somna.store.base import Candidate, Eligibility, FactFilter, active_of, latest_gone
from somna.store.checks import check_change, require_facts
from somna.store.columns import (
    CANDIDATE_COLUMNS,
    CONFLICT_COLUMNS,
    CONFLICT_FIELDS,
    FACT_COLUMNS,
    MUTABLE_FACT_COLUMNS,
    Row,
    candidate_from_row,
    conflict_from_row,
    conflict_values,
    fact_from_row,
)
from somna.store.sql import Json, Statements

__all__ = ["UPDATE_FACT", "FactQueries"]

UPDATE_FACT = (
    f"UPDATE facts SET {', '.join(f'{c} = :{c}' for c in MUTABLE_FACT_COLUMNS)} "
    "WHERE id = :id AND profile_id = :profile_id"
)
"""A known fact's new state (parameters: `fact_values`); its wording never changes here."""
_WORDINGS_PER_STATEMENT = 64
_T = TypeVar("_T")
_INSERT_CONFLICT = (
    f"INSERT INTO conflicts ({', '.join(CONFLICT_FIELDS)}) "
    f"VALUES ({', '.join(f':{c}' for c in CONFLICT_FIELDS)})"
)
_UPDATE_CONFLICT = (
    f"UPDATE conflicts SET {', '.join(f'{c} = :{c}' for c in CONFLICT_FIELDS[2:])} "
    "WHERE id = :id AND profile_id = :profile_id"
)


class FactQueries(Statements):
    """Mixed into a backend's scope: the facts and conflicts of one profile."""

    _profile_id: str
    _revision_after: int | None
    """The profile's `facts_rev` once this transaction changed a fact; None before."""
    _profile_by_id = "f.profile_id"
    """The profile's column in a lookup by id (SQLite keeps its planner off the profile's
    indexes with `+f.profile_id`, which would scan every fact of the profile)."""
    _position = "strpos"
    """The SQL function of where a text occurs in another (`instr` on SQLite)."""
    _insertion_order = "seq"
    """The column that orders evidence and events as they were written (SQLite: `rowid`)."""

    def get_fact(self, fact_id: str) -> Fact | None:
        found = self.get_facts([fact_id])
        return found[0] if found else None

    def get_facts(self, fact_ids: Sequence[str]) -> list[Fact]:
        return self._by_id(FACT_COLUMNS, fact_ids, fact_from_row)

    def candidates(self, fact_ids: Sequence[str]) -> list[Candidate]:
        return self._by_id(CANDIDATE_COLUMNS, fact_ids, candidate_from_row)

    def _by_id(self, columns: str, ids: Sequence[str], read: Callable[[Row], _T]) -> list[_T]:
        """The facts of these ids as `read` makes them, in the order of the ids."""
        if not ids:
            return []
        where, params = self._one_of("f.id", "id", list(dict.fromkeys(ids)))
        rows = self._all(
            f"SELECT {columns} FROM facts f WHERE {self._profile_by_id} = :profile AND {where}",
            {"profile": self._profile_id, **params},
        )
        found = {row["id"]: read(row) for row in rows}
        return [found[i] for i in ids if i in found]

    def list_facts(self, flt: FactFilter, now: datetime) -> list[Fact]:
        where, params = self._filtered(flt, now)
        rows = self._all(
            f"SELECT {FACT_COLUMNS} FROM facts f WHERE f.profile_id = :profile AND {where} "
            "ORDER BY f.valid_from DESC, f.recorded_at DESC, f.id LIMIT :limit OFFSET :offset",
            {"profile": self._profile_id, "limit": flt.limit, "offset": flt.offset, **params},
        )
        return [fact_from_row(row) for row in rows]

    def count_facts(self, flt: FactFilter, now: datetime) -> int:
        where, params = self._filtered(flt, now)
        row = self._one(
            f"SELECT count(*) AS n FROM facts f WHERE f.profile_id = :profile AND {where}",
            {"profile": self._profile_id, **params},
        )
        return int(row["n"]) if row else 0

    def _filtered(self, flt: FactFilter, now: datetime) -> tuple[str, dict[str, object]]:
        if flt.as_of is not None and flt.statuses is None:
            eligible = Eligibility(at=utc(flt.as_of), now=now, include_superseded=True)
            sql, params = self._eligible(eligible)
            clauses = [sql]
        else:
            statuses = sorted(s.value for s in (flt.statuses or ACTIVE_STATUSES))
            sql, params = self._one_of("f.status", "status", statuses)
            clauses = [sql]
            if flt.as_of is not None:
                clauses.append(
                    "f.valid_from <= :as_of AND (f.valid_to IS NULL OR f.valid_to > :as_of)"
                )
                params["as_of"] = utc(flt.as_of)
        if flt.types:
            sql, types = self._one_of("f.type", "type", [t.value for t in flt.types])
            clauses.append(sql)
            params |= types
        for column in ("category", "subject"):
            value = getattr(flt, column)
            if value is not None:
                clauses.append(f"f.{column} = :{column}")
                params[column] = value
        if flt.text:
            clauses.append(f"{self._position}(lower(f.text), lower(:text)) > 0")
            params["text"] = flt.text
        return " AND ".join(clauses), params

    def _eligible(self, eligible: Eligibility, alias: str = "f") -> tuple[str, dict[str, object]]:
        """The WHERE clause (parameters `el_*`) of the facts a search may return."""
        statuses = sorted(s.value for s in eligible.statuses)
        sql, params = self._one_of(f"{alias}.status", "el_statuses", statuses)
        if eligible.replaced:
            return sql, params
        sql += (
            f" AND {alias}.valid_from <= :el_at "
            f"AND ({alias}.valid_to IS NULL OR {alias}.valid_to > :el_at)"
        )
        params["el_at"] = eligible.at
        if not eligible.include_superseded:
            sql += f" AND ({alias}.expires_at IS NULL OR {alias}.expires_at > :el_now)"
            params["el_now"] = eligible.now
        return sql, params

    def evidence(self, fact_ids: Sequence[str]) -> list[Evidence]:
        rows = self._of_facts(
            "id, fact_id, session_id, message_id, quote, observed_at",
            "evidence",
            "observed_at",
            fact_ids,
        )
        return [Evidence.model_validate(dict(row)) for row in rows]

    def events(self, fact_ids: Sequence[str]) -> list[FactEvent]:
        rows = self._of_facts(
            "id, fact_id, at, action, actor, before, after", "fact_events", "at", fact_ids
        )
        return [
            FactEvent.model_validate(
                {
                    **dict(row),
                    "before": self._json(row["before"]),
                    "after": self._json(row["after"]),
                }
            )
            for row in rows
        ]

    def _of_facts(self, columns: str, table: str, at: str, fact_ids: Sequence[str]) -> list[Row]:
        """The rows of `table` that belong to these facts, in the order they were written."""
        if not fact_ids:
            return []
        where, params = self._one_of("fact_id", "fact", list(fact_ids))
        return self._all(
            f"SELECT {columns} FROM {table} WHERE profile_id = :profile AND {where} "
            f"ORDER BY {at}, {self._insertion_order}",
            {"profile": self._profile_id, **params},
        )

    def list_conflicts(
        self, statuses: Sequence[ConflictStatus], fact_id: str | None = None
    ) -> list[Conflict]:
        where, params = self._one_of("status", "status", [s.value for s in statuses])
        sql = f"SELECT {CONFLICT_COLUMNS} FROM conflicts WHERE profile_id = :profile AND {where}"
        if fact_id is not None:
            sql += " AND (fact_a_id = :fact OR fact_b_id = :fact)"
            params["fact"] = fact_id
        rows = self._all(sql + " ORDER BY created_at, id", {"profile": self._profile_id, **params})
        return [conflict_from_row(row) for row in rows]

    def find_active(self, type: FactType, subject: str, text_hash: str) -> Fact | None:
        return active_of(self.worded_like([(type, subject, text_hash)]))

    def find_gone(self, type: FactType, subject: str, text_hash: str) -> Fact | None:
        return latest_gone(self.worded_like([(type, subject, text_hash)]))

    def worded_like(self, wordings: Iterable[Wording]) -> list[Fact]:
        # One statement per chunk, each wording a probe of the index on all four columns:
        # with the profile inside every term, SQLite plans a multi-index OR, and Postgres
        # a bitmap OR, instead of scanning the profile's part of the index.
        wanted = list(dict.fromkeys(wordings))
        facts: list[Fact] = []
        for start in range(0, len(wanted), _WORDINGS_PER_STATEMENT):
            params: dict[str, object] = {"profile": self._profile_id}
            terms = []
            for i, (type, subject, hash) in enumerate(
                wanted[start : start + _WORDINGS_PER_STATEMENT]
            ):
                terms.append(
                    f"(f.profile_id = :profile AND f.type = :t{i} AND f.subject = :s{i} "
                    f"AND f.text_hash = :h{i})"
                )
                params |= {f"t{i}": type.value, f"s{i}": subject, f"h{i}": hash}
            rows = self._all(
                f"SELECT {FACT_COLUMNS} FROM facts f WHERE {' OR '.join(terms)}", params
            )
            facts += [fact_from_row(row) for row in rows]
        return facts

    def predecessors(self, fact_id: str) -> list[Fact]:
        rows = self._all(
            f"SELECT {FACT_COLUMNS} FROM facts f WHERE f.profile_id = :profile "
            "AND f.superseded_by = :id ORDER BY f.recorded_at",
            {"profile": self._profile_id, "id": fact_id},
        )
        return [fact_from_row(row) for row in rows]

    def get_conflict(self, conflict_id: str) -> Conflict | None:
        row = self._one(
            f"SELECT {CONFLICT_COLUMNS} FROM conflicts WHERE profile_id = :profile AND id = :id",
            {"profile": self._profile_id, "id": conflict_id},
        )
        return conflict_from_row(row) if row else None

    def apply(self, change: Change) -> None:
        outside = check_change(change, self._profile_id)
        if outside:
            require_facts(self._profile_id, outside, self._by_id("f.id", outside, _id_of))
        for fact in change.facts:
            self._upsert_fact(fact, change.vectors.get(fact.id))
        profile = self._profile_id
        if change.evidence:
            self._many(
                "INSERT INTO evidence (id, fact_id, profile_id, session_id, message_id, quote, "
                "observed_at) VALUES (:id, :fact, :profile, :session, :message, :quote, :at)",
                [
                    {"id": e.id, "fact": e.fact_id, "profile": profile, "session": e.session_id,
                     "message": e.message_id, "quote": e.quote, "at": e.observed_at}
                    for e in change.evidence
                ],
            )  # fmt: skip
        if change.events:
            self._many(
                "INSERT INTO fact_events (id, fact_id, profile_id, at, action, actor, before, "
                "after) VALUES (:id, :fact, :profile, :at, :action, :actor, :before, :after)",
                [
                    {"id": e.id, "fact": e.fact_id, "profile": profile, "at": e.at,
                     "action": e.action.value, "actor": e.actor, "before": Json(e.before),
                     "after": Json(e.after)}
                    for e in change.events
                ],
            )  # fmt: skip
        for conflict in change.conflicts:
            values = conflict_values(conflict)
            if not self._count(_UPDATE_CONFLICT, values):
                self._count(_INSERT_CONFLICT, values)
        if change.facts:
            self._bump_revision()

    def _bump_revision(self) -> None:
        """Move the profile's `facts_rev` on, so cached vector indexes know they are stale;
        once a transaction: the counter says that the facts changed, not how often."""
        if self._revision_after is not None:
            return
        row = self._one(
            "UPDATE profiles SET facts_rev = facts_rev + 1 WHERE id = :profile RETURNING facts_rev",
            {"profile": self._profile_id},
        )
        assert row is not None
        self._revision_after = int(row["facts_rev"])

    def record_usage(self, facts: Sequence[Fact]) -> None:
        # No facts_rev bump either: the vector index holds no use.
        if facts:
            self._many(
                "UPDATE facts SET strength = :strength, recall_count = :recall_count, "
                "last_recalled_at = :last_recalled_at WHERE profile_id = :profile AND id = :id",
                [
                    {"strength": f.strength, "recall_count": f.recall_count,
                     "last_recalled_at": f.last_recalled_at, "profile": self._profile_id,
                     "id": f.id}
                    for f in facts
                ],
            )  # fmt: skip

    def record_judged(self, fact_ids: Sequence[str], at: datetime) -> None:
        if fact_ids:
            self._many(
                "UPDATE facts SET judged_at = :at WHERE profile_id = :profile AND id = :id",
                [{"at": at, "profile": self._profile_id, "id": fact_id} for fact_id in fact_ids],
            )

    # -- what differs between the backends -------------------------------------------------

    @abstractmethod
    def _upsert_fact(self, fact: Fact, vector: list[float] | None) -> None:
        """Update the fact's mutable columns, or insert it with its vector; an update of
        a fact the profile does not have (no vector) is refused."""


def _id_of(row: Row) -> str:
    return str(row["id"])
