"""`/v1/profiles/{profile}/search`, `/recall` and `/context`: what the agent should remember."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from pydantic import TypeAdapter

from somna.interfaces.api.deps import MemoryDep, ReachableProfile
from somna.interfaces.api.dto import (
    CompactRecalledOut,
    ContextIn,
    ContextOut,
    Instant,
    RecalledOut,
    RecallIn,
    SearchHitOut,
    SearchIn,
)
from somna.interfaces.api.routes import errors
from somna.memory.results import Found

__all__ = ["router"]

router = APIRouter(prefix="/v1/profiles/{profile}", tags=["recall"])

DEGRADED = "Somna-Degraded"
"""The response header that says a part was down and done without (the embedder, query
rewriting): one sentence per part. Absent when everything worked."""


_HITS = TypeAdapter(list[SearchHitOut])
_RECALLED = TypeAdapter(list[RecalledOut])
_COMPACT = TypeAdapter(list[CompactRecalledOut])


def _answer(adapter: TypeAdapter[Any], items: list[Any], found: Found[Any]) -> Response:
    """The results as JSON, serialized once: a returned model would be validated again
    against `response_model`, which then only documents the answer."""
    checked = adapter.validate_python(items, from_attributes=True)
    response = Response(adapter.dump_json(checked), media_type="application/json")
    if found.degraded:
        text = " ".join(found.degraded)
        response.headers[DEGRADED] = text.encode("ascii", "backslashreplace").decode()
    return response


@router.get("/search", response_model=list[SearchHitOut], responses=errors())
def search_get(
    profile: ReachableProfile,
    memory: MemoryDep,
    q: Annotated[str, Query(min_length=1, max_length=2000, description="Words or a question.")],
    k: Annotated[int, Query(ge=1, le=100)] = 5,
    as_of: Annotated[Instant | None, Query(description="Search that moment.")] = None,
) -> Response:
    """The `k` active facts most relevant to `q`: full text and vectors, fused by rank.
    With the embedder down, full text alone, and the `Somna-Degraded` header says so."""
    hits = memory.search(profile, q, k, as_of=as_of)
    return _answer(_HITS, list(hits), hits)


@router.post("/search", response_model=list[SearchHitOut], responses=errors())
def search_post(profile: ReachableProfile, body: SearchIn, memory: MemoryDep) -> Response:
    """The same search, with the query in a JSON body."""
    hits = memory.search(profile, body.query, body.k, as_of=body.as_of)
    return _answer(_HITS, list(hits), hits)


@router.post(
    "/recall",
    response_model=list[RecalledOut] | list[CompactRecalledOut],
    responses=errors(502),
)
def recall(profile: ReachableProfile, body: RecallIn, memory: MemoryDep) -> Response:
    """Facts and conversation summaries for a query, best first, each with the signals
    that brought it (text and vector ranks, recency, confidence, strength); with
    `"format": "compact"`, only each one's id, text, date and status. A part that is down
    (query rewriting, the embedder) is done without, and the `Somna-Degraded` header
    says so."""
    found = memory.recall(
        profile,
        body.query,
        body.k,
        as_of=body.as_of,
        types=body.types,
        include_summaries=body.include_summaries,
        session_key=body.session_key,
    )
    if body.format == "compact":
        return _answer(_COMPACT, [r.compact() for r in found], found)
    return _answer(_RECALLED, list(found), found)


@router.post("/context", response_model=ContextOut, responses=errors(502))
def context(profile: ReachableProfile, body: ContextIn, memory: MemoryDep) -> ContextOut:
    """The block for a system prompt: the portrait, then dated facts, within the budget."""
    text = memory.context(
        profile,
        body.query,
        session_key=body.session_key,
        budget_tokens=body.budget_tokens,
        k=body.k,
    )
    return ContextOut(context=text, degraded=text.degraded)
