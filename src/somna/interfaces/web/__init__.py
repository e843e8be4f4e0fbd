"""The dashboard at `/ui`: where a person reviews and settles what memory holds.

Server-rendered pages (Jinja2) and plain forms, no JavaScript; served by the
same app as the REST API, with the same keys. Like every interface it goes
through `Memory` only.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import RedirectResponse
from fastapi.staticfiles import StaticFiles

from somna.interfaces.web.base import PREFIX
from somna.interfaces.web.conflicts import router as conflicts_router
from somna.interfaces.web.facts import router as facts_router
from somna.interfaces.web.login import router as login_router
from somna.interfaces.web.runs import router as runs_router
from somna.interfaces.web.sessions import router as sessions_router
from somna.interfaces.web.settings import router as settings_router

__all__ = ["mount_dashboard"]


def mount_dashboard(app: FastAPI) -> None:
    """Add the dashboard's pages and its static files to `app` (which holds `state.memory`)."""
    for router in (
        login_router,
        facts_router,
        conflicts_router,
        sessions_router,
        runs_router,
        settings_router,
    ):
        app.include_router(router)
    static = StaticFiles(directory=Path(__file__).parent / "static")
    app.mount(f"{PREFIX}/static", static, name="ui-static")

    @app.get("/", include_in_schema=False)
    def root() -> RedirectResponse:
        """The server's address opens the dashboard."""
        return RedirectResponse(PREFIX, status_code=307)
