"""The rows of an n8n / LangChain chat table, and what each message in them is.

Every row shape n8n and LangChain write is read as what it is (`RowKind`); a
row that cannot be read raises `ValueError` with the reason it is skipped and
counted under.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from somna.model import Role

__all__ = ["ChatMessage", "NotJson", "RowKind", "SourceRow", "read_chat_message"]

_ROLES = {
    "human": Role.USER,
    "user": Role.USER,
    "ai": Role.ASSISTANT,
    "assistant": Role.ASSISTANT,
    "system": Role.SYSTEM,
    "tool": Role.TOOL,
    "function": Role.TOOL,
}


@dataclass(frozen=True)
class SourceRow:
    """One row of the chat table, its message as the driver decoded it."""

    id: int
    session_id: str
    message: Any


class NotJson(str):
    """The text of a message column of type text that does not decode as JSON."""

    __slots__ = ()


class RowKind(StrEnum):
    """What a row of the chat table is; an import counts its rows by kind."""

    HUMAN = "human"
    AI = "ai"
    TOOL_CALL = "tool call"
    TOOL_RESULT = "tool result"
    SYSTEM = "system"


@dataclass(frozen=True)
class ChatMessage:
    """One stored message as Somna keeps it: its role, its text, and what kind of row it was."""

    role: Role
    content: str
    kind: RowKind

    @property
    def tool_traffic(self) -> bool:
        """A tool call or result: kept for provenance, never a source of facts."""
        return self.kind in (RowKind.TOOL_CALL, RowKind.TOOL_RESULT)


_KINDS = {
    Role.USER: RowKind.HUMAN,
    Role.ASSISTANT: RowKind.AI,
    Role.SYSTEM: RowKind.SYSTEM,
    Role.TOOL: RowKind.TOOL_RESULT,
}


def read_chat_message(message: object) -> ChatMessage:
    """The role, text and kind of one stored message; `ValueError` says why it must be skipped.

    Both layouts occur: n8n's `{"type": "human", "content": "..."}` and
    LangChain's `{"type": "human", "data": {"content": "..."}}`; the content may
    be a list of parts (`[{"type": "text", "text": "..."}]`). An agent's tool
    call may have no text at all (`"content": []` with `tool_calls`): it is
    written as n8n's agents word one, `Calling NAME with input: {...}`.

    >>> read_chat_message({"type": "ai", "data": {"content": "Noted."}}).content
    'Noted.'
    """
    if isinstance(message, NotJson):
        raise ValueError("not JSON")
    if message is None:
        raise ValueError("null")
    if not isinstance(message, dict):
        raise ValueError("not a JSON object")
    data = message.get("data")
    body: dict[str, Any] = data if isinstance(data, dict) else message
    kind = message.get("type", body.get("type"))
    if kind is None:
        raise ValueError("no type")
    role = _ROLES.get(kind.strip().lower()) if isinstance(kind, str) else None
    if role is None:
        raise ValueError("unknown type")
    text = _text(body.get("content", message.get("content"))).strip()
    calls = _tool_calls(message) if role is Role.ASSISTANT else []
    if calls:
        return ChatMessage(role, text or "\n".join(calls), RowKind.TOOL_CALL)
    if role is Role.TOOL:
        return ChatMessage(role, text or "(no output)", RowKind.TOOL_RESULT)
    if not text:
        raise ValueError("no content")
    return ChatMessage(role, text, _KINDS[role])


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            part if isinstance(part, str) else part.get("text")
            for part in content
            if isinstance(part, str | dict)
        ]
        return "\n".join(p for p in parts if isinstance(p, str) and p.strip())
    return ""


def _tool_calls(message: dict[str, Any]) -> list[str]:
    """An ai row's tool calls, each as `Calling NAME with input: ARGS`, wherever they are kept.

    LangChain keeps `tool_calls` (`{"name", "args"}`) on the message or in its
    `data`; OpenAI's form (`{"function": {"name", "arguments"}}`) sits in
    `additional_kwargs`.
    """
    data = message.get("data")
    places: list[Any] = [message, data if isinstance(data, dict) else {}]
    places += [p.get("additional_kwargs") for p in places]
    for place in places:
        found = place.get("tool_calls") if isinstance(place, dict) else None
        if isinstance(found, list) and found:
            return [_call(c) for c in found]
    return []


def _call(call: object) -> str:
    if not isinstance(call, dict):
        return "Calling a tool with input: {}"
    function = call.get("function")
    spec: dict[str, Any] = function if isinstance(function, dict) else call
    args = spec.get("args", spec.get("arguments", {}))
    shown = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
    return f"Calling {spec.get('name') or 'a tool'} with input: {shown}"
