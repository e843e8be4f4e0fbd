"""`/v1/llm/check`: how the configured model endpoint answers, for the Settings page (admin)."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from somna.interfaces.api.deps import AccessDep, MemoryDep
from somna.interfaces.api.routes import errors
from somna.llm.check import check_llm

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["llm"])


class ModeProbeOut(BaseModel):
    mode: str
    works: bool
    seconds: float
    folded: bool
    problem: str | None


class LlmCheckOut(BaseModel):
    """What `somna llm check --json` prints: credentials in the base URL are masked."""

    provider: str
    base_url: str | None
    model: str | None
    models: list[str]
    context_limit: int | None
    output_limit: int | None
    probes: list[ModeProbeOut]
    mode: str | None
    folds_system: bool
    why: str
    problems: list[str]
    usable: bool


@router.get("/llm/check", response_model=LlmCheckOut, responses=errors(403))
def llm_check(memory: MemoryDep, access: AccessDep) -> LlmCheckOut:
    """Probe the configured model endpoint once (models, a tiny JSON call in each mode,
    limits, latency) and say which mode consolidation will use and why. Admin only.
    """
    access.require_admin("check the model endpoint")
    return LlmCheckOut.model_validate(check_llm(memory.settings).as_dict())
