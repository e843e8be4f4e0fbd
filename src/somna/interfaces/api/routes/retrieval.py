"""`/v1/profiles/{profile}/search`, `/recall` and `/context`: what the agent should remember."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from somna.interfaces.api.deps import MemoryDep, ReachableProfile
from somna.interfaces.api.dto import (
    ContextIn,
    ContextOut,
    Instant,
    RecalledOut,
    RecallIn,
    SearchHitOut,
    SearchIn,
)
from somna.interfaces.api.routes import errors

__all__ = ["router"]

router = APIRouter(prefix="/v1/profiles/{profile}", tags=["recall"])


@router.get("/search", response_model=list[SearchHitOut], responses=errors())
def search_get(
    profile: ReachableProfile,
    memory: MemoryDep,
    q: Annotated[str, Query(min_length=1, max_length=2000, description="Words or a question.")],
    k: Annotated[int, Query(ge=1, le=100)] = 5,
    as_of: Annotated[Instant | None, Query(description="Search that moment.")] = None,
) -> list[SearchHitOut]:
    """The `k` active facts most relevant to `q`: full text and vectors, fused by rank."""
    return [SearchHitOut.model_validate(h) for h in memory.search(profile, q, k, as_of=as_of)]


@router.post("/search", response_model=list[SearchHitOut], responses=errors())
def search_post(profile: ReachableProfile, body: SearchIn, memory: MemoryDep) -> list[SearchHitOut]:
    """The same search, with the query in a JSON body."""
    hits = memory.search(profile, body.query, body.k, as_of=body.as_of)
    return [SearchHitOut.model_validate(h) for h in hits]


@router.post("/recall", response_model=list[RecalledOut], responses=errors(502))
def recall(profile: ReachableProfile, body: RecallIn, memory: MemoryDep) -> list[RecalledOut]:
    """Facts and conversation summaries for a query, best first, each with the signals
    that brought it (text and vector ranks, recency, confidence, strength)."""
    found = memory.recall(
        profile,
        body.query,
        body.k,
        as_of=body.as_of,
        types=body.types,
        include_summaries=body.include_summaries,
        session_key=body.session_key,
    )
    return [RecalledOut.model_validate(r) for r in found]


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
    return ContextOut(context=text)
