"""`fact_add` over MCP names the facts the new one may contradict, and asks to judge them."""

from __future__ import annotations

from mcp import Client
from mcp.types import CallToolResult

from tests.interfaces.api.live import Live
from tests.interfaces.mcp.test_http import connect


def test_fact_add_returns_candidates_and_the_next_step(live: Live) -> None:
    async def work(client: Client) -> tuple[CallToolResult, CallToolResult]:
        first = await client.call_tool(
            "fact_add", {"profile": "alice", "text": "The user lives in Paris."}
        )
        second = await client.call_tool(
            "fact_add", {"profile": "alice", "text": "The user lives in Berlin."}
        )
        return first, second

    first, second = connect(live, live.alice, work)
    assert first.structured_content and second.structured_content
    paris = first.structured_content["fact"]["id"]
    answer = second.structured_content
    assert answer["similar"] == []
    assert [c["id"] for c in answer["candidates"]] == [paris]
    assert "fact_resolve" in answer["next_step"]
