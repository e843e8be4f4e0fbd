"""A tool refuses an argument it does not take, instead of silently dropping it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from somna.embed import BundledEmbedder
from somna.interfaces.mcp import TOOLS
from somna.memory import Memory
from tests.interfaces.api.live import new_memory
from tests.interfaces.mcp.test_tools import error_text, run_with


@pytest.fixture
def memory(tmp_path: Path, embedder: BundledEmbedder) -> Iterator[Memory]:
    memory = new_memory(tmp_path, embedder)
    memory.create_profile("alice")
    memory.create_profile("bob")
    memory.add_fact("bob", "Keeps bees.")
    yield memory
    memory.close()


def test_a_profile_passed_to_a_tool_whose_profile_is_fixed_is_refused(memory: Memory) -> None:
    async def work(client: Client) -> Any:
        return await client.call_tool("fact_search", {"query": "bees", "profile": "bob"})

    text = error_text(run_with(memory, work))
    assert "The tool fact_search does not take 'profile'; it takes: as_of, k, query" in text
    assert "Keeps bees." not in text


def test_a_misspelt_argument_is_refused_with_the_ones_the_tool_takes(memory: Memory) -> None:
    async def work(client: Client) -> Any:
        return await client.call_tool("recall", {"profile": "alice", "query": "bees", "top_k": 3})

    text = error_text(run_with(memory, work, auth=False))
    assert "does not take 'top_k'" in text and "query" in text


def test_every_tool_publishes_that_it_takes_nothing_else(memory: Memory) -> None:
    async def work(client: Client) -> Any:
        return (await client.list_tools()).tools

    tools = run_with(memory, work)
    assert sorted(t.name for t in tools) == sorted(TOOLS)
    assert all(t.input_schema.get("additionalProperties") is False for t in tools)
