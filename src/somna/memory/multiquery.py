"""What the LLM may do to a query before recall: rewrite a follow-up into a standalone
question (`query_rewrite`), or propose 2-3 rephrasings, each recalled, the rankings fused
by reciprocal rank, so a fact worded unlike the question still comes (`multi_query`).

Both are off by default: each costs one model call per recall. The offline rules
provider proposes no rephrasing, and a model that fails leaves the query as written.
An agent often recalls a question and then builds its prompt block for the same one:
`Rephrasings` keeps the latest questions' rephrasings, so that costs one call.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from datetime import datetime
from typing import TYPE_CHECKING

from somna.errors import LLMError
from somna.memory.results import Found, Recalled
from somna.memory.retrieval import Retrieval
from somna.model import FactType, Message
from somna.ranking.fusion import rrf

if TYPE_CHECKING:
    from somna.llm import LLM

__all__ = ["MAX_REPHRASINGS", "Rephrasings", "multi_recall", "rephrasings", "rewrite_query"]

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


def rephrasings(llm: LLM, query: str) -> list[str] | None:
    """Up to `MAX_REPHRASINGS` other wordings of `query`; none from the rules provider, and
    None from a failing model."""
    from somna.llm.conversation import REPHRASE, RephraseRequest
    from somna.llm.rules import RulesLLM

    if isinstance(llm, RulesLLM):
        return []
    try:
        proposed = llm.structured(REPHRASE, RephraseRequest(query=query)).value.queries
    except LLMError:
        return None
    seen = {" ".join(query.casefold().split())}
    kept = []
    for text in proposed:
        folded = " ".join(text.casefold().split())
        if folded and folded not in seen and len(text) <= 2000:
            seen.add(folded)
            kept.append(text.strip())
    return kept[:MAX_REPHRASINGS]


class Rephrasings:
    """The rephrasings of the last `size` questions asked: one model call per question.

    A failure is not kept, so a model that comes back is asked again.
    """

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._known: OrderedDict[str, list[str]] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, llm: LLM, query: str) -> list[str]:
        with self._lock:
            known = self._known.get(query)
            if known is not None:
                self._known.move_to_end(query)
                return list(known)
        proposed = rephrasings(llm, query)
        if proposed is None:
            return []
        with self._lock:
            self._known[query] = proposed
            while len(self._known) > self.size:
                self._known.popitem(last=False)
        return list(proposed)


def multi_recall(
    retrieval: Retrieval,
    others: list[str],
    profile: str,
    query: str,
    k: int,
    *,
    as_of: datetime | None,
    types: list[FactType] | None,
    include_summaries: bool,
    now: datetime,
    record: bool = True,
) -> Found[Recalled]:
    """Recall `query` and its rephrasings `others`, fused by rank; the top `k`, reinforced
    once unless `record` is False (the caller records what it uses). Without rephrasings
    this is the plain recall.
    """

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
        return recall(query, record=record)
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
    if record:
        retrieval.usage.record(profile, [r.fact for r in chosen if r.fact is not None], now)
    return Found(chosen, degraded)
