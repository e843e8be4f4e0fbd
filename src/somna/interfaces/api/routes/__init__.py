"""The REST resources, one router per module, all under `/v1`.

Each route parses its DTO, calls one `Memory` method and returns a DTO; the
errors it may answer are documented from `ERRORS`, in the canonical envelope.
"""

from __future__ import annotations

from typing import Any

from somna.interfaces.api.errors import ErrorEnvelope

__all__ = ["ERRORS", "errors"]

_WHY = {
    400: "Malformed JSON or a malformed header.",
    401: "No API key, or an unknown or revoked one.",
    403: "The key is not an admin key.",
    404: "No such profile (or one this key cannot reach), fact, conflict or run.",
    409: "The object's state does not allow the operation.",
    413: "The request body is over the limit (1 MiB).",
    415: "The request body is not sent as application/json.",
    422: "A field is missing, of the wrong type or out of range.",
    502: "The language model failed.",
    503: "The database or the embedder is unavailable.",
}

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorEnvelope, "description": why} for status, why in _WHY.items()
}
"""Every error status a route may answer, with the envelope's schema."""


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The documented error responses of a route: the common ones plus `statuses`."""
    common = (400, 401, 404, 413, 415, 422, 503)
    return {status: ERRORS[status] for status in (*common, *statuses)}
