"""`/ui/login` and `/ui/logout`: trade an API key for a session cookie, and back."""

from __future__ import annotations

import hmac
import secrets
from typing import Annotated

from fastapi import APIRouter, Form, Request, Response
from fastapi.responses import RedirectResponse

from somna.errors import AuthenticationError
from somna.interfaces.web.base import PREFIX, TEMPLATES, HtmlRoute, ViewerDep, back
from somna.interfaces.web.logins import COOKIE, LOGIN_COOKIE, Logins
from somna.memory import Memory

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


@router.get("")
def home(viewer: ViewerDep) -> RedirectResponse:
    profiles = viewer.profiles()
    if not profiles:
        return back(f"{PREFIX}/login?empty=1")
    return back(f"{PREFIX}/profiles/{profiles[0]}/facts")


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
    if request.app.state.auth:
        if not secret:
            return _login_page(request, "Paste an API key to log in.", 422)
        try:
            memory.keys.authenticate(secret)
        except AuthenticationError:
            return _login_page(request, "This API key is unknown or has been revoked.", 401)
    logins: Logins = request.app.state.logins
    response = back(PREFIX)
    response.set_cookie(COOKIE, logins.open(secret or None), **_COOKIE_FLAGS)  # type: ignore[arg-type]
    response.delete_cookie(LOGIN_COOKIE, path=PREFIX)
    return response


@router.post("/logout")
def logout(
    request: Request, viewer: ViewerDep, csrf: Annotated[str, Form()] = ""
) -> RedirectResponse:
    viewer.check(csrf)
    logins: Logins = request.app.state.logins
    logins.close(request.cookies.get(COOKIE))
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
