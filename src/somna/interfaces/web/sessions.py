"""The Sessions page: open conversations with their short thread, archived ones with summaries."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from somna.interfaces.web.base import PREFIX, HtmlRoute, ViewerDep
from somna.model import SessionStatus, SummaryKind

__all__ = ["router"]

router = APIRouter(
    prefix=f"{PREFIX}/profiles/{{profile}}", route_class=HtmlRoute, include_in_schema=False
)

THREAD = 15
"""Turns of an open conversation shown: the short thread an agent sees."""


@router.get("/sessions")
def sessions_page(request: Request, profile: str, viewer: ViewerDep) -> Response:
    viewer.reach(profile)
    memory = viewer.memory
    listed = memory.sessions(profile, limit=200)
    opened = [s for s in listed if s.status is SessionStatus.OPEN]
    summaries = {s.session_id: s for s in memory.summaries(profile, SummaryKind.SESSION, limit=500)}
    return viewer.page(
        request,
        "sessions.html",
        profile,
        "sessions",
        opened=opened,
        threads={s.id: memory.window(profile, s.key, THREAD) for s in opened[:20]},
        archived=[s for s in listed if s.status is not SessionStatus.OPEN],
        summaries=summaries,
        days=memory.summaries(profile, SummaryKind.DAY, limit=60),
    )
