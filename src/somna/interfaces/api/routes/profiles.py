"""`/v1/profiles`: list the reachable profiles, create one (admin), read, export, forget one."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query

from somna.interfaces.api.deps import AccessDep, MemoryDep, ReachableProfile
from somna.interfaces.api.dto import ForgetOut, ProfileIn, ProfileOut, SummaryOut
from somna.interfaces.api.routes import errors
from somna.model import SummaryKind

__all__ = ["router"]

router = APIRouter(prefix="/v1/profiles", tags=["profiles"])


@router.get("", response_model=list[ProfileOut], responses=errors())
def list_profiles(memory: MemoryDep, access: AccessDep) -> list[ProfileOut]:
    """The profiles the key reaches (every one for an admin key): a nightly workflow
    with a prefix key consolidates each of its users'."""
    found = memory.list_profiles()
    return [ProfileOut.model_validate(p) for p in found if access.can_reach(p.id)]


@router.post("", status_code=201, response_model=ProfileOut, responses=errors(403, 409))
def create_profile(body: ProfileIn, memory: MemoryDep, access: AccessDep) -> ProfileOut:
    """Create a profile: one isolated memory (admin key). 409 if the id is taken; 422 if
    `settings.overrides` names a setting a profile cannot override or a value out of its
    range."""
    access.require_admin("create profiles")
    created = memory.create_profile(body.id, name=body.name, settings=body.settings)
    return ProfileOut.model_validate(created)


@router.get("/{profile}", response_model=ProfileOut, responses=errors())
def get_profile(profile: ReachableProfile, memory: MemoryDep) -> ProfileOut:
    """One profile."""
    return ProfileOut.model_validate(memory.get_profile(profile))


@router.get("/{profile}/export", response_model=dict[str, Any], responses=errors())
def export_profile(profile: ReachableProfile, memory: MemoryDep) -> dict[str, Any]:
    """Everything the profile holds, as JSON: facts of every status with evidence and
    history, conflicts, summaries, sessions and their unarchived messages."""
    return memory.export(profile)


@router.delete("/{profile}", response_model=ForgetOut, responses=errors(403))
def forget_profile(profile: ReachableProfile, memory: MemoryDep, access: AccessDep) -> ForgetOut:
    """Erase the profile and everything it holds, for good: the right to erasure. An admin
    key may, and a bot's prefix key for the profiles under its prefix (a user asking the
    bot to be forgotten). Returns how many rows went from each table; a tombstone (a hash
    of the id) keeps an n8n import from creating the profile again."""
    if not (access.admin or (access.key is not None and access.key.can_create(profile))):
        raise HTTPException(
            403, "Only an admin key, or a key whose prefix covers the profile, may erase it."
        )
    return ForgetOut(erased=memory.forget(profile))


@router.get("/{profile}/summaries", response_model=list[SummaryOut], responses=errors())
def list_summaries(
    profile: ReachableProfile,
    memory: MemoryDep,
    kind: SummaryKind = SummaryKind.SESSION,
    limit: Annotated[int, Query(ge=1, le=1000)] = 20,
) -> list[SummaryOut]:
    """The profile's summaries of one kind (session, day, portrait), newest first."""
    found = memory.summaries(profile, kind, limit=limit)
    return [SummaryOut.model_validate(s) for s in found]
