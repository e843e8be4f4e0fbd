"""`somna mcp --profile P` over stdio, driven by the official MCP client in a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.types import TextContent

import somna
from somna.embed import BundledEmbedder
from somna.interfaces.mcp import TOOLS
from tests.interfaces.api.live import new_memory

pytestmark = pytest.mark.slow  # starts the server in a subprocess

SRC = str(Path(somna.__file__).resolve().parent.parent)


def _server(db: Path, profile: str) -> StdioServerParameters:
    """`python -m somna.interfaces.mcp`, the same command as `somna mcp`."""
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "somna.interfaces.mcp", "--profile", profile, "--db", str(db)],
        env={"PYTHONPATH": SRC},
        cwd=db.parent,
    )


def test_the_stdio_server_serves_one_profile(tmp_path: Path, embedder: BundledEmbedder) -> None:
    db = tmp_path / "somna.db"
    with new_memory(tmp_path, embedder) as memory:
        memory.create_profile("alice")
        memory.create_profile("bob")
        bob_fact = memory.add_fact("bob", "Owns a sailing boat.").fact.id
        bob_before = memory.export("bob")

    async def session() -> dict[str, Any]:
        async with Client(_server(db, "alice"), read_timeout_seconds=60) as client:
            tools = (await client.list_tools()).tools
            added = await client.call_tool("fact_add", {"text": "Lives in Lyon.", "verified": True})
            remembered = await client.call_tool(
                "remember", {"text": "Answer in French.", "is_instruction": True}
            )
            recalled = await client.call_tool("recall", {"query": "where does she live?"})
            bobs = await client.call_tool("fact_get", {"fact_id": bob_fact})
            sneaky = await client.call_tool("fact_list", {"profile": "bob"})
            return {
                "tools": tools,
                "added": added,
                "remembered": remembered,
                "recalled": recalled,
                "bobs": bobs,
                "sneaky": sneaky,
            }

    result = anyio.run(session)
    assert [t.name for t in result["tools"]] == list(TOOLS)
    assert all("profile" not in t.input_schema["properties"] for t in result["tools"])
    assert result["added"].structured_content["fact"]["status"] == "verified"
    assert result["remembered"].structured_content["fact"]["type"] == "instruction"
    assert result["recalled"].structured_content["results"][0]["text"] == "Lives in Lyon."
    assert result["bobs"].is_error
    error = result["bobs"].content[0]
    assert isinstance(error, TextContent) and "no fact with id" in error.text
    # `profile` is no argument here: the tool refuses it rather than answer for alice.
    assert result["sneaky"].is_error
    sneaky = result["sneaky"].content[0]
    assert isinstance(sneaky, TextContent) and "does not take 'profile'" in sneaky.text
    assert bob_fact not in sneaky.text

    with new_memory(tmp_path, embedder) as memory:
        assert [f.text for f in memory.list_facts("alice")] == [
            "Answer in French.",
            "Lives in Lyon.",
        ]
        assert memory.export("bob") == bob_before


def test_the_stdio_server_refuses_a_missing_profile(tmp_path: Path) -> None:
    db = tmp_path / "somna.db"
    params = _server(db, "ghost")
    done = subprocess.run(
        [params.command, *params.args],
        env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "There is no profile named 'ghost'" in done.stderr
