"""`/mcp`: the MCP tools over streamable HTTP, behind the same API keys as the REST routes.

`McpGate` authenticates every request to `/mcp` with the same keys as the
REST API (`Authorization: Bearer` or `X-API-Key`), answers 401 in the REST
error envelope without one, and sets `current_key` for the tools of that
request. Each tool then checks its `profile` argument against the key, and
against the profile of `/mcp?profile=NAME` when the URL pins one.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from somna.errors import AuthenticationError
from somna.interfaces.api.auth import authenticate
from somna.interfaces.api.errors import error_body
from somna.interfaces.mcp.access import current_key, pinned_profile
from somna.interfaces.mcp.server import create_mcp_server
from somna.memory import Memory

__all__ = ["MCP_PATH", "McpEndpoint", "McpGate"]

MCP_PATH = "/mcp"


class McpGate:
    """Authenticate a request, then pass it on with `current_key` set (when `auth` is on)."""

    def __init__(self, app: ASGIApp, memory: Memory, *, auth: bool) -> None:
        self.app = app
        self.memory = memory
        self.auth = auth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.auth:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        try:
            key = await authenticate(self.memory, headers)
        except AuthenticationError as error:
            body = json.dumps(error_body("unauthorized", str(error))).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                        (b"www-authenticate", b"Bearer"),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        token = current_key.set(key)
        pinned = pinned_profile.set(_query_profile(scope))
        try:
            await self.app(scope, receive, send)
        finally:
            pinned_profile.reset(pinned)
            current_key.reset(token)


def _query_profile(scope: Scope) -> str | None:
    """The `profile` of `/mcp?profile=NAME`, if any: the only profile its tools may use."""
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("profile")
    return values[-1] if values else None


class McpEndpoint:
    """The `/mcp` endpoint: the tools over streamable HTTP (stateless), behind `McpGate`.

    Run `lifespan()` for as long as the server runs (the FastAPI app does).
    """

    def __init__(self, memory: Memory, *, auth: bool) -> None:
        self.server: MCPServer[Any] = create_mcp_server(memory, auth=auth)
        # Called for the session manager it sets up; the Starlette app it returns is left
        # out, as the app's own router and error handling already stand in front of `/mcp`.
        self.server.streamable_http_app(
            stateless_http=True,
            json_response=True,  # one JSON answer per call: the tools stream nothing
            # Host and Origin checks are the app's own (`LocalOnlyMiddleware` without keys).
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )
        self.app = McpGate(self.server.session_manager.handle_request, memory, auth=auth)

    def lifespan(self) -> Any:
        return self.server.session_manager.run()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)
