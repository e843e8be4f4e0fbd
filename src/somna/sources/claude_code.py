"""Coding-assistant transcripts: a Claude Code session file, or any JSON Lines of role/content.

A Claude Code transcript (`~/.claude/projects/<project>/<session id>.jsonl`) holds one
entry per line; those of `type` user or assistant carry a `message` whose `content` is a
string or a list of blocks. Only text is kept: `tool_use`, `tool_result` and `thinking`
blocks, side chains (sub-agents), meta entries and the other entry types (summaries,
snapshots) are skipped, so what reaches the nightly job is what the person and the
assistant said to each other. The blocks of one assistant message, written over several
lines, become one turn.

Any other JSON Lines file of `{"role": ..., "content": ...}` lines (with an optional `at`
or `timestamp`) reads the same way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from somna.errors import InvalidInputError
from somna.model import Role, utc
from somna.sources.base import Turn
from somna.sources.jsonl import numbered_lines

__all__ = ["Transcript", "read_transcript"]

_KEPT_ROLES = {"user": Role.USER, "assistant": Role.ASSISTANT}
_MOMENT: TypeAdapter[datetime] = TypeAdapter(datetime)


@dataclass(frozen=True)
class Transcript:
    """The turns of one coding session, and the session id the file names (if any)."""

    session_id: str | None
    turns: list[Turn]


def read_transcript(path: Path, *, now: datetime) -> Transcript:
    """The text turns of a transcript, in file order; `InvalidInputError` names a bad line."""
    session_id: str | None = None
    turns: list[Turn] = []
    last_message_id: str | None = None
    for number, raw in numbered_lines(path):
        try:
            entry = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InvalidInputError(f"{path}, line {number}: not valid JSON ({exc.msg}).") from exc
        if not isinstance(entry, dict):
            raise InvalidInputError(f"{path}, line {number}: a line must be a JSON object.")
        if session_id is None and isinstance(entry.get("sessionId"), str):
            session_id = entry["sessionId"]
        found = _turn(entry, path, number, now)
        if found is None:
            continue
        turn, message_id = found
        previous = turns[-1] if turns else None
        if (
            previous is not None
            and message_id is not None
            and message_id == last_message_id
            and previous.role is turn.role
        ):
            turns[-1] = Turn(turn.role, f"{previous.content}\n\n{turn.content}", previous.at,
                             previous.meta)  # fmt: skip
        else:
            turns.append(turn)
        last_message_id = message_id
    return Transcript(session_id, turns)


def _turn(
    entry: dict[str, Any], path: Path, number: int, now: datetime
) -> tuple[Turn, str | None] | None:
    """The entry as a text turn (with its model message id), or None when it holds no text."""
    if "type" in entry:  # Claude Code
        if entry["type"] not in _KEPT_ROLES or entry.get("isSidechain") or entry.get("isMeta"):
            return None
        message = entry.get("message")
        if not isinstance(message, dict):
            raise InvalidInputError(
                f"{path}, line {number}: a {entry['type']} entry needs a message."
            )
        role, content = _KEPT_ROLES[entry["type"]], message.get("content")
        message_id = message.get("id") if isinstance(message.get("id"), str) else None
        meta: dict[str, Any] = {
            k: entry[k] for k in ("uuid", "sessionId", "cwd", "gitBranch") if k in entry
        }
        when = entry.get("timestamp")
    else:
        kind = entry.get("role")
        if kind not in _KEPT_ROLES:
            if kind in {r.value for r in Role}:
                return None  # system and tool lines are not conversation
            raise InvalidInputError(
                f"{path}, line {number}: expected a 'role' of user or assistant, or a Claude "
                "Code entry with a 'type'."
            )
        role, content, message_id = _KEPT_ROLES[kind], entry.get("content"), None
        meta = dict(entry["meta"]) if isinstance(entry.get("meta"), dict) else {}
        when = entry.get("at", entry.get("timestamp"))
    text = _text(content, path, number)
    if not text or _is_command_noise(text):
        return None
    return Turn(role, text, _moment(when, path, number, now), {"source": "capture", **meta}), (
        message_id
    )


def _text(content: object, path: Path, number: int) -> str:
    """The text of a content: a string, or the `text` blocks of a list (others skipped)."""
    if isinstance(content, str):
        return content.strip()
    if isinstance(content, list):
        parts = [
            block["text"].strip()
            for block in content
            if isinstance(block, dict)
            and block.get("type") == "text"
            and isinstance(block.get("text"), str)
        ]
        return "\n\n".join(part for part in parts if part)
    if content is None:
        return ""
    raise InvalidInputError(
        f"{path}, line {number}: 'content' must be a text or a list of content blocks."
    )


def _is_command_noise(text: str) -> bool:
    """Slash-command echoes and local command output that Claude Code logs as user turns."""
    return text.startswith(("<command-name>", "<command-message>", "<local-command-stdout>"))


def _moment(value: object, path: Path, number: int, now: datetime) -> datetime:
    if value is None:
        return now
    try:
        return utc(_MOMENT.validate_python(value))
    except (ValidationError, ValueError) as exc:
        raise InvalidInputError(
            f"{path}, line {number}: {value!r} is not a date and time such as 2026-05-03T10:00:00Z."
        ) from exc
