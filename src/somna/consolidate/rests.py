"""What an observation still tells once a newer fact replaces part of it.

An observation joins the informative statements of one message ("Ines, buyer at a
studio of 12; billed monthly"). When a newer fact replaces one of them ("annual billing
from now on"), superseding the whole observation would lose the others with it. Between
the judge and the write, each superseded observation whose statements the cheap rules can
tell apart (`wording.replaces_part`) gets its rest: a candidate of the statements left,
with the question they answered, the observation's time and category, and a copy of its
evidence (the quote is still verbatim, and still says them). The write creates it beside
the supersession, so the old value leaves and the rest stays.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial

from pydantic import ValidationError

from somna.consolidate.job import Means
from somna.consolidate.plan import Candidate
from somna.consolidate.wording import replaces_part
from somna.llm.rules.counts import number_updated
from somna.llm.rules.extract import OBSERVATION
from somna.llm.rules.observe import rest_of
from somna.model import Fact, Profile, Verdict
from somna.model.entities import new_id

__all__ = ["keep_the_rest"]


def keep_the_rest(
    means: Means, profile: Profile, candidates: list[Candidate], now: datetime
) -> None:
    """Give each candidate the rest of every observation it supersedes in part."""
    found: list[tuple[Candidate, Fact, str]] = []
    for candidate in candidates:
        said = candidate.evidence[0].quote if candidate.evidence else None
        replaced = partial(replaces_part, new=candidate.fact.text, said=said)
        recounted = partial(number_updated, new=candidate.fact.text)
        for neighbor in candidate.neighbors:
            if (
                candidate.verdicts.get(neighbor.id) is Verdict.SUPERSEDES
                and neighbor.category == OBSERVATION
                and (rest := rest_of(neighbor.text, replaced, recounted))
            ):
                found.append((candidate, neighbor, rest))
    if not found:
        return
    with means.store.read(profile.id) as tx:
        evidence = tx.evidence([older.id for _, older, _ in found])
    vectors = means.embedder.embed([rest for _, _, rest in found])
    for (candidate, older, rest), vector in zip(found, vectors, strict=True):
        try:  # the rest goes on as the observation did: its time, status and strength
            fact = Fact.model_validate(
                older.model_dump()
                | {"id": new_id("fct"), "text": rest, "recorded_at": now, "judged_at": now}
            )
        except ValidationError:
            continue  # a rest too short to be a fact: the supersession takes it all
        quotes = [
            e.model_copy(update={"id": new_id("evd"), "fact_id": fact.id})
            for e in evidence
            if e.fact_id == older.id
        ]
        candidate.rests[older.id] = Candidate(fact, quotes, vector, rule=OBSERVATION)
