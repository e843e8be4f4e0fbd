"""What callers pass, turned into domain values, with errors a person can read."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from enum import Enum
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from somna.errors import InvalidInputError
from somna.model import Message, Role, check_visible_text, utc
from somna.store import NewMessage

__all__ = [
    "FUTURE_SKEW",
    "META_DEPTH",
    "META_SIZE",
    "as_enum",
    "as_list",
    "check_meta",
    "check_session_key",
    "checked",
    "new_message",
    "no_nul",
    "not_a_number",
    "visible",
]

_T = TypeVar("_T")
_E = TypeVar("_E", bound=Enum)
_MOMENT: TypeAdapter[datetime] = TypeAdapter(datetime)

META_DEPTH = 32
"""How deep a message's `meta` may nest: deeper, an export or a window could not read it back."""
META_SIZE = 65_536
"""The most characters a message's `meta` may take as JSON."""
_NUMBER = re.compile(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*")

FUTURE_SKEW = timedelta(days=1)
"""How far ahead of now a message may be dated (clocks differ); a later date would keep its
session open until that day."""


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


def visible(text: str, what: str) -> str:
    """`text` if a person can read it: no NUL, not only controls or zero-width characters."""
    try:
        return check_visible_text(text, what)
    except ValueError as exc:
        raise InvalidInputError(str(exc)) from None


def check_session_key(key: str) -> None:
    """Refuse a conversation's key that is empty, longer than 256 characters, or unreadable."""
    if not key or not key.strip():
        raise InvalidInputError("A session key must not be empty.")
    if len(key) > 256:
        raise InvalidInputError("A session key must be at most 256 characters.")
    visible(key, "A session key")


def new_message(item: Mapping[str, Any] | tuple[str, str] | Message, now: datetime) -> NewMessage:
    """A message given as a mapping (`role`, `content`, `at`?, `meta`?, `device`?), a pair, or
    a Message. The device the message was typed on is kept in `meta.device`."""
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
        meta = check_meta(item.get("meta") or {})
        device = item.get("device")
        if device is not None:
            if not isinstance(device, str) or not device.strip() or len(device) > 128:
                raise InvalidInputError("A device id must be a text of 1 to 128 characters.")
            meta["device"] = device.strip()
    if not isinstance(content, str) or not content.strip():
        raise InvalidInputError("Every message needs non-empty text content.")
    visible(content, "A message's content")
    when = now if at is None else _moment(at)
    if when > now + FUTURE_SKEW:
        raise InvalidInputError(
            f"A message cannot be dated {when.isoformat()}: that is more than "
            f"{FUTURE_SKEW.days} day ahead of now ({now.isoformat()})."
        )
    return NewMessage(as_enum(Role, role, "message role"), content, when, meta)


def no_nul(value: str | None) -> str | None:
    """`value` unless it holds a NUL, which Postgres cannot store (SQLite would)."""
    if value is not None and "\x00" in value:
        raise ValueError("it must not contain NUL characters")
    return value


def not_a_number(value: object) -> object:
    """`value` unless it is a number (or a number in a string), which is no date: pydantic
    would read `0` as 1970-01-01, `0.5` as half a second after."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return value
    if isinstance(value, str) and not _NUMBER.fullmatch(value):
        return value
    raise ValueError(
        f"{value!r} is a number, not a date; write an ISO 8601 date such as 2026-05-03 or "
        "2026-05-03T10:00:00Z"
    )


def check_meta(meta: object, what: str = "A message's meta") -> dict[str, Any]:
    """A message's `meta` (or another JSON object the caller gives, named by `what`): an
    object of at most `META_DEPTH` levels and `META_SIZE` characters as JSON, without NUL,
    so that both stores keep it and give it back."""
    if not isinstance(meta, Mapping):
        raise InvalidInputError(f'{what} must be an object, e.g. {{"id": "m-1"}}.')
    pending: list[tuple[object, int]] = [(meta, 1)]
    while pending:
        value, depth = pending.pop()
        if depth > META_DEPTH:
            raise InvalidInputError(f"{what} may nest at most {META_DEPTH} levels deep.")
        if isinstance(value, Mapping):
            pending.extend((k, depth) for k in value)
            pending.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list | tuple):
            pending.extend((v, depth + 1) for v in value)
        elif isinstance(value, str) and "\x00" in value:
            raise InvalidInputError(f"{what} must not contain NUL characters.")
    try:
        size = len(json.dumps(meta, ensure_ascii=False, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"{what} must be plain JSON: {exc}.") from None
    if size > META_SIZE:
        raise InvalidInputError(
            f"{what} takes {size:,} characters as JSON; at most {META_SIZE:,} are kept."
        )
    return dict(meta)


def _moment(value: object) -> datetime:
    try:
        return utc(_MOMENT.validate_python(not_a_number(value)))
    except (ValidationError, ValueError) as exc:
        raise InvalidInputError(
            f"Invalid created_at: {value!r} is not a date and time such as 2026-05-03T10:00:00Z."
        ) from exc
