"""Multi-query recall: the LLM proposes 2-3 rephrasings of a question, each is recalled, and
the rankings are fused by reciprocal rank, so a fact worded unlike the question still comes.

Off by default (`multi_query`): it costs one model call per recall. The offline rules
provider proposes no rephrasing, and a model that fails leaves the plain recall.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from somna.errors import LLMError
from somna.memory.results import Found, Recalled
from somna.memory.retrieval import Retrieval
from somna.model import FactType
from somna.recall.fusion import rrf

if TYPE_CHECKING:
    from somna.llm import LLM

__all__ = ["MAX_REPHRASINGS", "multi_recall", "rephrasings"]

MAX_REPHRASINGS = 3


def rephrasings(llm: LLM, query: str) -> list[str]:
    """Up to `MAX_REPHRASINGS` other wordings of `query`; none from the rules provider or a
    failing model."""
    from somna.llm.conversation import REPHRASE, RephraseRequest
    from somna.llm.rules import RulesLLM

    if isinstance(llm, RulesLLM):
        return []
    try:
        proposed = llm.structured(REPHRASE, RephraseRequest(query=query)).value.queries
    except LLMError:
        return []
    seen = {" ".join(query.casefold().split())}
    kept = []
    for text in proposed:
        folded = " ".join(text.casefold().split())
        if folded and folded not in seen and len(text) <= 2000:
            seen.add(folded)
            kept.append(text.strip())
    return kept[:MAX_REPHRASINGS]


def multi_recall(
    retrieval: Retrieval,
    llm: Callable[[], LLM],
    profile: str,
    query: str,
    k: int,
    *,
    as_of: datetime | None,
    types: list[FactType] | None,
    include_summaries: bool,
    now: datetime,
) -> Found[Recalled]:
    """Recall `query` and its rephrasings, fused by rank; the top `k`, reinforced once.

    Without rephrasings (rules provider, failing model) this is the plain recall.
    """
    others = rephrasings(llm(), query)

    def recall(text: str, record: bool) -> Found[Recalled]:
        return retrieval.recall(
            profile,
            text,
            k,
            as_of=as_of,
            types=types,
            include_summaries=include_summaries,
            now=now,
            record=record,
        )

    if not others:
        return recall(query, record=True)
    queries = [query, *others]
    found: dict[str, Recalled] = {}
    rankings = []
    degraded: dict[str, None] = {}
    for text in queries:
        results = recall(text, record=False)
        degraded.update(dict.fromkeys(results.degraded))
        rankings.append([r.id for r in results])
        for result in results:
            found.setdefault(result.id, result)
    chosen = [
        dataclasses.replace(
            found[item],
            signals={**found[item].signals, "multi_query_rrf": score, "queries": len(queries)},
        )
        for item, score in rrf(rankings)[:k]
    ]
    retrieval.usage.record(profile, [r.fact for r in chosen if r.fact is not None], now)
    return Found(chosen, degraded)
