"""The Facts pages: search and filter, one fact's evidence and history, correct, delete, verify."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Form, Request, Response
from fastapi.responses import RedirectResponse

from somna.errors import InvalidInputError
from somna.interfaces.web.base import PREFIX, HtmlRoute, ViewerDep, back
from somna.model import Fact, FactStatus, FactType, utc

__all__ = ["PAGE_SIZE", "router"]

router = APIRouter(
    prefix=f"{PREFIX}/profiles/{{profile}}/facts", route_class=HtmlRoute, include_in_schema=False
)

PAGE_SIZE = 50
"""Facts per page; pages are read with the store's limit and offset, never all at once."""

ALL = "all"
"""The status filter that shows facts of every status, retired and superseded included."""


def _moment(value: str) -> datetime | None:
    if not value.strip():
        return None
    try:
        return utc(datetime.fromisoformat(value.strip()))
    except ValueError:
        raise InvalidInputError(
            f"The date {value!r} is not a date; write it as YYYY-MM-DD."
        ) from None


@router.get("")
def facts_page(
    request: Request,
    profile: str,
    viewer: ViewerDep,
    q: str = "",
    type: str = "",
    status: str = "",
    category: str = "",
    subject: str = "",
    valid_at: str = "",
    page: int = 1,
) -> Response:
    """Active facts by default; a query runs the same hybrid search as the API."""
    viewer.reach(profile)
    memory = viewer.memory
    as_of = _moment(valid_at)
    page = max(page, 1)
    offset = (page - 1) * PAGE_SIZE
    statuses: list[str] | None = (
        [s.value for s in FactStatus] if status == ALL else [status] if status else None
    )
    if q.strip():
        hits = memory.search(profile, q, k=offset + PAGE_SIZE + 1, as_of=as_of)
        found: list[Fact] = [
            h.fact
            for h in hits
            if (not type or h.fact.type == type)
            and (statuses is None or h.fact.status in statuses)
            and (not category or h.fact.category == category)
            and (not subject or h.fact.subject == subject)
        ][offset:]
    else:
        found = memory.list_facts(
            profile,
            type=type or None,
            status=statuses,
            category=category or None,
            subject=subject or None,
            as_of=as_of,
            limit=PAGE_SIZE + 1,
            offset=offset,
        )
    query = {
        "q": q,
        "type": type,
        "status": status,
        "category": category,
        "subject": subject,
        "valid_at": valid_at,
    }
    return viewer.page(
        request,
        "facts.html",
        profile,
        "facts",
        facts=found[:PAGE_SIZE],
        page=page,
        more=len(found) > PAGE_SIZE,
        query=query,
        types=[t.value for t in FactType],
        statuses=[s.value for s in FactStatus],
    )


@router.get("/{fact_id}")
def fact_page(request: Request, profile: str, fact_id: str, viewer: ViewerDep) -> Response:
    """One fact: its evidence (with the conversation it came from), versions and events."""
    viewer.reach(profile)
    history = viewer.memory.history(profile, fact_id)
    quoted = {e.session_id for e in history.evidence if e.session_id}
    sessions = (
        {s.id: s for s in viewer.memory.sessions(profile, limit=10_000) if s.id in quoted}
        if quoted
        else {}
    )
    return viewer.page(
        request,
        "fact.html",
        profile,
        "facts",
        fact=history.fact,
        history=history,
        sessions=sessions,
        types=[t.value for t in FactType],
    )


@router.post("/{fact_id}/correct")
def correct(
    profile: str,
    fact_id: str,
    viewer: ViewerDep,
    csrf: Annotated[str, Form()] = "",
    text: Annotated[str, Form()] = "",
    category: Annotated[str, Form()] = "",
) -> RedirectResponse:
    viewer.check(csrf)
    viewer.reach(profile)
    old = viewer.memory.get(profile, fact_id)
    new = viewer.memory.update(
        profile,
        fact_id,
        text=text if text.strip() and text.strip() != old.text else None,
        category=category.strip() if category.strip() != (old.category or "") else None,
        actor=viewer.actor,
    )
    viewer.notice("The fact was corrected: this is its new version.")
    return back(f"{PREFIX}/profiles/{profile}/facts/{new.id}")


@router.post("/{fact_id}/delete")
def delete(
    profile: str, fact_id: str, viewer: ViewerDep, csrf: Annotated[str, Form()] = ""
) -> RedirectResponse:
    viewer.check(csrf)
    viewer.reach(profile)
    viewer.memory.delete(profile, fact_id, actor=viewer.actor, reason="deleted in the dashboard")
    viewer.notice("The fact was deleted; it stays in its history as retired.")
    return back(f"{PREFIX}/profiles/{profile}/facts/{fact_id}")


@router.post("/{fact_id}/verify")
def verify(
    profile: str,
    fact_id: str,
    viewer: ViewerDep,
    csrf: Annotated[str, Form()] = "",
    next: Annotated[str, Form()] = "",
) -> RedirectResponse:
    viewer.check(csrf)
    viewer.reach(profile)
    fact = viewer.memory.verify(profile, fact_id, actor=viewer.actor)
    approved = fact.type is FactType.INSTRUCTION
    viewer.notice("The rule was approved." if approved else "The fact is now verified.")
    return back(_local(next) or f"{PREFIX}/profiles/{profile}/facts/{fact_id}")


def _local(url: str) -> str | None:
    """A return address inside the dashboard only (never another site)."""
    return url if url.startswith(f"{PREFIX}/") and not url.startswith("//") else None
