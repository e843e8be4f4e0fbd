"""`/v1/consolidate` and `/v1/runs`: the nightly job, run on demand, and its reports."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from somna.errors import NotFoundError
from somna.interfaces.api.deps import AccessDep, MemoryDep
from somna.interfaces.api.dto import ConsolidateIn, RunOut
from somna.interfaces.api.routes import errors

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["consolidation"])

_SCAN = 10_000  # how many recent runs `GET /v1/runs/{id}` looks through


@router.post("/consolidate", response_model=RunOut, responses=errors(403, 502))
def consolidate(body: ConsolidateIn, memory: MemoryDep, access: AccessDep) -> RunOut:
    """Run the nightly job now and wait for it: conversations quiet for `idle_hours`
    become facts, their messages move to the archive. `dry_run` writes nothing.

    Without `profile` it covers every profile, which only an admin key may ask.
    """
    if body.profile is None:
        access.require_admin("consolidate every profile; name the profile to consolidate")
    else:
        access.reach(body.profile)
    run = memory.consolidate(
        body.profile, idle_hours=body.idle_hours, limit=body.limit, dry_run=body.dry_run
    )
    return RunOut.model_validate(run)


@router.get("/runs", response_model=list[RunOut], responses=errors())
def list_runs(
    memory: MemoryDep,
    access: AccessDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 20,
) -> list[RunOut]:
    """The latest consolidation runs, newest first; a profile key sees its profiles' runs."""
    scan = limit if access.admin else _SCAN
    return [RunOut.model_validate(r) for r in memory.runs(scan) if access.sees_run(r)][:limit]


@router.get("/runs/{run_id}", response_model=RunOut, responses=errors())
def get_run(
    run_id: Annotated[str, Path(min_length=1, max_length=64)], memory: MemoryDep, access: AccessDep
) -> RunOut:
    """One run, by id."""
    for run in memory.runs(_SCAN):
        if run.id == run_id and access.sees_run(run):
            return RunOut.model_validate(run)
    raise NotFoundError(f"There is no consolidation run with id {run_id!r}.")
