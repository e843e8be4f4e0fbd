"""`/v1/profiles/{profile}/facts`: add, judge, read, list, correct, retire, and history."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Response

from somna.interfaces.api.deps import AccessDep, MemoryDep, ReachableProfile
from somna.interfaces.api.dto import (
    AddedOut,
    BatchOut,
    FactIn,
    FactOut,
    FactPatch,
    FactsIn,
    HistoryOut,
    Instant,
    OutcomeOut,
    ResolveIn,
)
from somna.interfaces.api.routes import errors
from somna.model import Fact, FactStatus, FactType

__all__ = ["router"]

router = APIRouter(prefix="/v1/profiles/{profile}/facts", tags=["facts"])

FactId = Annotated[str, Path(min_length=1, max_length=64, description="The fact's id (fct_…).")]


@router.post(
    "",
    status_code=201,
    response_model=AddedOut,
    responses={**errors(), 200: {"model": AddedOut, "description": "Already known: reinforced."}},
)
def add_fact(
    profile: ReachableProfile,
    body: FactIn,
    memory: MemoryDep,
    access: AccessDep,
    response: Response,
) -> AddedOut:
    """Store a fact (201), or reinforce the same active fact if it is already known (200).

    `similar` lists the active facts whose cosine similarity to it reaches the
    neighbor floor, each with its similarity: judge each one with
    `POST …/facts/{id}/resolve` (duplicate, supersedes, contradicts or distinct).
    `candidates` lists facts of the same subject from the judge floor up: a changed
    value ("Lives in Paris", then "Lives in Berlin") lands there; judge them alike.
    """
    added = memory.add_fact(profile, body, actor=access.actor)
    if not added.created:
        response.status_code = 200
    return AddedOut.model_validate(added).model_copy(
        update={"note": None if added.created else _kept_note(profile, body, added.fact)}
    )


@router.post(":batch", response_model=BatchOut, responses=errors())
def add_facts(
    profile: ReachableProfile, body: FactsIn, memory: MemoryDep, access: AccessDep
) -> BatchOut:
    """Store many facts in one call: one embedding batch, one transaction, at most 1,000.

    Each is stored or reinforced as `POST …/facts` would, in order, and comes back in the
    same place of `added`, with its neighbours to judge. A fact that cannot be stored
    refuses the whole batch (422, naming its index): nothing is written.
    """
    added = memory.add_facts(profile, body.facts, actor=access.actor)
    return BatchOut(
        added=[
            AddedOut.model_validate(a).model_copy(
                update={"note": None if a.created else _kept_note(profile, sent, a.fact)}
            )
            for a, sent in zip(added, body.facts, strict=True)
        ]
    )


def _kept_note(profile: str, body: FactIn, known: Fact) -> str | None:
    """Reinforcing never rewrites a fact: say so when the request asked for another category."""
    if body.category is None or body.category == known.category:
        return None
    kept = f"category {known.category!r}" if known.category else "lack of a category"
    return (
        f"Already known as {known.id}: reinforced, not stored again, and it keeps its "
        f"{kept}, not {body.category!r}. "
        f"To change it, PATCH /v1/profiles/{profile}/facts/{known.id} with that category."
    )


@router.post("/{fact_id}/resolve", response_model=OutcomeOut, responses=errors(409))
def resolve_fact(
    profile: ReachableProfile,
    fact_id: FactId,
    body: ResolveIn,
    memory: MemoryDep,
    access: AccessDep,
) -> OutcomeOut:
    """Judge how fact `fact_id` (the new one) relates to `existing_id`, and apply it.

    duplicate: the new fact is retired into the existing one; supersedes: the
    existing one ends where the new one begins; contradicts: both are disputed
    and a conflict opens for a person; distinct: nothing changes.
    """
    outcome = memory.resolve(profile, fact_id, body.existing_id, body.verdict, actor=access.actor)
    return OutcomeOut.model_validate(outcome)


@router.get("/{fact_id}", response_model=FactOut, responses=errors())
def get_fact(profile: ReachableProfile, fact_id: FactId, memory: MemoryDep) -> FactOut:
    """One fact, whatever its status."""
    return FactOut.model_validate(memory.get(profile, fact_id))


@router.get("", response_model=list[FactOut], responses=errors())
def list_facts(
    profile: ReachableProfile,
    memory: MemoryDep,
    type: Annotated[list[FactType] | None, Query(description="Repeat for several.")] = None,
    status: Annotated[
        list[FactStatus] | None, Query(description="Repeat for several; default: active ones.")
    ] = None,
    category: Annotated[str | None, Query(max_length=64)] = None,
    subject: Annotated[str | None, Query(max_length=200)] = None,
    text: Annotated[str | None, Query(max_length=500, description="Words the text holds.")] = None,
    as_of: Annotated[
        Instant | None, Query(description="Facts true at that moment (valid time).")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> list[FactOut]:
    """The profile's facts, newest first; without `status`, the active ones."""
    found = memory.list_facts(
        profile,
        type=type,
        status=status,
        category=category,
        subject=subject,
        text=text,
        as_of=as_of,
        limit=limit,
        offset=offset,
    )
    return [FactOut.model_validate(f) for f in found]


@router.patch("/{fact_id}", response_model=FactOut, responses=errors(403, 409))
def update_fact(
    profile: ReachableProfile,
    fact_id: FactId,
    body: FactPatch,
    memory: MemoryDep,
    access: AccessDep,
) -> FactOut:
    """Correct a fact: a new verified version replaces it (returned, with a new id);
    the old one stays in its history. An instruction is a person's to correct or retype:
    403 for a key that is not an admin key."""
    return FactOut.model_validate(memory.update(profile, fact_id, body, actor=access.actor))


@router.delete("/{fact_id}", response_model=FactOut, responses=errors(409))
def delete_fact(
    profile: ReachableProfile,
    fact_id: FactId,
    memory: MemoryDep,
    access: AccessDep,
    reason: Annotated[str, Query(min_length=1, max_length=200)] = "deleted",
) -> FactOut:
    """Retire a fact: it leaves recall and lists and stays in history. Nothing is destroyed."""
    return FactOut.model_validate(
        memory.delete(profile, fact_id, actor=access.actor, reason=reason)
    )


@router.get("/{fact_id}/history", response_model=HistoryOut, responses=errors())
def fact_history(profile: ReachableProfile, fact_id: FactId, memory: MemoryDep) -> HistoryOut:
    """The fact's version chain (oldest first), its events and its evidence."""
    return HistoryOut.model_validate(memory.history(profile, fact_id))
