"""The MCP tools over streamable HTTP at `/mcp`, behind the REST API's keys.

The official client talks to a live server; each call carries the key of its
HTTP request, and a tool's `profile` argument must be one the key reaches.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import anyio
import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, TextContent

from somna.embed import BundledEmbedder
from somna.errors import ProfileNotFoundError
from somna.interfaces.mcp import TOOLS
from somna.memory import Memory
from tests.interfaces.api.live import Live, live_server

_T = TypeVar("_T")


def connect(
    live: Live,
    secret: str | None,
    work: Callable[[Client], Awaitable[_T]],
    mode: str = "auto",
) -> _T:
    async def main() -> _T:
        headers = {} if secret is None else {"X-API-Key": secret}
        async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
            transport = streamable_http_client(f"{live.url}/mcp", http_client=http)
            async with Client(transport, mode=mode, read_timeout_seconds=60) as client:
                return await work(client)

    return anyio.run(main)


def text(result: CallToolResult) -> str:
    content = result.content[0]
    assert isinstance(content, TextContent)
    return content.text


def _bob(memory: Memory) -> dict[str, str]:
    tea = memory.add_fact("bob", "Drinks green tea every morning.").fact.id
    never = memory.add_fact("bob", "Never drinks tea.").fact.id
    conflict = memory.resolve("bob", never, tea, "contradicts").conflict
    assert conflict is not None
    return {"fact": tea, "other": never, "conflict": conflict.id}


def _arguments(profile: str, ids: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Valid arguments for every tool, aimed at `profile` and the given ids."""
    return {
        "fact_add": {"profile": profile, "text": "Owns a red bike."},
        "fact_resolve": {
            "profile": profile,
            "new_id": ids["other"],
            "existing_id": ids["fact"],
            "verdict": "duplicate",
        },
        "fact_search": {"profile": profile, "query": "tea"},
        "fact_get": {"profile": profile, "fact_id": ids["fact"]},
        "fact_list": {"profile": profile},
        "fact_update": {"profile": profile, "fact_id": ids["fact"], "text": "Hates tea."},
        "fact_delete": {"profile": profile, "fact_id": ids["fact"]},
        "list_conflicts": {"profile": profile},
        "resolve_conflict": {
            "profile": profile,
            "conflict_id": ids["conflict"],
            "resolution": "a_true",
        },
        "recall": {"profile": profile, "query": "tea"},
        "remember": {"profile": profile, "text": "Call me Mallory."},
        "sessions_list": {"profile": profile},
        "session_resume": {"profile": profile},
    }


def test_a_key_uses_the_tools_of_its_own_profile(live: Live) -> None:
    async def work(client: Client) -> tuple[Any, CallToolResult, CallToolResult]:
        tools = (await client.list_tools()).tools
        added = await client.call_tool("fact_add", {"profile": "alice", "text": "Lives in Oslo."})
        recalled = await client.call_tool("recall", {"profile": "alice", "query": "home town"})
        return tools, added, recalled

    tools, added, recalled = connect(live, live.alice, work)
    assert [t.name for t in tools] == list(TOOLS)
    assert all(t.input_schema["required"][0] == "profile" for t in tools)
    assert not added.is_error and not recalled.is_error
    assert recalled.structured_content
    assert recalled.structured_content["results"][0]["text"] == "Lives in Oslo."
    fact = live.memory.list_facts("alice")[0]
    assert live.memory.history("alice", fact.id).events[0].actor.startswith("mcp:key_")


def test_a_key_for_alice_reaches_nothing_of_bob_through_any_tool(live: Live) -> None:
    ids = _bob(live.memory)
    live.memory.flush()
    before = live.memory.export("bob")
    hidden = str(ProfileNotFoundError("bob"))

    async def work(client: Client) -> dict[str, list[CallToolResult]]:
        results: dict[str, list[CallToolResult]] = {}
        as_bob, as_alice = _arguments("bob", ids), _arguments("alice", ids)
        for name in TOOLS:
            results[name] = [
                await client.call_tool(name, as_bob[name]),
                await client.call_tool(name, as_alice[name]),
            ]
        return results

    for mode in ("auto", "legacy"):
        results = connect(live, live.alice, work, mode=mode)
        assert list(results) == list(TOOLS)
        for name, (other_profile, other_ids) in results.items():
            assert other_profile.is_error, (mode, name)
            assert text(other_profile) == f"Error executing tool {name}: {hidden}", (mode, name)
            if name in {
                "fact_resolve",
                "fact_get",
                "fact_update",
                "fact_delete",
                "resolve_conflict",
            }:
                assert other_ids.is_error, (mode, name)
                assert "Profile 'alice' has no" in text(other_ids), (mode, name)
            else:  # tools without ids only ever see alice's own memory
                assert "Drinks green tea" not in text(other_ids), (mode, name)
    live.memory.flush()
    assert live.memory.export("bob") == before


def test_a_tool_call_is_answered_with_one_json_body(live: Live) -> None:
    # Nothing streams from the tools, so no event stream is opened for an answer.
    call = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "fact_list", "arguments": {"profile": "alice"}},
    }
    headers = {"Accept": "application/json, text/event-stream"}
    with live.client(live.alice) as client:
        answer = client.post("/mcp", json=call, headers=headers)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.json()["id"] == 7
    assert answer.json()["result"]["structuredContent"]["facts"] == []


def test_the_mcp_endpoint_needs_a_valid_key(live: Live) -> None:
    ping = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    headers = {"Accept": "application/json, text/event-stream"}
    for key_headers in ({}, {"Authorization": "Bearer somna_wrong"}):
        with httpx.Client(base_url=live.url, headers={**headers, **key_headers}) as client:
            refused = client.post("/mcp", json=ping)
        assert refused.status_code == 401
        assert refused.json()["error"]["code"] == "unauthorized"
        assert refused.headers["www-authenticate"] == "Bearer"


def test_without_keys_the_tools_reach_every_profile(
    tmp_path: Path, embedder: BundledEmbedder
) -> None:
    with live_server(tmp_path, embedder, auth=False) as live:
        live.memory.add_fact("bob", "Plays chess on Sundays.")

        async def work(client: Client) -> CallToolResult:
            return await client.call_tool("fact_search", {"profile": "bob", "query": "chess"})

        found = connect(live, None, work)
    assert not found.is_error and found.structured_content
    assert found.structured_content["facts"][0]["text"] == "Plays chess on Sundays."
