"""How a scope reads and writes facts and conflicts, where both backends do it alike.

`apply` writes a `Change` in one order: the checks first (`check_change`, then
every fact the change names without carrying must be in the profile), then the
facts, their evidence and events, the conflicts, and last the profile's
`facts_rev` when any fact changed. Use and judging are not state: they change
without an event. Searches, lists and lookups by many ids differ (full-text
engines, vectors, arrays), so each backend keeps those.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Sequence
from datetime import datetime

from somna.model import Conflict, Fact, FactType, Wording
from somna.model.lifecycle import Change
from somna.store.base import active_of, latest_gone
from somna.store.checks import check_change, require_facts
from somna.store.columns import (
    CONFLICT_COLUMNS,
    CONFLICT_FIELDS,
    FACT_COLUMNS,
    MUTABLE_FACT_COLUMNS,
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
            require_facts(self._profile_id, outside, self._known_facts(outside))
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
    def _known_facts(self, fact_ids: Sequence[str]) -> Iterable[str]:
        """Which of these ids are facts of the profile."""

    @abstractmethod
    def _upsert_fact(self, fact: Fact, vector: list[float] | None) -> None:
        """Update the fact's mutable columns, or insert it with its vector; an update of
        a fact the profile does not have (no vector) is refused."""

    @abstractmethod
    def _bump_revision(self) -> None:
        """Move the profile's `facts_rev` on, so cached vector indexes know they are stale."""
