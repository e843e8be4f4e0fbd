"""How JSON is asked of an OpenAI-compatible server, strongest first, and what each
(base URL, model) taught this process about it.

A server that does not support a response format says so in an error whose body
names it (whatever its HTTP status: llama-cpp-python answers 500); such an error
is a `FormatRefusedError`, and the next mode is asked at once.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from somna.llm.base import Task
from somna.llm.structured import strict_schema

if TYPE_CHECKING:
    import openai

__all__ = [
    "MODES",
    "FormatRefusedError",
    "Learned",
    "learned",
    "refuses_format",
    "response_format",
    "server_message",
]

MODES = ("json_schema", "json_object_schema", "json_object", "text")
"""How JSON is asked for, strongest first."""

_SAID = 300
# Words by which servers tell that they do not support the response format asked for.
_FORMAT_WORDS = ("response_format", "response format", "json_schema", "json_object", "schema")


class FormatRefusedError(Exception):
    """The server refused the response format of one mode; the message says how."""


@dataclass
class Learned:
    """What one (base URL, model) taught this process: where to start, where instructions go."""

    first_mode: int = 0
    fold: bool | None = None  # None: not known yet


_LEARNED: dict[tuple[str, str], Learned] = {}
_LEARNED_LOCK = threading.Lock()


def learned(base_url: str, model: str) -> Learned:
    """What this process knows of (base_url, model), shared by every client of it."""
    with _LEARNED_LOCK:
        return _LEARNED.setdefault((base_url, model), Learned())


def response_format(task: Task[Any, Any], mode: str) -> dict[str, Any] | None:
    """The ``response_format`` of a request in `mode`; None in ``text`` mode."""
    if mode == "json_schema":
        return {
            "type": "json_schema",
            "json_schema": {
                "name": task.name,
                "schema": strict_schema(task.output_model),
                "strict": True,
            },
        }
    if mode == "json_object_schema":
        return {"type": "json_object", "schema": strict_schema(task.output_model)}
    if mode == "json_object":
        return {"type": "json_object"}
    return None


def refuses_format(said: str) -> bool:
    """Whether a server's error names the response format (so the next mode may work)."""
    return any(word in said.lower() for word in _FORMAT_WORDS)


def server_message(exc: openai.APIStatusError) -> str:
    """What the server said, on one line and at most `_SAID` characters (some servers send
    a whole traceback), without the client's "Error code: 400 - {...}" wrapping."""
    body = exc.body
    said = str(exc.message)
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        if isinstance(message, str) and message:
            said = message
    said = " ".join(said.split()).rstrip(".")
    return said if len(said) <= _SAID else said[: _SAID - 3] + "..."
