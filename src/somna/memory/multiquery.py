"""What the LLM may do to a query before recall: rewrite a follow-up into a standalone
question (`query_rewrite`), or propose 2-3 rephrasings, each recalled, the rankings fused
by reciprocal rank, so a fact worded unlike the question still comes (`multi_query`).

Both are off by default: each costs one model call per recall. The offline rules
provider proposes no rephrasing, and a model that fails leaves the query as written.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import TYPE_CHECKING

from somna.errors import LLMError
from somna.memory.results import Found, Recalled
from somna.memory.retrieval import Retrieval
from somna.model import FactType, Message
from somna.ranking.fusion import rrf

if TYPE_CHECKING:
    from somna.llm import LLM

__all__ = ["MAX_REPHRASINGS", "multi_recall", "rephrasings", "rewrite_query"]

MAX_REPHRASINGS = 3


def rewrite_query(llm: LLM, query: str, window: list[Message], degraded: list[str]) -> str:
    """The query made standalone by the model from the conversation's last turns, or as
    written when the model fails (which `degraded` then says)."""
    from somna.llm.tasks import REWRITE, ChatTurn, RewriteRequest

    request = RewriteRequest(
        query=query, window=[ChatTurn(role=m.role, content=m.content) for m in window]
    )
    try:
        rewritten: str = llm.structured(REWRITE, request).value.query
    except LLMError as exc:
        reason = str(exc).rstrip(".")
        degraded.append(f"The query was used as written, because rewriting failed: {reason}.")
        return query
    return rewritten.strip() or query


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
    llm: LLM | None,
    profile: str,
    query: str,
    k: int,
    *,
    as_of: datetime | None,
    types: list[FactType] | None,
    include_summaries: bool,
    now: datetime,
) -> Found[Recalled]:
    """Recall `query` and its rephrasings by `llm`, fused by rank; the top `k`, reinforced once.

    Without rephrasings (no `llm`, the rules provider, a failing model) this is the plain
    recall.
    """
    others = [] if llm is None else rephrasings(llm, query)

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
