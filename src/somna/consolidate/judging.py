"""Judge: each candidate against the facts the profile already holds, in one call at most.

Runs in the profile's turn, after its earlier sessions are written, so a candidate meets
the facts they left. Its neighbors are the closest active fact of its subject above
`judge_floor`, and the facts found by their words whatever their cosine: the same
sentence frame with another value, a count or a name given anew, a diet it breaks. The
cheap pass decides what needs no model (`somna.consolidate.wording`); the other pairs of
the session go to the judge in one call. A candidate whose wording is already active is not judged:
the write reinforces that fact.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial

from somna.consolidate.calls import URGENT, Deadline, counted
from somna.consolidate.job import Job, Means, await_call
from somna.consolidate.plan import Candidate
from somna.consolidate.wording import (
    ONE_OFF,
    Related,
    judge_request,
    may_give_anew,
    related,
    renews,
    same_wording,
    with_the_value_made,
)
from somna.llm.tasks import JUDGE
from somna.model import Fact, Profile, Run, Verdict
from somna.store import Eligibility, Reader

__all__ = ["judge"]

_NEIGHBORS = 1  # the closest neighbor of the same subject is the one worth judging
_RENEWED = 12
"""Facts nearest by meaning, whatever their cosine, that a new value may replace."""

_Pair = tuple[Candidate, Fact]


@dataclass
class _Near:
    """What the store holds near one candidate."""

    closest: list[str]
    """Ids of the facts closest by meaning above the floor, closest first."""
    related: Related


def judge(
    means: Means,
    profile: Profile,
    candidates: list[Candidate],
    run: Run,
    job: Job,
    deadline: Deadline,
) -> None:
    """Give each candidate its neighbors and its verdicts on them."""
    floor = means.tuned(profile).judge_floor
    with means.store.read(profile.id) as tx:
        near = _look_around(tx, candidates, floor, job.now)
        found = {f.id: f for f in tx.get_facts(list(_closest_ids(near)))}
    for i, around in near.items():
        candidates[i].neighbors = _neighbors(candidates[i].fact, around, found)
    pairs = [pair for i, around in near.items() for pair in _cheap(candidates[i], around)]
    _within_session(candidates)
    if pairs:
        _ask(means, pairs, run, job, deadline)


def _look_around(
    tx: Reader, candidates: list[Candidate], floor: float, now: datetime
) -> dict[int, _Near]:
    """By candidate (its index), what is near it; none for a wording already active."""
    eligible = Eligibility(at=now, now=now)
    known = {f.wording for f in tx.worded_like(c.fact.wording for c in candidates) if f.is_active}
    near: dict[int, _Near] = {}
    for i, candidate in enumerate(candidates):
        if candidate.fact.wording in known:
            continue  # the same fact is known: it will be reinforced, nothing to judge
        fact = candidate.fact
        said = candidate.evidence[0].quote if candidate.evidence else None
        renews = may_give_anew(fact.text, said)
        nearest = tx.vector_search(
            candidate.vector, eligible, _RENEWED if renews else 4 * _NEIGHBORS
        )
        near[i] = _Near(
            [fact_id for fact_id, score in nearest[: 4 * _NEIGHBORS] if score >= floor],
            related(tx, fact, eligible, [fact_id for fact_id, _ in nearest], said),
        )
    return near


def _closest_ids(near: dict[int, _Near]) -> dict[str, None]:
    return dict.fromkeys(fact_id for around in near.values() for fact_id in around.closest)


def _neighbors(fact: Fact, around: _Near, found: dict[str, Fact]) -> list[Fact]:
    """The closest fact of the same subject, then those found by their words."""
    subject = fact.subject.casefold()
    same_subject = [
        found[n] for n in around.closest if n in found and found[n].subject.casefold() == subject
    ]
    close = same_subject[:_NEIGHBORS]
    taken = {c.id for c in close}
    return close + [f for f in around.related.facts if f.id not in taken]


def _cheap(candidate: Candidate, around: _Near) -> list[_Pair]:
    """Decide what needs no model; the pairs left for the judge."""
    said = candidate.evidence[0].quote if candidate.evidence else None
    asked = []
    for neighbor in candidate.neighbors:
        # The same words in another order need no model, nor what the rules decide alone
        # (a count given anew, a plan that breaks a stated diet, a choice made again).
        if same_wording(candidate.fact.text, neighbor.text):
            candidate.verdicts[neighbor.id] = Verdict.DUPLICATE
        elif (ruled := around.related.verdict(candidate.fact, neighbor, said)) is not None:
            candidate.verdicts[neighbor.id] = ruled
            if ruled is Verdict.SUPERSEDES:
                candidate.fact = with_the_value_made(candidate.fact, neighbor, said)
        elif candidate.fact.category not in ONE_OFF:
            asked.append((candidate, neighbor))
    return asked


def _within_session(candidates: list[Candidate]) -> None:
    """A candidate that gives anew what an earlier one of its session said supersedes it
    ("booked for 8 September", then "sorry, I meant the 18th"): the store holds neither
    yet, so no search finds the earlier one."""
    for i, candidate in enumerate(candidates):
        said = candidate.evidence[0].quote if candidate.evidence else None
        if not may_give_anew(candidate.fact.text, said):
            continue  # the test every rule of `renews` needs first, read once
        for earlier in candidates[:i]:
            if earlier.fact.id not in candidate.verdicts and renews(
                earlier.fact, candidate.fact, said
            ):
                candidate.verdicts[earlier.fact.id] = Verdict.SUPERSEDES
                candidate.neighbors.append(earlier.fact)  # what else it says stays
                candidate.fact = with_the_value_made(candidate.fact, earlier.fact, said)


def _ask(means: Means, pairs: list[_Pair], run: Run, job: Job, deadline: Deadline) -> None:
    """One judge call for the session's pairs, ahead of any extraction waiting."""
    request = judge_request(
        [(candidate.fact, neighbor) for candidate, neighbor in pairs],
        {c.fact.id: c.evidence[0].quote for c, _ in pairs if c.evidence},
    )
    ask = partial(
        deadline.timed, lambda: counted(run, lambda: means.llm.structured(JUDGE, request))
    )
    judged = await_call(job.calls.submit(ask, URGENT), deadline, job)
    for verdict in judged.verdicts:
        if 0 <= verdict.pair_id < len(pairs):
            candidate, neighbor = pairs[verdict.pair_id]
            candidate.verdicts[neighbor.id] = Verdict(verdict.verdict)
