"""The fact operations of `Memory`: store, judge, correct, retire, verify, and read a history.

Each write is one store transaction built from the pure rules of
`somna.model.lifecycle`; anything that must be embedded is embedded before the
transaction opens. `Memory` checks its arguments and passes "now" in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

import numpy as np

from somna.config import Settings
from somna.consolidate.restoring import restore_said_again
from somna.consolidate.wording import related
from somna.errors import ConflictStateError, InvalidInputError
from somna.memory.approval import proposed_by_agent, require_person
from somna.memory.conflicts import UNSETTLED
from somna.memory.inputs import checked
from somna.memory.lookups import fetch_fact
from somna.memory.results import Added, History, Outcome, Similar
from somna.memory.writes import NewFact
from somna.model import (
    ACTIVE_STATUSES,
    DEFAULT_SUBJECT,
    STATEMENT_FIELDS,
    Evidence,
    Fact,
    FactStatus,
    FactType,
    Verdict,
    fold_text,
    lifecycle,
)
from somna.store import Eligibility, Reader, Store

__all__ = ["FactWrites", "require"]

Embed = Callable[[str], np.ndarray]


class FactWrites:
    """The fact operations over one store, with the embedder that places each new text."""

    def __init__(self, store: Store, embed: Embed) -> None:
        self.store = store
        self.embed = embed

    def add(
        self, profile: str, new: NewFact, tuned: Settings, *, now: datetime, actor: str
    ) -> Added:
        """Store `new`, reinforce the same active fact, or bring back the same retired one."""
        floor = min(tuned.neighbor_floor, tuned.judge_floor)
        verified = new.verified and not proposed_by_agent(new.type, actor)
        fact = checked(
            lambda: Fact(
                profile_id=profile,
                **new.model_dump(
                    include={"type", "category", "predicate", "object", "text", "confidence"}
                ),
                subject=new.subject or DEFAULT_SUBJECT,
                status=FactStatus.VERIFIED if verified else FactStatus.UNVERIFIED,
                valid_from=new.valid_from or now,
                valid_to=new.valid_to,
                recorded_at=now,
                first_observed_at=now,
                last_verified_at=now if verified else None,
                expires_at=new.expires_at,
            )
        )
        if fact.valid_to is not None and fact.valid_to <= fact.valid_from:
            raise InvalidInputError(
                "The end of a fact's valid time (valid_to) must come after its start."
            )
        quote = new.quote
        evidence = (
            []
            if quote is None
            else [checked(lambda: Evidence(fact_id=fact.id, quote=quote, observed_at=now))]
        )
        vector = self.embed(fact.text)
        with self.store.write(profile) as tx:
            similar = _similar(tx, vector, now, floor)
            eligible = Eligibility(at=now, now=now)
            found = related(tx, fact, eligible, [s.fact.id for s in similar]).facts
            taken = {s.fact.id for s in similar}
            reframed = [f for f in found if f.id not in taken]
            known = tx.find_active(fact.type, fact.subject, fact.text_hash)
            if known is not None:
                quotes = {fold_text(e.quote) for e in tx.evidence([known.id])}
                evidence = [e for e in evidence if fold_text(e.quote) not in quotes]
                change = lifecycle.reinforce(known, at=now, actor=actor, evidence=evidence)
                tx.apply(change)
                stored, created = change.fact(known.id), False
            elif (back := restore_said_again(tx, fact, evidence, at=now, actor=actor)) is not None:
                tx.apply(back)
                stored, created = back.facts[0], False
            else:
                tx.apply(
                    lifecycle.create(fact, vector=vector.tolist(), actor=actor, evidence=evidence)
                )
                stored, created = fact, True
        near = [s for s in similar if s.fact.id != stored.id]
        close = [s for s in near if s.similarity >= tuned.neighbor_floor]
        apart = [
            s
            for s in near
            if s.similarity < tuned.neighbor_floor and s.fact.subject == stored.subject
        ]
        # What the cheap rules relate to it (another value in the same sentence frame, a
        # value given anew, a diet or an age set against it, another choice of the same
        # kind) is a candidate whatever its cosine.
        apart += [
            Similar(f, _cosine(vector, self.embed(f.text))) for f in reframed if f.id != stored.id
        ]
        return Added(stored, created, close, apart)

    def judge(
        self,
        profile: str,
        new: str,
        existing: str,
        verdict: Verdict,
        *,
        now: datetime,
        actor: str,
    ) -> Outcome:
        """Apply `verdict` on how fact `new` relates to fact `existing`."""
        with self.store.write(profile) as tx:
            fresh, old = fetch_fact(tx, new), fetch_fact(tx, existing)
            tx.record_judged([fresh.id], now)  # judged here: the nightly re-check leaves it
            if verdict is Verdict.DISTINCT:
                return Outcome([fresh, old])
            if verdict is Verdict.CONTRADICTS:
                for fact in (fresh, old):
                    require(fact, ACTIVE_STATUSES | {FactStatus.DISPUTED}, "dispute")
                pairs = tx.list_conflicts(UNSETTLED, fact_id=fresh.id)
                if any({c.fact_a_id, c.fact_b_id} == {fresh.id, old.id} for c in pairs):
                    raise ConflictStateError(
                        f"Facts {fresh.id!r} and {old.id!r} are already in an open conflict."
                    )
                change = lifecycle.dispute(fresh, old, at=now, actor=actor)
            else:
                for fact in (fresh, old):
                    require(fact, ACTIVE_STATUSES, verdict.value)
                if verdict is Verdict.DUPLICATE:
                    evidence = tx.evidence([fresh.id])
                    change = lifecycle.absorb(fresh, old, evidence=evidence, at=now, actor=actor)
                else:
                    change = lifecycle.supersede(old, fresh, at=now, actor=actor)
            tx.apply(change)
        touched = [
            change.fact(i) if i in {f.id for f in change.facts} else f
            for i, f in ((fresh.id, fresh), (old.id, old))
        ]
        return Outcome(touched, change.conflicts[0] if change.conflicts else None)

    def correct(
        self, profile: str, fact_id: str, changes: dict[str, Any], *, now: datetime, actor: str
    ) -> Fact:
        """A new verified version of the fact, with `changes`, replaces it."""
        with self.store.read(profile) as tx:
            old = fetch_fact(tx, fact_id)
        require(old, ACTIVE_STATUSES, "correct")
        retyped = FactType(changes.get("type", old.type))
        require_person(actor, (old.type, retyped), "correct or retype")
        kept = old.model_dump(
            include={
                "profile_id",
                *STATEMENT_FIELDS,
                "confidence",
                "valid_to",
                "first_observed_at",
                "expires_at",
            }
        )
        new = checked(
            lambda: Fact.model_validate(
                {
                    **kept,
                    **changes,
                    "status": FactStatus.VERIFIED,
                    "valid_from": old.valid_from,
                    "recorded_at": now,
                    "last_verified_at": now,
                }
            )
        )
        vector = self.embed(new.text)
        with self.store.write(profile) as tx:
            current = fetch_fact(tx, fact_id)
            require(current, ACTIVE_STATUSES, "correct")
            tx.apply(lifecycle.correct(current, new, vector=vector.tolist(), at=now, actor=actor))
            return fetch_fact(tx, new.id)

    def retire(self, profile: str, fact_id: str, *, now: datetime, actor: str, reason: str) -> Fact:
        with self.store.write(profile) as tx:
            fact = fetch_fact(tx, fact_id)
            if fact.status is FactStatus.RETIRED:
                raise ConflictStateError(f"Fact {fact_id!r} is already retired.")
            change = lifecycle.retire(fact, at=now, actor=actor, reason=reason)
            tx.apply(change)
        return change.fact(fact_id)

    def verify(self, profile: str, fact_id: str, *, now: datetime, actor: str) -> Fact:
        with self.store.write(profile) as tx:
            fact = fetch_fact(tx, fact_id)
            require(fact, {FactStatus.UNVERIFIED}, "verify")
            require_person(actor, (fact.type,), "approve")
            change = lifecycle.verify(fact, at=now, actor=actor)
            tx.apply(change)
        return change.fact(fact_id)

    def history(self, profile: str, fact_id: str) -> History:
        with self.store.read(profile) as tx:
            fact = fetch_fact(tx, fact_id)
            chain = [fact]
            while before := tx.predecessors(chain[0].id):
                chain.insert(0, before[0])
            while chain[-1].superseded_by:
                after = tx.get_fact(chain[-1].superseded_by)
                if after is None:
                    break
                chain.append(after)
            ids = [f.id for f in chain]
            return History(fact, chain, tx.events(ids), tx.evidence(ids))


def _similar(tx: Reader, vector: np.ndarray, now: datetime, floor: float) -> list[Similar]:
    """The active facts whose cosine to `vector` reaches `floor`, closest first."""
    near = [
        (i, score)
        for i, score in tx.vector_search(vector, Eligibility(at=now, now=now), 10)
        if score >= floor
    ]
    facts = {f.id: f for f in tx.get_facts([i for i, _ in near])}
    return [Similar(facts[i], score) for i, score in near if i in facts]


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / ((np.linalg.norm(a) * np.linalg.norm(b)) or 1.0))


def require(fact: Fact, allowed: Iterable[FactStatus], action: str) -> None:
    """Refuse `action` on a fact whose status is not one of `allowed`."""
    allowed = set(allowed)
    if fact.status not in allowed:
        names = " or ".join(sorted(s.value for s in allowed))
        raise ConflictStateError(
            f"Cannot {action} fact {fact.id!r}: it is {fact.status.value}, and only "
            f"{names} facts can be."
        )
