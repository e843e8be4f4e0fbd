"""The conversation tools of the MCP server: a profile's sessions across devices, and resuming
the latest one. `server.py` registers them beside the fact tools."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import Field

from somna.memory import Memory
from somna.memory.sessions import SessionInfo
from somna.model import SessionStatus

__all__ = ["CONVERSATION_TOOLS", "conversation_tools"]

CONVERSATION_TOOLS = ("sessions_list", "session_resume")
"""The conversation tools, in the order a client lists them."""

SessionStatusName = Literal["open", "closed", "archived"]


def _info(info: SessionInfo) -> dict[str, Any]:
    data = {
        "key": info.session.key,
        "status": info.status.value,
        "device": info.device,
        "last_message_at": info.session.last_message_at.isoformat(),
        "messages": info.messages,
        "last_message": info.last_message,
        "summary": info.summary,
    }
    return {name: value for name, value in data.items() if value is not None}


def conversation_tools(
    memory: Memory, reach: Callable[[str], str]
) -> dict[str, Callable[..., dict[str, Any]]]:
    """The tools over `memory`; `reach` checks (and returns) a profile the caller may use."""

    def sessions_list(
        profile: str,
        limit: Annotated[int, Field(ge=1, le=100)] = 10,
        status: SessionStatusName | None = None,
    ) -> dict[str, Any]:
        """List the user's conversations, the latest message first, with the device each was
        last used on, its status and its summary.

        Args:
            profile: The profile (the user's isolated memory).
            limit: How many sessions (default 10).
            status: Only open, closed (quiet, not yet consolidated) or archived sessions.
        """
        wanted = None if status is None else SessionStatus(status)
        found = memory.list_sessions(reach(profile), limit=limit, status=wanted)
        return {"sessions": [_info(info) for info in found]}

    def session_resume(
        profile: str, budget_tokens: Annotated[int, Field(ge=50, le=100_000)] | None = None
    ) -> dict[str, Any]:
        """Pick up the user's latest open conversation, e.g. one begun on another device: its
        key (send the next messages there) and its thread (a summary of the older turns and
        the last ones).

        Args:
            profile: The profile (the user's isolated memory).
            budget_tokens: The most tokens the thread may take (default: the setting).
        """
        reached = reach(profile)
        info = memory.resume(reached)
        thread = memory.thread(reached, info.session.key, budget_tokens=budget_tokens)
        return {**_info(info), "thread": thread.text}

    return {"sessions_list": sessions_list, "session_resume": session_resume}
