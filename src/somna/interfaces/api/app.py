"""`create_app`: the HTTP server of Somna, REST under `/v1` and MCP at `/mcp`, on one `Memory`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from starlette.middleware import Middleware
from starlette.routing import Route

import somna
from somna.interfaces.api.allow import AllowMiddleware
from somna.interfaces.api.deps import document_keys
from somna.interfaces.api.dto import HealthOut
from somna.interfaces.api.errors import install_error_handlers
from somna.interfaces.api.mcp import MCP_PATH, McpEndpoint
from somna.interfaces.api.middleware import (
    MAX_BODY_BYTES,
    BodyLimitMiddleware,
    LocalOnlyMiddleware,
)
from somna.interfaces.api.routes import (
    conflicts,
    conversations,
    facts,
    keys,
    llm,
    profiles,
    retrieval,
    runs,
    sessions,
    sources,
)
from somna.interfaces.web import mount_dashboard
from somna.memory import Memory

__all__ = ["create_app"]

_DESCRIPTION = f"""\
Long-term memory for AI agents: keep the thread, consolidate while the agent
sleeps, recall what matters.

Every call but `/v1/health` needs an API key, sent as `Authorization: Bearer <key>`
or `X-API-Key: <key>` (create one with `somna keys create`). A key reaches the
profiles it was made for; any other profile answers 404, as if it did not exist.
Admin keys also manage profiles, keys and runs of every profile.

Errors always have the shape `{{"error": {{"code": "...", "message": "..."}}}}`.
Request bodies are limited to {MAX_BODY_BYTES // 1024} KiB. The MCP tools are served
at `{MCP_PATH}` (streamable HTTP) with the same keys.
"""


def create_app(memory: Memory | None = None, *, auth: bool = True) -> FastAPI:
    """The FastAPI app over `memory` (default: `Memory()` from the settings, closed on shutdown).

    `auth=False` serves without API keys, for local use: the app then answers
    only requests addressed to localhost.

    >>> app = create_app(Memory(), auth=True)  # doctest: +SKIP
    >>> uvicorn.run(app, host="127.0.0.1", port=8420)  # doctest: +SKIP
    """
    owned = memory is None
    used = Memory() if memory is None else memory
    endpoint = McpEndpoint(used, auth=auth)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            async with endpoint.lifespan():
                yield
        finally:
            if owned:
                used.close()

    middleware = [
        Middleware(BodyLimitMiddleware, limit=MAX_BODY_BYTES),
        Middleware(AllowMiddleware),
    ]
    if not auth:
        middleware.insert(0, Middleware(LocalOnlyMiddleware))
    app = FastAPI(
        title="Somna",
        version=somna.__version__,
        description=_DESCRIPTION,
        lifespan=lifespan,
        middleware=middleware,
    )
    app.state.memory = used
    app.state.auth = auth
    install_error_handlers(app)

    @app.get("/v1/health", response_model=HealthOut, tags=["health"])
    def health(request: Request) -> HealthOut:
        """Whether the server is up; needs no key."""
        return HealthOut(version=somna.__version__, auth=request.app.state.auth)

    # Routers are matched in order, route by route: the calls of every conversation turn
    # (recall, then appending its messages) come first; no two routers share a path.
    routers = [
        module.router
        for module in (
            retrieval,
            sessions,
            profiles,
            conversations,
            facts,
            conflicts,
            runs,
            keys,
            llm,
            sources,
        )
    ]
    for router in routers:
        app.include_router(router)
    # First, so that an MCP call is not matched against every REST route before it.
    mcp = Route(MCP_PATH, endpoint=endpoint, methods=["GET", "POST", "DELETE"])
    app.router.routes.insert(0, mcp)
    mount_dashboard(app)
    document_keys(app, routers)
    return app
