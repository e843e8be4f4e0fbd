"""The one error shape of the HTTP server, and the handlers that produce it.

Every failure, from a REST route, the MCP endpoint's gate or a middleware,
answers with the same JSON body (pinned by `tests/interfaces/api/test_errors.py`):

    {"error": {"code": "fact_not_found", "message": "Profile 'alice' has no fact …"}}

`code` is a stable snake_case word for programs; `message` is one sentence for
people that names the value and the fix. The HTTP status is the `status` the
`SomnaError` carries; input FastAPI rejects before a route runs is a 422 naming
the field, malformed JSON a 400. Nothing a client sends should produce a 500.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from somna.errors import SomnaError

__all__ = [
    "HTTP_CODES",
    "ErrorBody",
    "ErrorEnvelope",
    "error_body",
    "error_response",
    "install_error_handlers",
    "validation_message",
]

_log = logging.getLogger("somna.api")

HTTP_CODES: dict[int, str] = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict_state",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_input",
    500: "internal_error",
}
"""The `code` of an HTTP-level refusal that is not a domain error (those carry their own)."""


class ErrorBody(BaseModel):
    code: str
    message: str


class ErrorEnvelope(BaseModel):
    """What every 4xx and 5xx answer carries."""

    error: ErrorBody


def error_body(code: str, message: str) -> dict[str, Any]:
    """The canonical error envelope: `{"error": {"code": …, "message": …}}`."""
    return {"error": {"code": code, "message": " ".join(message.split())}}


def error_response(
    status: int, code: str, message: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(error_body(code, message), status_code=status, headers=dict(headers or {}))


def _where(loc: Sequence[int | str]) -> tuple[str, str]:
    """("body field", "messages.0.role") from FastAPI's ("body", "messages", 0, "role")."""
    kinds = {
        "body": "body field",
        "query": "query parameter",
        "path": "path parameter",
        "header": "header",
        "cookie": "cookie",
    }
    if loc and loc[0] in kinds:
        kind, rest = kinds[str(loc[0])], [str(part) for part in loc[1:]]
    else:
        kind, rest = "field", [str(part) for part in loc]
    return kind, ".".join(rest)


def validation_message(errors: Sequence[Mapping[str, Any]]) -> tuple[int, str, str]:
    """The status, code and one readable sentence for FastAPI's validation errors.

    Malformed JSON is a 400 `malformed_json`; anything else a 422 `invalid_input`
    naming each field (up to three) and why it was refused.
    """
    for problem in errors:
        if problem.get("type") == "json_invalid":
            reason = str(problem.get("ctx", {}).get("error") or "it cannot be parsed")
            loc: Sequence[Any] = problem.get("loc") or ()
            at = f" at position {loc[1]}" if len(loc) > 1 else ""
            return (
                400,
                "malformed_json",
                f"The request body is not valid JSON ({reason}{at}); send a JSON object "
                "with Content-Type: application/json.",
            )
    parts = []
    for problem in errors[:3]:
        kind, name = _where(problem.get("loc") or ())
        if problem.get("type") == "missing":
            why = "is required"
        elif problem.get("type") == "extra_forbidden":
            why = "is not a known field; check its spelling"
        else:
            said = str(problem.get("msg") or "wrong value").removeprefix("Value error, ")
            why = f"is invalid: {said.rstrip('.')}"
        parts.append(f"The {kind} {name!r} {why}" if name else f"The request body {why}")
    more = len(errors) - len(parts)
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more > 0 else ""
    sentence = "; ".join(parts[:1] + [part[:1].lower() + part[1:] for part in parts[1:]])
    return 422, "invalid_input", sentence + tail + "."


async def _on_somna_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, SomnaError)
    status = exc.status if 400 <= exc.status < 600 else 500
    if status >= 500:
        _log.warning("%s %s failed: %s", request.method, request.url.path, exc)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return error_response(status, exc.code, str(exc) or type(exc).__name__, headers)


def _is_json(content_type: str | None) -> bool:
    media = (content_type or "").split(";", 1)[0].strip().lower()
    return media == "application/json" or media.endswith("+json")


async def _on_validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    content_type = request.headers.get("content-type")
    sent_other = any(
        tuple(e.get("loc") or ()) == ("body",) and e.get("type") != "missing" for e in errors
    )
    if sent_other and not _is_json(content_type):
        shown = "none" if content_type is None else repr(content_type)
        return error_response(
            415,
            "unsupported_media_type",
            f"Send the request body as JSON with Content-Type: application/json (got {shown}).",
        )
    status, code, message = validation_message(errors)
    return error_response(status, code, message)


async def _on_http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    code = HTTP_CODES.get(exc.status_code, "error")
    message = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
    if exc.status_code == 404 and message == "Not Found":
        message = f"There is no route {request.url.path!r}; see /docs for the API."
    elif exc.status_code == 405:
        message = f"{request.method} is not allowed on {request.url.path!r}; see /docs."
    elif message == "There was an error parsing the body":
        code, message = "malformed_json", "The request body could not be parsed as JSON."
    return error_response(exc.status_code, code, message, exc.headers)


async def _on_unexpected(request: Request, exc: Exception) -> JSONResponse:
    _log.exception("%s %s crashed", request.method, request.url.path, exc_info=exc)
    return error_response(
        500, "internal_error", "The server failed unexpectedly; the error has been logged."
    )


def install_error_handlers(app: FastAPI) -> None:
    """Render every error the app can raise in the canonical envelope."""
    app.add_exception_handler(SomnaError, _on_somna_error)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(HTTPException, _on_http_error)
    app.add_exception_handler(Exception, _on_unexpected)
