"""JSON Lines chat history: one message per line.

    {"session": "chat-42", "role": "user", "content": "I moved.", "at": "2026-05-03T10:00:00Z"}

`profile` may be given per line or for the whole file; `at` defaults to the
time of import. The whole file is read and checked before anything is written.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from somna.errors import InvalidInputError
from somna.model import Role, utc
from somna.sources.base import Conversation, Turn

__all__ = ["numbered_lines", "read_jsonl"]


class _Line(BaseModel):
    model_config = ConfigDict(extra="ignore")

    session: str = Field(min_length=1)
    role: Role
    content: str = Field(min_length=1)
    at: datetime | None = None
    profile: str | None = None
    meta: dict[str, object] = Field(default_factory=dict)


def read_jsonl(path: Path, *, profile: str | None, now: datetime) -> list[Conversation]:
    """Conversations in file order; raises `InvalidInputError` naming the first bad line."""
    grouped: dict[tuple[str, str], list[Turn]] = {}
    for number, raw in numbered_lines(path):
        try:
            line = _Line.model_validate(json.loads(raw))
        except (json.JSONDecodeError, ValidationError) as exc:
            raise InvalidInputError(f"{path}, line {number}: {_reason(exc)}.") from exc
        owner = line.profile or profile
        if owner is None:
            raise InvalidInputError(
                f"{path}, line {number}: no profile; add a 'profile' field or pass --profile."
            )
        turn = Turn(line.role, line.content, utc(line.at) if line.at else now, dict(line.meta))
        grouped.setdefault((owner, line.session), []).append(turn)
    return [Conversation(owner, key, turns) for (owner, key), turns in grouped.items()]


def numbered_lines(path: Path) -> Iterable[tuple[int, str]]:
    """The non-blank lines of a UTF-8 file with their numbers; `InvalidInputError` if unreadable."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"Cannot read {path}: {exc}.") from exc
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.strip():
            yield number, raw


def _reason(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON ({exc.msg})"
    assert isinstance(exc, ValidationError)
    problem = exc.errors()[0]
    where = ".".join(str(part) for part in problem["loc"])
    return f"{where}: {problem['msg'].rstrip('.').lower()}"
