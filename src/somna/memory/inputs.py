"""What callers pass, turned into domain values, with errors a person can read."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from enum import Enum
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from somna.errors import InvalidInputError
from somna.model import Message, Role, utc
from somna.store import NewMessage

__all__ = ["as_enum", "as_list", "checked", "parse_message"]

_T = TypeVar("_T")
_E = TypeVar("_E", bound=Enum)
_MOMENT: TypeAdapter[datetime] = TypeAdapter(datetime)


def checked(build: Callable[[], _T]) -> _T:
    """Run a model constructor, turning validation errors into one readable sentence."""
    try:
        return build()
    except ValidationError as exc:
        problem = exc.errors()[0]
        field = ".".join(str(part) for part in problem["loc"]) or "value"
        message = str(problem.get("ctx", {}).get("error") or problem["msg"])
        raise InvalidInputError(f"Invalid {field}: {message.rstrip('.')}.") from exc


def as_enum(kind: type[_E], value: object, what: str) -> _E:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(member.value for member in kind)
        raise InvalidInputError(
            f"The {what} {value!r} is not valid; use one of: {allowed}."
        ) from None


def as_list(value: object) -> list[object]:
    """One value or several, as a list (a string counts as one value)."""
    if isinstance(value, str) or not isinstance(value, Sequence):
        return [value]
    return list(value)


def parse_message(item: Mapping[str, Any] | tuple[str, str] | Message, now: datetime) -> NewMessage:
    """A message given as a mapping (`role`, `content`, `at`?, `meta`?), a pair, or a Message."""
    if isinstance(item, Message):
        return NewMessage(item.role, item.content, item.created_at, dict(item.meta))
    role: object
    content: object
    at: object = None
    meta: dict[str, Any] = {}
    if isinstance(item, tuple):
        role, content = item
    else:
        role, content = item.get("role"), item.get("content")
        at = item.get("at", item.get("created_at"))
        meta = dict(item.get("meta") or {})
    if not isinstance(content, str) or not content.strip():
        raise InvalidInputError("Every message needs non-empty text content.")
    when = now if at is None else _moment(at)
    return NewMessage(as_enum(Role, role, "message role"), content, when, meta)


def _moment(value: object) -> datetime:
    try:
        return utc(_MOMENT.validate_python(value))
    except (ValidationError, ValueError) as exc:
        raise InvalidInputError(
            f"Invalid created_at: {value!r} is not a date and time such as 2026-05-03T10:00:00Z."
        ) from exc
