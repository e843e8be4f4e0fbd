"""What an observation still tells once a newer fact replaces or disputes part of it.

An observation joins the informative statements of one message ("Ines, buyer at a
studio of 12; billed monthly"). When a newer fact replaces one of them ("annual billing
from now on"), superseding the whole observation would lose the others with it; when one
of them is set against another fact ("two of us are coeliac, and 4 are vegan" / "the
garlic bread for everyone"), disputing the whole observation would take its other statements out
of the prompt until a person settles it. Between the judge and the write, each
observation superseded or disputed whose statements the cheap rules can tell apart
(`replaced.replaces_part`, `wording.disputes_part`) gets its rest: a candidate of the
statements left, with the question they answered, the observation's time and category,
and a copy of its evidence (the quote is still verbatim, and still says them). The
write creates it beside the supersession or the dispute, so the old value leaves, the
contradiction waits for a person, and the rest stays.

The newer fact has its rest too: a date put right ("sorry, I meant the 18th, the 8th was
another slot") keeps only the clauses that say the date now, once the rests are known
(they need the mistake named to tell which statement it replaces), and a part handed on
("Corvin retired, so Ottoline has the roof keys now") only the clauses that name who
holds it now.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from pydantic import ValidationError

from somna.consolidate.job import Means
from somna.consolidate.plan import Candidate
from somna.consolidate.wording import disputes_part, years_apart
from somna.llm.rules.asked import dropped
from somna.llm.rules.choices import names_another_value
from somna.llm.rules.contacts import reached_elsewhere
from somna.llm.rules.counts import number_put_right, number_updated
from somna.llm.rules.departures import without_the_departed
from somna.llm.rules.diets import restrictions
from somna.llm.rules.extract import CLIENT_INFO, OBSERVATION
from somna.llm.rules.frames import holds_a_value
from somna.llm.rules.history import without_the_old
from somna.llm.rules.languages import ANSWERED
from somna.llm.rules.remainder import rest_of
from somna.llm.rules.replaced import replaces_part
from somna.llm.rules.rescheduled import dates_replaced, without_the_mistake
from somna.llm.rules.tallies import count_added
from somna.model import Evidence, Fact, Profile, Verdict, is_fact_text
from somna.model.entities import new_id

__all__ = ["keep_the_rest"]


@dataclass(frozen=True)
class _Rest:
    kept_in: dict[str, Candidate]
    """Where the rest goes: the candidate's `rests` or `own_rests`, by the neighbor's id."""
    neighbor_id: str
    of: Fact
    """The observation it is the rest of."""
    text: str


def keep_the_rest(
    means: Means, profile: Profile, candidates: list[Candidate], now: datetime
) -> None:
    """Give each candidate the rest of every observation it supersedes or disputes in
    part, its own among them; then take out of a date put right the clauses that name
    only the mistake ("the 8th was another slot"), out of a part handed on the clauses of
    the departure ("Corvin retired"), and out of any other value given anew the clauses
    that say the old one no longer holds ("quarterly wasn't enough"): they told what it
    replaces, which the superseded fact keeps."""
    _rests_kept(means, profile, candidates, now)
    for candidate in candidates:
        _without_what_it_replaces(candidate)


def _without_what_it_replaces(candidate: Candidate) -> None:
    for neighbor in candidate.neighbors:
        if candidate.verdicts.get(neighbor.id) is not Verdict.SUPERSEDES:
            continue
        text = (
            without_the_mistake(neighbor.text, candidate.fact.text)
            or without_the_departed(neighbor.text, candidate.fact.text)
            or without_the_old(neighbor.text, candidate.fact.text)
        )
        if text is not None and is_fact_text(text):
            candidate.fact = candidate.fact.model_copy(update={"text": text})
            return


def _rests_kept(means: Means, profile: Profile, candidates: list[Candidate], now: datetime) -> None:
    replacing: dict[str, list[Candidate]] = {}  # by the id of an observation superseded
    for candidate in candidates:
        for neighbor_id, verdict in candidate.verdicts.items():
            if verdict is Verdict.SUPERSEDES:
                replacing.setdefault(neighbor_id, []).append(candidate)
    found = [rest for candidate in candidates for rest in _rests(candidate, replacing)]
    if not found:
        return
    with means.store.read(profile.id) as tx:
        stored = tx.evidence([rest.of.id for rest in found])
    said: dict[str, list[Evidence]] = {c.fact.id: c.evidence for c in candidates}
    vectors = means.embedder.embed([rest.text for rest in found])
    for rest, vector in zip(found, vectors, strict=True):
        older = rest.of
        try:  # the rest goes on as the observation did: its time, status and strength
            fact = Fact.model_validate(
                older.model_dump()
                | {"id": new_id("fct"), "text": rest.text, "recorded_at": now, "judged_at": now}
            )
        except ValidationError:
            continue  # a rest too short to be a fact: the verdict takes it all
        evidence = said.get(older.id) or [e for e in stored if e.fact_id == older.id]
        quotes = [e.model_copy(update={"id": new_id("evd"), "fact_id": fact.id}) for e in evidence]
        rest.kept_in[rest.neighbor_id] = Candidate(fact, quotes, vector, rule=OBSERVATION)


def _rests(candidate: Candidate, replacing: dict[str, list[Candidate]]) -> list[_Rest]:
    """The rests `candidate` leaves; of an observation that several candidates of the
    night supersede ("we're switching the lunch to Wednesdays", "we're 18 now"), what
    none of them replaces: the first one staged supersedes it, and the others find it
    gone."""
    fact = candidate.fact
    found = []
    for neighbor in candidate.neighbors:
        verdict = candidate.verdicts.get(neighbor.id)
        if verdict is Verdict.SUPERSEDES:
            newer = replacing.get(neighbor.id, [candidate])
            replaced = partial(_replaced_by_any, newer=newer)
            found += _rest(
                candidate.rests, neighbor, neighbor, replaced, partial(_recounted, newer=newer)
            )
        elif verdict is Verdict.CONTRADICTS:
            years = years_apart(fact, neighbor)
            disputed = partial(disputes_part, other=fact.text, years=years)
            found += _rest(candidate.rests, neighbor, neighbor, disputed, disputed, valued=True)
            disputing = partial(disputes_part, other=neighbor.text, years=years)
            found += _rest(candidate.own_rests, neighbor, fact, disputing, disputing, valued=True)
    return found


def _replaced_by_any(part: str, newer: list[Candidate]) -> bool:
    return any(
        replaces_part(part, c.fact.text, c.evidence[0].quote if c.evidence else None) for c in newer
    )


def _recounted(clause: str, newer: list[Candidate]) -> bool:
    """Whether a figure (or a count added to), a date, a chosen value or a number to call
    of `clause` is given anew, or what it takes dropped, by one of the `newer` facts ("two
    years, paid quarterly" keeps "two years" when monthly payment comes)."""
    return any(
        number_updated(clause, c.fact.text)
        or number_put_right(clause, c.fact.text)
        or count_added(clause, c.fact.text)
        or reached_elsewhere(clause, c.fact.text)
        or dates_replaced(clause, c.fact.text, agreed=True)
        or names_another_value(clause, c.fact.text)
        or dropped(clause, c.fact.text)
        for c in newer
    )


_OBSERVED = frozenset({OBSERVATION, CLIENT_INFO})
"""The categories of an observation: one that chooses a way to be reached is client_info."""


def _rest(
    kept_in: dict[str, Candidate],
    neighbor: Fact,
    of: Fact,
    replaced: Callable[[str], bool],
    clause_replaced: Callable[[str], bool],
    *,
    valued: bool = False,
) -> list[_Rest]:
    """The rest of `of` when it is an observation, and (`valued`) only when what is left
    still gives a value or rules something out: "for the starter, it was lovely" is no rest
    of a disputed choice, "no pesticides, please" is."""
    if of.category not in _OBSERVED:
        return []
    text = rest_of(of.text, replaced, clause_replaced)
    said = ANSWERED.split(text)[0] if text else ""
    if not text or (valued and not (holds_a_value(said) or restrictions(said))):
        return []
    return [_Rest(kept_in, neighbor.id, of, text)]
