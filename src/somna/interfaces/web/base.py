"""What every dashboard page shares: the templates, the logged-in viewer, CSRF, errors as pages.

A page that works inside a profile takes `Viewer` and calls `viewer.reach(profile)`:
a profile the key cannot reach answers 404, exactly like one that does not exist,
as in the REST API. A form handler that changes a profile takes `EditorDep`
instead, which checks the form's CSRF token and then reaches the profile; one that
changes no profile calls `viewer.check(csrf)` before it changes anything.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, Form, Request, Response
from fastapi.responses import RedirectResponse
from fastapi.routing import APIRoute
from fastapi.templating import Jinja2Templates

from somna.errors import SomnaError
from somna.interfaces.api.auth import Access
from somna.interfaces.web.logins import (
    COOKIE,
    NOTICE_COOKIE,
    Login,
    encode_notices,
    read_login,
    read_notices,
)
from somna.memory import Memory
from somna.model import ConflictStatus

__all__ = [
    "PREFIX",
    "TEMPLATES",
    "EditorDep",
    "HtmlRoute",
    "LoginRequired",
    "Viewer",
    "ViewerDep",
    "back",
]

PREFIX = "/ui"
TEMPLATES = Jinja2Templates(directory=Path(__file__).parent / "templates")


def _when(value: datetime | None) -> str:
    return "" if value is None else value.strftime("%Y-%m-%d %H:%M")


def _day(value: datetime | None) -> str:
    return "" if value is None else value.strftime("%Y-%m-%d")


TEMPLATES.env.filters["when"] = _when
TEMPLATES.env.filters["day"] = _day


class LoginRequired(Exception):
    """No valid login: the browser is sent to the login page."""


class FormRefused(Exception):
    """A form without the right CSRF token: refused with 403, nothing written."""


class HtmlRoute(APIRoute):
    """Answers with pages, not JSON: the login page when logged out, a readable error page else."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def route(request: Request) -> Response:
            try:
                response = await handler(request)
            except LoginRequired:
                return RedirectResponse(f"{PREFIX}/login", status_code=303)
            except FormRefused:
                return _error(request, 403, "This form has expired; reload the page and try again.")
            except SomnaError as exc:
                return _error(request, exc.status, str(exc))
            told: Viewer | None = getattr(request.state, "viewer", None)
            if told is not None and told.told:
                response.set_cookie(
                    NOTICE_COOKIE, encode_notices(told.told), httponly=True, path=PREFIX
                )
            return response

        return route


def _error(request: Request, status: int, message: str) -> Response:
    """A page with the one sentence that says what went wrong, and a way back."""
    referer = request.headers.get("referer", "")
    origin = f"{request.url.scheme}://{request.url.netloc}{PREFIX}/"
    back_to = referer if referer.startswith(origin) else None
    return TEMPLATES.TemplateResponse(
        request,
        "error.html",
        {"status": status, "message": message, "back_to": back_to},
        status_code=status,
    )


@dataclass
class Viewer:
    """The logged-in person: their login, their key's rights, and the Memory they act on."""

    memory: Memory
    login: Login
    access: Access
    request: Request
    told: list[str] = field(default_factory=list)
    """Notices for the next page (after a form's redirect)."""

    @property
    def actor(self) -> str:
        """Who the history records: `ui`, or `ui:<key id>` (a person, never an agent)."""
        return "ui" if self.access.key is None else f"ui:{self.access.key.id}"

    def reach(self, profile: str) -> str:
        """`profile` if this key may reach it and it exists, else the same 404 for both."""
        self.access.reach(profile)
        self.memory.get_profile(profile)
        return profile

    def profiles(self) -> list[str]:
        """The existing profiles this key reaches (named, or under its prefix): the switcher."""
        return [p.id for p in self.memory.list_profiles() if self.access.can_reach(p.id)]

    def check(self, csrf: str | None) -> None:
        if not self.login.csrf_ok(csrf):
            raise FormRefused

    def notice(self, text: str) -> None:
        self.told.append(text)

    def page(
        self, request: Request, template: str, profile: str, section: str, **context: Any
    ) -> Response:
        """A page of one profile, with the navigation, its conflict badge and the notices."""
        notices = read_notices(request.cookies.get(NOTICE_COOKIE))
        badge = len(self.memory.conflicts(profile, ConflictStatus.OPEN))
        response = TEMPLATES.TemplateResponse(
            request,
            template,
            {
                "profile": profile,
                "profiles": [
                    (p.id, p.id if p.name in ("", p.id) else f"{p.name} ({p.id})")
                    for p in self.memory.list_profiles()
                    if self.access.can_reach(p.id)
                ],
                "section": section,
                "open_conflicts": badge,
                "csrf": self.login.csrf,
                "notices": notices,
                **context,
            },
        )
        if notices:
            response.delete_cookie(NOTICE_COOKIE, path=PREFIX)
        return response


def viewer(request: Request) -> Viewer:
    """The logged-in viewer; the key and the logouts are read from the store again, so a
    revoked key or a login logged out (in any process) is out."""
    memory: Memory = request.app.state.memory
    keys = memory.keys.all() if request.app.state.auth else None
    login = read_login(request.cookies.get(COOKIE), keys, time.time())
    if login is None or memory.keys.login_ended(login.csrf):
        raise LoginRequired
    found = Viewer(memory, login, Access(login.key), request)
    request.state.viewer = found
    return found


ViewerDep = Annotated[Viewer, Depends(viewer)]


def editor(profile: str, viewer: ViewerDep, csrf: Annotated[str, Form()] = "") -> Viewer:
    """The viewer behind a form that changes a profile: its CSRF token checked first, then
    the profile reached, so no handler can forget either."""
    viewer.check(csrf)
    viewer.reach(profile)
    return viewer


EditorDep = Annotated[Viewer, Depends(editor)]


def back(url: str) -> RedirectResponse:
    """After a form: see the result with a fresh GET (post, redirect, get)."""
    return RedirectResponse(url, status_code=303)
