"""`/v1/profiles/{profile}/conflicts`: facts that disagree, and how a person settles them."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from somna.interfaces.api.deps import AccessDep, MemoryDep, ReachableProfile
from somna.interfaces.api.dto import ConflictPairOut, ConflictResolveIn
from somna.interfaces.api.routes import errors
from somna.model import ConflictStatus

__all__ = ["router"]

router = APIRouter(prefix="/v1/profiles/{profile}/conflicts", tags=["conflicts"])


@router.get("", response_model=list[ConflictPairOut], responses=errors())
def list_conflicts(
    profile: ReachableProfile, memory: MemoryDep, status: ConflictStatus = ConflictStatus.OPEN
) -> list[ConflictPairOut]:
    """Conflicts with both facts; `open` includes deferred ones whose delay is over."""
    return [ConflictPairOut.model_validate(pair) for pair in memory.conflicts(profile, status)]


@router.post("/{conflict_id}/resolve", response_model=ConflictPairOut, responses=errors(403, 409))
def resolve_conflict(
    profile: ReachableProfile,
    conflict_id: Annotated[str, Path(min_length=1, max_length=64)],
    body: ConflictResolveIn,
    memory: MemoryDep,
    access: AccessDep,
) -> ConflictPairOut:
    """Settle a conflict: `a_true`, `b_true`, `neither`, `corrected` (with `correction`,
    stored as a new verified fact), or `defer` (comes back after the defer delay). A
    conflict about an instruction is a person's to settle: 403 for a key that is not an
    admin key."""
    pair = memory.resolve_conflict(
        profile, conflict_id, body.resolution, correction=body.correction, actor=access.actor
    )
    return ConflictPairOut.model_validate(pair)
