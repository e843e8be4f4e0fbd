"""`/ui` (every profile in counts), `/ui/login` and `/ui/logout`: a key for a signed cookie."""

from __future__ import annotations

import hmac
import secrets
import time
from typing import Annotated

from fastapi import APIRouter, Form, Request, Response
from fastapi.responses import RedirectResponse

from somna.errors import AuthenticationError
from somna.interfaces.web.base import PREFIX, TEMPLATES, HtmlRoute, ViewerDep, back
from somna.interfaces.web.logins import COOKIE, LOGIN_COOKIE, LOGIN_DAYS, sign_login
from somna.memory import Memory
from somna.memory.overview import ProfileOverview
from somna.model import ApiKey, FactStatus

__all__ = ["router"]

router = APIRouter(prefix=PREFIX, route_class=HtmlRoute, include_in_schema=False)

_COOKIE_FLAGS = {"httponly": True, "samesite": "strict", "path": PREFIX}


def _login_page(request: Request, problem: str | None = None, status: int = 200) -> Response:
    token = secrets.token_urlsafe(32)
    response = TEMPLATES.TemplateResponse(
        request,
        "login.html",
        {"csrf": token, "problem": problem, "auth": request.app.state.auth},
        status_code=status,
    )
    response.set_cookie(LOGIN_COOKIE, token, **_COOKIE_FLAGS)  # type: ignore[arg-type]
    return response


_SORTS = {
    "profile": (lambda o: o.profile.id, False),
    "facts": (lambda o: o.active_facts, True),
    "disputed": (lambda o: o.facts[FactStatus.DISPUTED], True),
    "conflicts": (lambda o: o.open_conflicts, True),
    "rules": (lambda o: o.pending_rules, True),
    "sessions": (lambda o: o.open_sessions, True),
    "run": (lambda o: o.last_run.started_at.timestamp() if o.last_run else 0.0, True),
    "failed": (lambda o: o.failed_runs, True),
}
"""The home table's columns by which it sorts, and whether the largest comes first."""


def _sorted(overviews: list[ProfileOverview], sort: str) -> list[ProfileOverview]:
    by, largest_first = _SORTS.get(sort, _SORTS["profile"])
    return sorted(overviews, key=by, reverse=largest_first)


def _nothing_yet(key: ApiKey | None) -> str:
    """Why a key reaches no profile, and what makes one."""
    if key is not None and key.prefix is not None:
        return (
            f"No profile starts with {key.prefix!r} yet: the first conversation your bot sends "
            "with this key creates one, and it appears here."
        )
    return (
        "There is no profile yet. Create one with `somna profiles create NAME`, or send a "
        "conversation through the API (POST /v1/profiles/NAME/messages)."
    )


@router.get("")
def home(request: Request, viewer: ViewerDep, sort: str = "profile") -> Response:
    """Every profile this key reaches, in counts: what waits for a person, and the last run."""
    profiles = viewer.profiles()
    overviews = _sorted(viewer.memory.overview(profiles), sort)
    return TEMPLATES.TemplateResponse(
        request,
        "home.html",
        {
            "overviews": overviews,
            "sort": sort if sort in _SORTS else "profile",
            "empty": None if profiles else _nothing_yet(viewer.access.key),
            "csrf": viewer.login.csrf,
            "FactStatus": FactStatus,
        },
    )


@router.get("/profiles")
def profiles_page() -> RedirectResponse:
    """The list of profiles is the home page."""
    return back(PREFIX)


@router.get("/login")
def login_page(request: Request) -> Response:
    return _login_page(request)


@router.post("/login")
def login(
    request: Request,
    csrf: Annotated[str, Form()] = "",
    key: Annotated[str, Form()] = "",
) -> Response:
    expected = request.cookies.get(LOGIN_COOKIE) or ""
    if not csrf or not hmac.compare_digest(csrf, expected):
        return _login_page(request, "This form has expired; please try again.", 403)
    memory: Memory = request.app.state.memory
    secret = key.strip()
    found: ApiKey | None = None
    if request.app.state.auth:
        if not secret:
            return _login_page(request, "Paste an API key to log in.", 422)
        try:
            found = memory.keys.authenticate(secret)
        except AuthenticationError:
            return _login_page(request, "This API key is unknown or has been revoked.", 401)
    response = back(PREFIX)
    response.set_cookie(
        COOKIE,
        sign_login(found, time.time()),
        max_age=LOGIN_DAYS * 86_400,
        **_COOKIE_FLAGS,  # type: ignore[arg-type]
    )
    response.delete_cookie(LOGIN_COOKIE, path=PREFIX)
    return response


@router.post("/logout")
def logout(viewer: ViewerDep, csrf: Annotated[str, Form()] = "") -> RedirectResponse:
    """Ends the login for every server process, not only this browser's cookie."""
    viewer.check(csrf)
    viewer.memory.keys.end_login(viewer.login.csrf, viewer.login.until)
    response = back(f"{PREFIX}/login")
    response.delete_cookie(COOKIE, path=PREFIX)
    return response


@router.get("/switch")
def switch(viewer: ViewerDep, profile: str = "", section: str = "facts") -> RedirectResponse:
    """The profile switcher: the same page of another profile."""
    viewer.reach(profile)
    page = (
        section
        if section in {"facts", "conflicts", "persona", "sessions", "runs", "settings"}
        else "facts"
    )
    return back(f"{PREFIX}/profiles/{profile}/{page}")
