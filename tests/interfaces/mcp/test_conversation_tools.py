"""The conversation tools over streamable HTTP: sessions of a profile, and resuming the latest."""

from __future__ import annotations

from typing import Any

from mcp import Client
from mcp.types import CallToolResult

from tests.interfaces.api.live import Live
from tests.interfaces.mcp.test_http import connect, text


def test_an_agent_lists_sessions_and_resumes_the_latest(live: Live) -> None:
    live.memory.add_messages(
        "alice", "phone", [{"role": "user", "content": "Draft my cover letter.", "device": "phone"}]
    )
    live.memory.add_messages(
        "alice", "desk", [{"role": "user", "content": "Make it shorter.", "device": "desk"}]
    )

    async def work(client: Client) -> list[CallToolResult]:
        return [
            await client.call_tool("sessions_list", {"profile": "alice", "limit": 5}),
            await client.call_tool("sessions_list", {"profile": "alice", "status": "archived"}),
            await client.call_tool("session_resume", {"profile": "alice", "budget_tokens": 100}),
            await client.call_tool("session_resume", {"profile": "bob"}),
        ]

    listed, archived, resumed, other = connect(live, live.alice, work)
    sessions: list[dict[str, Any]] = (listed.structured_content or {})["sessions"]
    assert [(s["key"], s["device"], s["messages"]) for s in sessions] == [
        ("desk", "desk", 1),
        ("phone", "phone", 1),
    ]
    assert (archived.structured_content or {})["sessions"] == []
    latest = resumed.structured_content or {}
    assert latest["key"] == "desk" and latest["thread"] == "user: Make it shorter."
    assert other.is_error and "bob" in text(other)


def test_resuming_with_nothing_open_is_a_readable_tool_error(live: Live) -> None:
    async def work(client: Client) -> CallToolResult:
        return await client.call_tool("session_resume", {"profile": "alice"})

    result = connect(live, live.alice, work)
    assert result.is_error and "no open session to resume" in text(result)
