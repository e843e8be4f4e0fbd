"""`Allow`: the methods a path answers, for OPTIONS and for a 405.

A path served by several routes (`GET` and `POST /v1/profiles/{profile}/facts`)
would otherwise be answered by whichever route matched first, and its 405
would name that route's methods alone. This middleware answers OPTIONS itself,
204 with every method of the path, and corrects the `Allow` header of a 405.
The methods come from the OpenAPI document (every REST route is in it) and from
the plain routes beside it (MCP).
"""

from __future__ import annotations

import re
from typing import Any

from fastapi.routing import APIRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["AllowMiddleware"]

_Table = list[tuple[re.Pattern[str], frozenset[str]]]


class AllowMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._table: _Table | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] == "OPTIONS" and (header := self._allow(scope)) is not None:
            await send(
                {"type": "http.response.start", "status": 204, "headers": [(b"allow", header)]}
            )
            await send({"type": "http.response.body", "body": b""})
            return

        async def send_allow(message: Message) -> None:
            # The path's methods are looked up only for a 405: most requests never need them.
            if message["type"] == "http.response.start" and message["status"] == 405:
                header = self._allow(scope)
                if header is not None:
                    headers = [
                        (k, v) for k, v in message.get("headers", []) if k.lower() != b"allow"
                    ]
                    message = {**message, "headers": [*headers, (b"allow", header)]}
            await send(message)

        await self.app(scope, receive, send_allow)

    def _allow(self, scope: Scope) -> bytes | None:
        """The `Allow` header of the request's path, or None for a path the app does not serve."""
        allowed = self._methods(scope["app"], scope["path"])
        return ", ".join(sorted(allowed | {"OPTIONS"})).encode() if allowed else None

    def _methods(self, app: Any, path: str) -> frozenset[str]:
        if self._table is None:
            self._table = _table(app)
        found: set[str] = set()
        for pattern, methods in self._table:
            if pattern.match(path):
                found |= methods
        return frozenset(found)


def _table(app: Any) -> _Table:
    """Every path pattern the app serves, with its methods."""
    table: _Table = []
    for path, operations in app.openapi()["paths"].items():
        pattern = re.compile("^" + re.sub(r"\{[^/]+\}", "[^/]+", path) + "$")
        table.append((pattern, frozenset(m.upper() for m in operations)))
    for route in app.router.routes:  # the plain routes the document leaves out
        methods = getattr(route, "methods", None)
        regex = getattr(route, "path_regex", None)
        if methods and regex is not None and not isinstance(route, APIRoute):
            table.append((regex, frozenset(methods)))
    return table
