"""The MCP tools, called in process: their descriptions, schemas, results and errors."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import anyio
import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent

from somna.embed import BundledEmbedder
from somna.interfaces.mcp import TOOLS, create_mcp_server
from somna.interfaces.mcp.server import (
    CONFLICT_STATUSES,
    FACT_STATUSES,
    FACT_TYPES,
    RESOLUTIONS,
    VERDICTS,
)
from somna.memory import Memory
from somna.model import ConflictStatus, FactStatus, FactType, Resolution, Verdict
from tests.interfaces.api.live import new_memory

_T = TypeVar("_T")


@pytest.fixture
def memory(tmp_path: Path, embedder: BundledEmbedder) -> Iterator[Memory]:
    memory = new_memory(tmp_path, embedder)
    memory.create_profile("alice")
    yield memory
    memory.flush()
    memory.close()


def run_with(memory: Memory, work: Callable[[Client], Awaitable[_T]], **options: Any) -> _T:
    """Run `work` with a client connected in process to the tools of alice."""

    async def main() -> _T:
        server = create_mcp_server(memory, **(options or {"profile": "alice"}))
        async with Client(server) as client:
            return await work(client)

    return anyio.run(main)


def data(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def error_text(result: CallToolResult) -> str:
    assert result.is_error
    content = result.content[0]
    assert isinstance(content, TextContent)
    return content.text


def test_the_accepted_values_are_the_domain_vocabularies() -> None:
    assert set(FACT_TYPES) == {t.value for t in FactType}
    assert set(FACT_STATUSES) == {s.value for s in FactStatus}
    assert set(VERDICTS) == {v.value for v in Verdict}
    assert set(RESOLUTIONS) == {r.value for r in Resolution}
    assert set(CONFLICT_STATUSES) == {s.value for s in ConflictStatus}


def test_every_tool_is_described_by_its_docstring(memory: Memory) -> None:
    async def both(client: Client) -> Any:
        return (await client.list_tools()).tools

    fixed = {t.name: t for t in run_with(memory, both)}
    open_ = {t.name: t for t in run_with(memory, both, auth=True)}
    assert list(fixed) == list(open_) == list(TOOLS)
    for name in TOOLS:
        described, scoped = fixed[name], open_[name]
        assert described.description and "\n\nArgs:\n" in described.description, name
        assert "profile" not in described.input_schema["properties"], name
        assert "profile:" not in described.description, name
        assert scoped.input_schema["required"][0] == "profile", name
        assert "    profile: " in (scoped.description or ""), name
        for argument in described.input_schema["properties"]:
            assert f"    {argument}: " in described.description, (name, argument)
    add = fixed["fact_add"].description or ""
    for verdict in VERDICTS:
        assert f"`{verdict}`" in add
    assert "fact_resolve" in add and "similar" in add
    settle = fixed["resolve_conflict"].description or ""
    for resolution in RESOLUTIONS:
        assert f"`{resolution}`" in settle
    assert fixed["fact_resolve"].input_schema["properties"]["verdict"]["enum"] == list(VERDICTS)


def test_a_fact_its_neighbor_and_the_verdict(memory: Memory) -> None:
    async def work(client: Client) -> dict[str, Any]:
        first = data(await client.call_tool("fact_add", {"text": "Lives in Paris."}))
        second = data(
            await client.call_tool(
                "fact_add", {"text": "Lives in Paris, France.", "category": "home"}
            )
        )
        similar = second["similar"]
        assert [s["id"] for s in similar] == [first["fact"]["id"]]
        assert 0.8 <= similar[0]["similarity"] <= 1 and "fact_resolve" in second["next_step"]
        judged = data(
            await client.call_tool(
                "fact_resolve",
                {
                    "new_id": second["fact"]["id"],
                    "existing_id": first["fact"]["id"],
                    "verdict": "duplicate",
                },
            )
        )
        found = data(await client.call_tool("fact_search", {"query": "Which city?", "k": 3}))
        recalled = data(await client.call_tool("recall", {"query": "where does she live"}))
        return {"judged": judged, "found": found, "recalled": recalled, "first": first}

    result = run_with(memory, work)
    statuses = {f["text"]: f["status"] for f in result["judged"]["facts"]}
    assert statuses == {"Lives in Paris.": "unverified", "Lives in Paris, France.": "retired"}
    assert [f["text"] for f in result["found"]["facts"]] == ["Lives in Paris."]
    assert result["recalled"]["results"][0]["text"] == "Lives in Paris."
    assert memory.get("alice", result["first"]["fact"]["id"]).text == "Lives in Paris."


def test_remember_stores_a_verified_fact_and_a_pending_instruction(memory: Memory) -> None:
    async def work(client: Client) -> list[dict[str, Any]]:
        return [
            data(
                await client.call_tool("remember", {"text": "Call me Sam.", "is_instruction": True})
            ),
            data(await client.call_tool("remember", {"text": "Has a dog named Rex."})),
        ]

    instruction, fact = (r["fact"] for r in run_with(memory, work))
    assert (instruction["type"], instruction["status"], instruction["confidence"]) == (
        "instruction",
        "unverified",
        1.0,
    )
    assert (fact["type"], fact["status"], fact["confidence"]) == ("fact", "verified", 1.0)


def test_conflicts_are_listed_and_settled(memory: Memory) -> None:
    veggie = memory.add_fact("alice", "Is vegetarian.").fact.id
    steak = memory.add_fact("alice", "Eats steak every day.").fact.id
    memory.resolve("alice", steak, veggie, "contradicts")

    async def work(client: Client) -> tuple[dict[str, Any], dict[str, Any], str]:
        listed = data(await client.call_tool("list_conflicts", {}))
        conflict = listed["conflicts"][0]["id"]
        refused = error_text(
            await client.call_tool(
                "resolve_conflict", {"conflict_id": conflict, "resolution": "corrected"}
            )
        )
        settled = data(
            await client.call_tool(
                "resolve_conflict",
                {
                    "conflict_id": conflict,
                    "resolution": "corrected",
                    "correction": "Eats fish but no meat.",
                },
            )
        )
        return listed, settled, refused

    listed, settled, refused = run_with(memory, work)
    assert {listed["conflicts"][0]["fact_a"]["id"], listed["conflicts"][0]["fact_b"]["id"]} == {
        veggie,
        steak,
    }
    assert "correction" in refused
    assert settled["status"] == "resolved"
    assert settled["correction_fact"]["text"] == "Eats fish but no meat."
    assert memory.get("alice", veggie).status is FactStatus.RETIRED


def test_the_other_fact_tools(memory: Memory) -> None:
    tea = memory.add_fact("alice", "Prefers tea to coffee.", category="preference").fact.id

    async def work(client: Client) -> list[Any]:
        got = data(await client.call_tool("fact_get", {"fact_id": tea}))
        listed = data(await client.call_tool("fact_list", {"category": "preference"}))
        updated = data(
            await client.call_tool("fact_update", {"fact_id": tea, "text": "Prefers green tea."})
        )
        deleted = data(
            await client.call_tool("fact_delete", {"fact_id": updated["id"], "reason": "asked"})
        )
        return [got, listed, updated, deleted]

    got, listed, updated, deleted = run_with(memory, work)
    assert got["text"] == "Prefers tea to coffee." and "profile_id" not in got
    assert [f["id"] for f in listed["facts"]] == [tea]
    assert (updated["text"], updated["status"]) == ("Prefers green tea.", "verified")
    assert deleted["status"] == "retired"
    assert memory.history("alice", updated["id"]).events[-1].actor == "mcp"


def test_a_refused_call_is_a_tool_error_with_the_reason(memory: Memory) -> None:
    before = memory.export("alice")

    async def work(client: Client) -> list[str]:
        return [
            error_text(await client.call_tool("fact_get", {"fact_id": "fct_nope"})),
            error_text(await client.call_tool("fact_add", {"text": "Two sentences. Here."})),
            error_text(
                await client.call_tool("fact_add", {"text": "Likes jazz.", "type": "rumour"})
            ),
            error_text(await client.call_tool("fact_search", {"query": "  "})),
            error_text(await client.call_tool("fact_update", {"fact_id": "fct_nope"})),
            error_text(await client.call_tool("recall", {"query": "jazz", "k": 0})),
        ]

    missing, two, bad_type, empty, nothing, zero = run_with(memory, work)
    assert "no fact with id 'fct_nope'" in missing
    assert "single sentence" in two
    assert "type" in bad_type
    assert "must not be empty" in empty
    assert "Nothing to change" in nothing
    assert zero == "The argument k of recall must be an integer from 1 to 100, not 0."
    assert memory.export("alice") == before


def test_results_are_json_and_their_text_copy_is_compact(memory: Memory) -> None:
    memory.add_fact("alice", "Speaks Italian, and a little Portuguese.")

    async def work(client: Client) -> CallToolResult:
        return await client.call_tool("recall", {"query": "languages", "format": "full"})

    result = run_with(memory, work)
    [content] = result.content
    assert isinstance(content, TextContent)
    assert json.loads(content.text) == result.structured_content
    assert "\n" not in content.text and '": ' not in content.text and '", "' not in content.text
    assert '"text":"Speaks Italian, and a little Portuguese."' in content.text
