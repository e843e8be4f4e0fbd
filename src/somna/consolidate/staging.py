"""A session's write staged in memory, then applied as one change.

Each candidate of a session is reconciled against the facts as the candidates before it
left them: is its wording already active, was it let go, is the neighbor it was judged
against still active? Asked of the store one candidate at a time, that is two or three
lookups and a write each, and on Postgres every one is a round trip made while the
profile's write is held. `StagedWrite` reads the facts a session can meet (those of its
candidates' wordings, and their judged neighbors) in two statements, lays each staged
change over them, and leaves one `Change` for the store to apply. A fact it did not
foresee is read when asked, and the store's own rules (`active_of`, `latest_gone`) pick
the answer, so it is always the one the store would give.

`reconcile` stages one candidate: its wording already active, or a neighbor judged its
duplicate, is reinforced; a fact let go of and said again comes back; otherwise a new
fact, which supersedes or disputes the neighbor it was judged against.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from somna.consolidate.job import ACTOR
from somna.consolidate.plan import Candidate
from somna.consolidate.restoring import restore_said_again
from somna.consolidate.wording import may_take
from somna.llm.rules.counts import head_count_updated, numbers_given
from somna.llm.rules.roles import part_given_anew, parts_given
from somna.model import (
    Fact,
    FactStatus,
    FactType,
    Run,
    Verdict,
    Wording,
    lifecycle,
)
from somna.model.lifecycle import Change
from somna.ranking import keywords
from somna.store import Writer, active_of, latest_gone

__all__ = ["StagedWrite", "reconcile"]

_VERDICT_ORDER = (Verdict.DUPLICATE, Verdict.SUPERSEDES, Verdict.CONTRADICTS)


class StagedWrite:
    """The facts of one write scope as they will be once `change` is applied."""

    def __init__(self, tx: Writer, wordings: Iterable[Wording], fact_ids: Iterable[str]) -> None:
        self._tx = tx
        self._facts: dict[str, Fact] = {}  # as read, or as last staged
        self._wordings: dict[str, Wording] = {}  # of each fact in `_facts`
        self._read: set[str | Wording] = set()  # ids and wordings the store was asked for
        self.change = Change()
        self._read_wordings(list(dict.fromkeys(wordings)))
        unread = [i for i in dict.fromkeys(fact_ids) if i not in self._facts]
        self._read.update(unread)
        for fact in tx.get_facts(unread):
            self._remember(fact)

    def stage(self, change: Change) -> None:
        """Add a change to the write; later lookups see its facts as it leaves them."""
        self.change = self.change.merge(change)
        for fact in change.facts:
            self._facts[fact.id] = fact
            if fact.id not in self._wordings:  # a wording never changes
                self._wordings[fact.id] = fact.wording

    def get_fact(self, fact_id: str) -> Fact | None:
        if fact_id not in self._read and fact_id not in self._facts:
            self._read.add(fact_id)
            if (found := self._tx.get_fact(fact_id)) is not None:
                self._remember(found)
        return self._facts.get(fact_id)

    def find_active(self, type: FactType, subject: str, text_hash: str) -> Fact | None:
        return active_of(self._of((type, subject, text_hash)))

    def find_gone(self, type: FactType, subject: str, text_hash: str) -> Fact | None:
        return latest_gone(self._of((type, subject, text_hash)))

    def _of(self, wording: Wording) -> list[Fact]:
        if wording not in self._read:
            self._read_wordings([wording])
        return [self._facts[i] for i, w in self._wordings.items() if w == wording]

    def _read_wordings(self, wordings: list[Wording]) -> None:
        self._read.update(wordings)
        for fact in self._tx.worded_like(wordings) if wordings else ():
            self._remember(fact)

    def _remember(self, fact: Fact) -> None:
        """A fact as the store has it, unless a staged change has moved it on."""
        if fact.id not in self._facts:
            self._facts[fact.id] = fact
            self._wordings[fact.id] = fact.wording


def reconcile(tx: StagedWrite, candidate: Candidate, now: datetime, tally: Run) -> str:
    """Stage one candidate against the facts as the ones before it left them, counting in
    `tally` what it did; returns the fact it became."""
    fact = candidate.fact
    known = tx.find_active(fact.type, fact.subject, fact.text_hash)
    verdict, neighbors = (
        (Verdict.DUPLICATE, [known]) if known is not None else _verdict(tx, candidate)
    )
    neighbor = neighbors[0] if neighbors else None
    if verdict is Verdict.DUPLICATE and neighbor is not None:
        tx.stage(lifecycle.reinforce(neighbor, at=now, actor=ACTOR, evidence=candidate.evidence))
        tally.facts_reinforced += 1
        return neighbor.id
    change, fact, restored = _created_or_restored(tx, candidate, now)
    rests: list[Candidate] = []
    if verdict is Verdict.SUPERSEDES:
        for older in neighbors:  # "3 engineers now, up to 80k" replaces a count and a pay range
            change = change.merge(lifecycle.supersede(older, fact, at=now, actor=ACTOR))
            tally.facts_superseded += 1
            if older.id in candidate.rests:
                rests.append(candidate.rests[older.id])
    disputed = neighbor if verdict is Verdict.CONTRADICTS else None
    if verdict is Verdict.SUPERSEDES:  # a value given anew may break what another rules out
        disputed = next(iter(_taken(tx, candidate, Verdict.CONTRADICTS)), None)
    if disputed is not None:
        change = change.merge(
            lifecycle.dispute(change.fact(fact.id), disputed, at=now, actor=ACTOR)
        )
        tally.facts_disputed += 2 if disputed.status is not FactStatus.DISPUTED else 1
        for kept in (candidate.rests, candidate.own_rests):
            if disputed.id in kept:
                rests.append(kept[disputed.id])
    tx.stage(change)
    if restored:  # said again after it was let go: counted reinforced
        tally.facts_reinforced += 1
    else:
        tally.facts_added += 1
    for rest in rests:  # what the observations superseded or disputed still tell
        reconcile(tx, rest, now, tally)
    return fact.id


def _created_or_restored(
    tx: StagedWrite, candidate: Candidate, now: datetime
) -> tuple[Change, Fact, bool]:
    """The change that brings the candidate's fact in, the fact as it will be, and whether
    it is an old fact restored rather than a new one."""
    fact = candidate.fact
    change = restore_said_again(tx, fact, candidate.evidence, at=now, actor=ACTOR)
    if change is None:
        note = {"rule": candidate.rule} if candidate.rule else None
        vector = candidate.vector.tolist()
        created = lifecycle.create(
            fact, vector=vector, actor=ACTOR, evidence=candidate.evidence, note=note
        )
        return created, fact, False
    change.facts[0] = change.facts[0].model_copy(update={"judged_at": now})
    # It replaces a neighbor from the moment it was said again, under its old id.
    return change, fact.model_copy(update={"id": change.facts[0].id}), True


def _replaced_at_most(candidate: Candidate) -> int:
    """How many older facts one new fact may replace: one, or one per number it gives ("3
    engineers now, up to 80k" replaces a count and a pay range)."""
    return max(1, numbers_given(candidate.fact.text))


def _verdict(tx: StagedWrite, candidate: Candidate) -> tuple[Verdict, list[Fact]]:
    """The strongest verdict on neighbors still active now (or disputed), and the neighbors
    it applies to: the first, or for a supersession one per figure the new fact gives,
    those of an earlier day whose head count it gives anew first ("there are 42 of us in
    the office" replaces "about 30 of us" before a date it seems to move), then those that share
    the most words with it ("sorry, I meant Saturday the 14th" replaces "we were thinking
    Saturday 7 March", not who the client is); and besides, per part it gives someone,
    one that gave it someone else ("ask for Ilse, she has the keys, 07700 900 731"
    replaces a number and who let the business in)."""
    for wanted in _VERDICT_ORDER:
        taken = _taken(tx, candidate, wanted)
        if taken and wanted is Verdict.SUPERSEDES:
            fact = candidate.fact
            said = set(keywords(fact.text))
            taken.sort(
                key=lambda older: (
                    older.valid_from.date() < fact.valid_from.date()
                    and head_count_updated(older.text, fact.text),
                    len(said.intersection(keywords(older.text))),
                ),
                reverse=True,
            )
            at_most = _replaced_at_most(candidate)
            handed = [o for o in taken[at_most:] if part_given_anew(o.text, fact.text)]
            return wanted, taken[:at_most] + handed[: len(parts_given(fact.text))]
        if taken:
            return wanted, taken[:1]
    return Verdict.DISTINCT, []


def _taken(tx: StagedWrite, candidate: Candidate, wanted: Verdict) -> list[Fact]:
    """The neighbors given the verdict `wanted` that it may still apply to."""
    return [
        neighbor
        for neighbor_id, verdict in candidate.verdicts.items()
        if verdict is wanted
        and (neighbor := tx.get_fact(neighbor_id)) is not None
        and may_take(verdict, neighbor)
    ]
