"""The facts of `Memory`: store, judge, read, correct, retire and restore them, and settle
the conflicts between them.

Each call checks its arguments, passes "now" in and delegates: the writes to
`FactWrites` (`somna.memory.facts`), the conflicts to `somna.memory.conflicts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any, Unpack

from somna.errors import InvalidInputError
from somna.memory.bulk import add_facts
from somna.memory.conflicts import conflict_pairs, resolve_conflict
from somna.memory.inputs import as_enum
from somna.memory.lookups import fetch_fact, quotes
from somna.memory.overview import FactQuery, fact_filter
from somna.memory.profile_calls import ProfileCalls
from somna.memory.restore import restore_fact
from somna.memory.results import Added, ConflictPair, History, Outcome, Quote
from somna.memory.writes import FactChanges, NewFact, fact_changes, new_fact
from somna.model import ConflictStatus, Fact, FactEvent, Resolution, Verdict

__all__ = ["FactCalls"]


class FactCalls(ProfileCalls):
    """The facts of a profile and the conflicts between them."""

    def add_fact(
        self, profile: str, fact: NewFact | str, *, actor: str = "user", **fields: Any
    ) -> Added:
        """Store a fact, or reinforce the same active fact if it is already known.

        `fact` is a `NewFact`, or its text with the other fields of `NewFact` beside it:
        `add_fact("alice", "Prefers tea.", category="preference")`.

        Returns the stored fact and the active facts whose cosine similarity is at
        least the profile's `neighbor_floor`, for the caller to judge with `resolve`; and,
        apart, the candidates to judge: active facts of the same subject between
        `judge_floor` and `neighbor_floor`, where a changed value usually lies.
        An instruction added by an agent (`api…` or `mcp…` actor) is stored unverified
        whatever `verified` says: it waits for a person's approval (`verify`).
        """
        new = new_fact(fact, fields)
        tuned = self.profile_settings(profile)
        return self._facts.add(profile, new, tuned, now=self.now(), actor=actor)

    def add_facts(
        self, profile: str, facts: Sequence[NewFact], *, actor: str = "user"
    ) -> list[Added]:
        """Store many facts at once: one embedding batch, one transaction.

        Each is reconciled as `add_fact` would, in order (a text given twice is stored
        once and reinforced). A fact that cannot be stored names its index and refuses
        the whole batch: nothing is written. At most `MAX_BATCH` (1,000) facts a call.
        """
        tuned = self.profile_settings(profile)
        return add_facts(
            self.store, self.embedder, profile, facts, tuned, now=self.now(), actor=actor
        )

    def resolve(
        self, profile: str, new: str, existing: str, verdict: Verdict | str, *, actor: str = "user"
    ) -> Outcome:
        """Judge how fact `new` relates to fact `existing`, and apply the verdict.

        - duplicate: `new` is retired, its evidence merged into `existing`, which is reinforced;
        - supersedes: `existing` ends where `new` begins (valid_to, superseded_at, superseded_by);
        - contradicts: both are disputed and a conflict pair is opened for a person;
        - distinct: nothing changes.
        """
        judged = as_enum(Verdict, verdict, "verdict")
        if new == existing:
            raise InvalidInputError("A fact cannot be judged against itself.")
        return self._facts.judge(profile, new, existing, judged, now=self.now(), actor=actor)

    def get(self, profile: str, fact_id: str) -> Fact:
        with self.store.read(profile) as tx:
            return fetch_fact(tx, fact_id)

    def list_facts(
        self, profile: str, *, limit: int = 100, offset: int = 0, **query: Unpack[FactQuery]
    ) -> list[Fact]:
        """Facts of the profile, newest first. Without `status`, the active ones.

        `query` filters by `type`, `status` (each one or several), `category`, `subject`
        and `text`. With `as_of`, the facts that were true at that time (valid time),
        which may include facts superseded since.
        """
        flt = fact_filter(query, limit=limit, offset=offset)
        with self.store.read(profile) as tx:
            return tx.list_facts(flt, self.now())

    def count_facts(self, profile: str, **query: Unpack[FactQuery]) -> int:
        """How many facts `list_facts` finds with these filters, whatever its limit."""
        flt = fact_filter(query)
        with self.store.read(profile) as tx:
            return tx.count_facts(flt, self.now())

    def recent(self, profile: str, n: int = 10) -> list[Fact]:
        """The `n` most recent active facts, by valid time."""
        return self.list_facts(profile, limit=n)

    def update(
        self,
        profile: str,
        fact_id: str,
        changes: FactChanges | None = None,
        *,
        actor: str = "user",
        **fields: Any,
    ) -> Fact:
        """Correct a fact: a new verified version replaces it; the old one stays in history.

        `changes` is a `FactChanges`, or its fields given by name: `update("alice", id,
        text="Lives in Lyon.")`.
        """
        given = fact_changes(changes, fields).given()
        return self._facts.correct(profile, fact_id, given, now=self.now(), actor=actor)

    def delete(
        self, profile: str, fact_id: str, *, actor: str = "user", reason: str = "deleted"
    ) -> Fact:
        """Retire a fact: it leaves recall and lists, and stays in history. Nothing is destroyed."""
        return self._facts.retire(profile, fact_id, now=self.now(), actor=actor, reason=reason)

    def restore(self, profile: str, fact_id: str, *, actor: str = "user") -> Fact:
        """Take back a deletion: a retired or expired fact is active again (unverified)."""
        return restore_fact(self.store, profile, fact_id, now=self.now(), actor=actor)

    def verify(self, profile: str, fact_id: str, *, actor: str = "user") -> Fact:
        """A person confirms an active fact: it becomes verified (approving a proposed rule)."""
        return self._facts.verify(profile, fact_id, now=self.now(), actor=actor)

    def history(self, profile: str, fact_id: str) -> History:
        """The version chain around a fact (what Somna believed when) and all its events."""
        return self._facts.history(profile, fact_id)

    def events(self, profile: str, fact_ids: Sequence[str]) -> list[FactEvent]:
        """Every event of these facts (created, reinforced, superseded, …), oldest first."""
        with self.store.read(profile) as tx:
            return tx.events(fact_ids)

    def evidence(self, profile: str, fact_ids: Sequence[str]) -> list[Quote]:
        """The quotes behind these facts, each with the message it was said in, if known."""
        with self.store.read(profile) as tx:
            return quotes(tx, fact_ids)

    # -- conflicts --------------------------------------------------------------------

    def conflicts(
        self, profile: str, status: ConflictStatus | str = ConflictStatus.OPEN
    ) -> list[ConflictPair]:
        """Conflicts waiting for a person. `open` includes deferred ones whose delay is over."""
        wanted = as_enum(ConflictStatus, status, "conflict status")
        return conflict_pairs(self.store, profile, wanted, self.now())

    def resolve_conflict(
        self,
        profile: str,
        conflict_id: str,
        resolution: Resolution | str,
        *,
        correction: str | None = None,
        actor: str = "user",
    ) -> ConflictPair:
        """Settle a conflict: a_true, b_true, neither, corrected (with `correction`), or defer.

        The losing facts are retired; a fact that wins comes back verified once no
        other conflict holds it. `corrected` retires both and stores the correction
        as a new verified fact. `defer` keeps both out of recall and brings the
        conflict back after `defer_days`.
        """
        return resolve_conflict(
            self.store,
            self._embed,
            profile,
            conflict_id,
            as_enum(Resolution, resolution, "resolution"),
            correction,
            now=self.now(),
            defer_for=timedelta(days=self.settings.defer_days),
            actor=actor,
        )
