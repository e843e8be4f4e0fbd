"""The Facts pages: search and filter, one fact's story, correct, verify, delete and restore."""

from __future__ import annotations

from contextlib import suppress
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request, Response
from fastapi.responses import RedirectResponse
from pydantic import BaseModel

from somna.errors import InvalidInputError, NotFoundError
from somna.interfaces.web.base import PREFIX, EditorDep, HtmlRoute, ViewerDep, back
from somna.interfaces.web.story import story
from somna.memory import ConflictPair
from somna.model import ConflictStatus, EventAction, Fact, FactStatus, FactType, utc

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


def _page_number(page: str) -> tuple[int, str | None]:
    """The page asked for, or page 1 and a sentence saying why."""
    try:
        number = int(page)
    except ValueError:
        return 1, f"“{page}” is not a page number; here is page 1."
    if number < 1:
        return 1, "Pages start at 1; here is page 1."
    return number, None


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
    page: str = "1",
) -> Response:
    """Facts of any status, filtered; a query keeps the facts whose text contains it."""
    viewer.reach(profile)
    memory = viewer.memory
    number, problem = _page_number(page)
    filters: dict[str, Any] = {
        "type": type or None,
        "status": [s.value for s in FactStatus] if status == ALL else status or None,
        "category": category.strip() or None,
        "subject": subject.strip() or None,
        "text": q.strip() or None,
        "as_of": _moment(valid_at),
    }
    total = memory.count_facts(profile, **filters)
    pages = max(1, -(-total // PAGE_SIZE))
    if number > pages:
        problem = problem or f"There are only {pages} pages; here is the last one."
        number = pages
    found = memory.list_facts(profile, **filters, limit=PAGE_SIZE, offset=(number - 1) * PAGE_SIZE)
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
        facts=found,
        total=total,
        page=number,
        pages=pages,
        problem=problem,
        query=query,
        types=[t.value for t in FactType],
        statuses=[s.value for s in FactStatus],
    )


@router.get("/{fact_id}")
def fact_page(request: Request, profile: str, fact_id: str, viewer: ViewerDep) -> Response:
    """One fact: its evidence (with the conversation it came from), versions and its story."""
    viewer.reach(profile)
    memory = viewer.memory
    history = memory.history(profile, fact_id)
    named = {v.id: v for v in history.versions}
    pairs: dict[str, ConflictPair] = {}
    for event in history.events:
        after = event.after or {}
        if event.action is EventAction.DISPUTED and not pairs:
            for wanted in ConflictStatus:
                pairs.update((p.conflict.id, p) for p in memory.conflicts(profile, wanted))
        reason = str(after.get("reason", ""))
        if reason.startswith("duplicate of ") and reason[13:] not in named:
            with suppress(NotFoundError):
                named[reason[13:]] = memory.get(profile, reason[13:])
    for pair in pairs.values():
        named.setdefault(pair.fact_a.id, pair.fact_a)
        named.setdefault(pair.fact_b.id, pair.fact_b)
    quotes = memory.evidence(profile, list(named))
    lines = story(
        profile,
        history,
        others=named,
        pairs=pairs,
        quotes=quotes,
        keys={k.id: k for k in memory.keys.all()},
    )
    own = [q for q in quotes if q.evidence.fact_id == fact_id]
    return viewer.page(
        request,
        "fact.html",
        profile,
        "facts",
        fact=history.fact,
        history=history,
        quotes=own,
        story=lines,
        types=[t.value for t in FactType],
    )


@router.get("/{fact_id}/delete")
def confirm_delete(request: Request, profile: str, fact_id: str, viewer: ViewerDep) -> Response:
    """The question before a deletion, as a page of its own: it works without JavaScript."""
    viewer.reach(profile)
    fact = viewer.memory.get(profile, fact_id)
    return viewer.page(request, "delete.html", profile, "facts", fact=fact)


class _Correction(BaseModel):
    """A fact's correction form as sent: its text and its category, either left as it was."""

    text: str = ""
    category: str = ""

    def changes(self, old: Fact) -> dict[str, Any]:
        """What the person changed: a blank or unchanged box changes nothing."""
        text, category = self.text.strip(), self.category.strip()
        return {
            "text": self.text if text and text != old.text else None,
            "category": category if category != (old.category or "") else None,
        }


@router.post("/{fact_id}/correct")
def correct(
    profile: str, fact_id: str, viewer: EditorDep, form: Annotated[_Correction, Form()]
) -> RedirectResponse:
    old = viewer.memory.get(profile, fact_id)
    new = viewer.memory.update(profile, fact_id, **form.changes(old), actor=viewer.actor)
    viewer.notice("The fact was corrected: this is its new version.")
    return back(f"{PREFIX}/profiles/{profile}/facts/{new.id}")


@router.post("/{fact_id}/delete")
def delete(
    profile: str,
    fact_id: str,
    viewer: EditorDep,
    confirmed: Annotated[str, Form()] = "",
) -> RedirectResponse:
    if confirmed != "yes":
        return back(f"{PREFIX}/profiles/{profile}/facts/{fact_id}/delete")
    viewer.memory.delete(profile, fact_id, actor=viewer.actor, reason="deleted in the dashboard")
    viewer.notice("The fact was deleted; it stays in its history as retired, and can be restored.")
    return back(f"{PREFIX}/profiles/{profile}/facts/{fact_id}")


@router.post("/{fact_id}/restore")
def restore(profile: str, fact_id: str, viewer: EditorDep) -> RedirectResponse:
    fact = viewer.memory.restore(profile, fact_id, actor=viewer.actor)
    viewer.notice(
        "The rule is back, waiting for your approval on the Persona page."
        if fact.type is FactType.INSTRUCTION
        else "The fact is back in memory, unverified."
    )
    return back(f"{PREFIX}/profiles/{profile}/facts/{fact_id}")


@router.post("/{fact_id}/verify")
def verify(
    profile: str,
    fact_id: str,
    viewer: EditorDep,
    next: Annotated[str, Form()] = "",
) -> RedirectResponse:
    fact = viewer.memory.verify(profile, fact_id, actor=viewer.actor)
    approved = fact.type is FactType.INSTRUCTION
    viewer.notice("The rule was approved." if approved else "The fact is now verified.")
    return back(_local(next) or f"{PREFIX}/profiles/{profile}/facts/{fact_id}")


def _local(url: str) -> str | None:
    """A return address inside the dashboard only (never another site)."""
    return url if url.startswith(f"{PREFIX}/") and not url.startswith("//") else None
