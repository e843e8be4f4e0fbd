"""Two small ASGI middlewares in front of every route: a body size limit and a local-only gate.

`BodyLimitMiddleware` refuses a request whose declared `Content-Length`, or
whose streamed body, exceeds `MAX_BODY_BYTES` with a 413 before any route
reads it. `LocalOnlyMiddleware` guards a server run without API keys: it
answers only requests addressed to a loopback host name and not sent by a web
page of another origin, so a browser cannot reach it (DNS rebinding, CSRF).
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from somna.interfaces.api.errors import error_body

__all__ = ["LOCAL_HOSTS", "MAX_BODY_BYTES", "BodyLimitMiddleware", "LocalOnlyMiddleware"]

MAX_BODY_BYTES = 1024 * 1024
"""The largest request body the server reads: 1 MiB."""

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
"""The host names a server without API keys may listen on and answer to."""

_NO_BODY = frozenset({"GET", "HEAD", "OPTIONS"})


async def _send_error(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps(error_body(code, message)).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


class BodyLimitMiddleware:
    """Read the whole body first, counting bytes; past `limit`, answer 413 and stop reading.

    The body is then replayed to the app in one piece, so no route ever sees a
    partial body, and a declared `Content-Length` over the limit is refused
    without reading anything.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    def _too_large(self) -> str:
        mib, kib = divmod(self.limit, 1024 * 1024)
        shown = f"{mib} MiB" if not kib else f"{self.limit // 1024} KiB"
        return (
            f"The request body is larger than the limit of {shown} ({self.limit} bytes); "
            "send less data per request."
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _header(scope, b"content-length")
        if declared is not None:
            if not declared.strip().isdigit():
                await _send_error(
                    send, 400, "bad_request", f"The Content-Length {declared!r} is not a number."
                )
                return
            if int(declared) > self.limit:
                await _send_error(send, 413, "payload_too_large", self._too_large())
                return
        chunked = _header(scope, b"transfer-encoding") is not None
        if declared is None and not chunked and scope["method"] in _NO_BODY:
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await _send_error(send, 413, "payload_too_large", self._too_large())
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _host_name(host_header: str) -> str:
    """The name in a Host header, without its port: `[::1]:8420` -> `::1`."""
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class LocalOnlyMiddleware:
    """Refuse a request addressed to another host (400) or sent by a web page of another
    origin (403): without keys, only local programs may use the server."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            host = _header(scope, b"host") or ""
            if _host_name(host) not in LOCAL_HOSTS:
                await _send_error(
                    send,
                    400,
                    "bad_request",
                    f"This server runs without API keys and answers only to localhost, "
                    f"not to the host {host!r}.",
                )
                return
            origin = _header(scope, b"origin")
            if origin is not None and _host_name(urlsplit(origin).netloc) not in LOCAL_HOSTS:
                await _send_error(
                    send,
                    403,
                    "forbidden",
                    f"This server runs without API keys and refuses requests from the web "
                    f"page {origin!r}.",
                )
                return
        await self.app(scope, receive, send)
