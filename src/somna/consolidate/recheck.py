"""The night judges, once, the facts that were stored without being judged.

`add_fact` (REST, MCP `fact_add`, the CLI) stores a fact at once and hands the caller
the facts to judge; the caller may not do it, and "Lives in Berlin." then sits beside
"Lives in Paris." with both in the prompt. So the nightly run takes every active fact
nothing has judged yet, finds an older active fact of its subject that the cheap rules
relate to it whatever its cosine (its sentence frame with another value, a value given
anew, a diet or an age set against it, another choice of the same kind:
`somna.consolidate.wording.related`), or else the closest one above `judge_floor`; takes
what the rules decide alone, asks the same judge the pipeline asks for the rest, and
applies the verdict as the pipeline does: a duplicate joins the older fact, a fact that
supersedes ends the older one, a contradiction opens a conflict. Then each of them is
marked judged, so it is checked once. Embedding and the model call come before the
write scope opens.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime

import numpy as np

from somna.consolidate.wording import (
    ONE_OFF,
    judge_request,
    may_take,
    related,
    same_wording,
)
from somna.embed import Embedder
from somna.errors import LLMError
from somna.llm.tasks import Judgements, JudgeRequest
from somna.model import Fact, FactStatus, Run, Verdict, lifecycle
from somna.model.lifecycle import Change
from somna.store import Eligibility, FactFilter, Reader, Store, Writer

__all__ = ["recheck"]

_log = logging.getLogger(__name__)
_SEARCHED = 8  # nearest facts looked at for the closest older one of the same subject
_ACTIVE_FACTS = 10_000  # as many as the night's hygiene looks at
_PAIRS_PER_CALL = 20  # a judge call as small as a session's: a model answers it whole


def recheck(
    store: Store,
    embedder: Embedder,
    judge: Callable[[JudgeRequest], Judgements],
    profile_id: str,
    *,
    floor: float,
    now: datetime,
    actor: str,
    run: Run,
) -> None:
    """Judge the profile's unjudged active facts and apply the verdicts; counted in `run`.

    `judge` is one model call (the pipeline's, counted in the run); when the model fails,
    nothing is written and the facts wait, unjudged, for the next run.
    """
    with store.read(profile_id) as reader:
        active = reader.list_facts(FactFilter(limit=_ACTIVE_FACTS), now)
    waiting = [fact for fact in active if fact.judged_at is None]
    if not waiting:
        return
    vectors = embedder.embed([fact.text for fact in waiting])
    with store.read(profile_id) as reader:
        pairs = [
            (fact, *found)
            for fact, vector in zip(waiting, vectors, strict=True)
            if (found := _older_neighbor(reader, fact, vector, floor, now)) is not None
        ]
    try:
        verdicts = _verdicts(pairs, judge)
    except LLMError as exc:
        _log.warning("The re-check of %d facts waits for the next run: %s", len(waiting), exc)
        return
    with store.write(profile_id) as tx:
        for fact, older, _ in pairs:
            verdict = verdicts.get(fact.id)
            if verdict is not None and verdict is not Verdict.DISTINCT:
                _apply(tx, fact.id, older.id, verdict, now=now, actor=actor, run=run)
        tx.record_judged([fact.id for fact in waiting], now)


def _older_neighbor(
    reader: Reader, fact: Fact, vector: np.ndarray, floor: float, now: datetime
) -> tuple[Fact, Verdict | None] | None:
    """An older active fact of the same subject that the cheap rules relate to ``fact``
    (`somna.consolidate.wording.related`), whatever its cosine, with what the rules decide
    of it; otherwise the closest older one above `floor`, for the judge.

    Only older facts: a newer one was judged against this one when it came (by the
    pipeline, or by this re-check), so each pair is judged once.
    """
    eligible = Eligibility(at=now, now=now)
    nearest = reader.vector_search(vector, eligible, _SEARCHED)
    rules = related(reader, fact, eligible, [fact_id for fact_id, _ in nearest])
    for other in rules.facts:
        if other.recorded_at < fact.recorded_at:
            return other, rules.verdict(fact, other)
    near = [fact_id for fact_id, score in nearest if score >= floor and fact_id != fact.id]
    subject = fact.subject.casefold()
    for neighbor in reader.get_facts(near):
        if neighbor.subject.casefold() == subject and neighbor.recorded_at < fact.recorded_at:
            return neighbor, None
    return None


def _verdicts(
    pairs: Sequence[tuple[Fact, Fact, Verdict | None]],
    judge: Callable[[JudgeRequest], Judgements],
) -> dict[str, Verdict]:
    """Each new fact's verdict on its older neighbor: the same wording, or what the rules
    decide alone, without asking; the rest in judge calls of `_PAIRS_PER_CALL` pairs (dated
    happenings are never asked, as in the pipeline)."""
    verdicts: dict[str, Verdict] = {}
    asked: list[tuple[Fact, Fact]] = []
    for fact, older, ruled in pairs:
        if same_wording(fact.text, older.text):
            verdicts[fact.id] = Verdict.DUPLICATE
        elif ruled is not None:
            verdicts[fact.id] = ruled
        elif fact.category not in ONE_OFF:
            asked.append((fact, older))
    for start in range(0, len(asked), _PAIRS_PER_CALL):
        batch = asked[start : start + _PAIRS_PER_CALL]
        for verdict in judge(judge_request(batch)).verdicts:
            if 0 <= verdict.pair_id < len(batch):
                verdicts[batch[verdict.pair_id][0].id] = Verdict(verdict.verdict)
    return verdicts


def _apply(
    tx: Writer,
    new_fact: str,
    old_fact: str,
    verdict: Verdict,
    *,
    now: datetime,
    actor: str,
    run: Run,
) -> None:
    """One verdict, on the two facts as they are now (either may have moved meanwhile)."""
    new, old = tx.get_fact(new_fact), tx.get_fact(old_fact)
    if new is None or old is None or not new.is_active or not may_take(verdict, old):
        return
    change: Change
    if verdict is Verdict.DUPLICATE:
        change = lifecycle.absorb(new, old, evidence=tx.evidence([new.id]), at=now, actor=actor)
        run.facts_reinforced += 1
    elif verdict is Verdict.SUPERSEDES:
        change = lifecycle.supersede(old, new, at=now, actor=actor)
        run.facts_superseded += 1
    else:
        change = lifecycle.dispute(new, old, at=now, actor=actor)
        run.facts_disputed += 2 if old.status is not FactStatus.DISPUTED else 1
    tx.apply(change)
