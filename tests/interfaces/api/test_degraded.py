"""With the embedder down, REST search and recall still answer and say so in a header;
the MCP tools say so in a `degraded` field; the command line on stderr."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from typer.testing import CliRunner

from somna import Memory, Settings
from somna.embed import BundledEmbedder, OpenAIEmbedder
from somna.interfaces.api import create_app
from somna.interfaces.api.routes.retrieval import DEGRADED
from somna.interfaces.cli import app
from somna.interfaces.cli.options import CliState
from somna.interfaces.mcp import create_mcp_server
from somna.store.sqlite import SQLiteStore
from tests.interfaces.api.live import serving


@pytest.fixture
def blind(tmp_path: Path, embedder: BundledEmbedder) -> Iterator[Memory]:
    """Alice's facts, then the same database served with an embedder nobody answers for."""
    with Memory(store=SQLiteStore(tmp_path / "somna.db"), embedder=embedder) as seeing:
        seeing.create_profile("alice")
        seeing.add_fact("alice", "Collects vintage synthesizers.")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    down = OpenAIEmbedder("any", base_url=url, dim=embedder.dim, max_retries=0)
    memory = Memory(store=SQLiteStore(tmp_path / "somna.db"), embedder=down, settings=Settings())
    yield memory
    memory.close()


def test_rest_answers_from_full_text_and_says_so_in_a_header(blind: Memory) -> None:
    with serving(create_app(blind, auth=False)) as url, httpx.Client(base_url=url) as client:
        found = client.get("/v1/profiles/alice/search", params={"q": "vintage synthesizers"})
        recalled = client.post("/v1/profiles/alice/recall", json={"query": "synthesizers"})
        block = client.post("/v1/profiles/alice/context", json={"query": "synthesizers"})
    for answer in (found, recalled):
        assert answer.status_code == 200, answer.text
        assert answer.headers[DEGRADED].startswith("Searched by full text only")
    assert block.status_code == 200, block.text
    [note] = block.json()["degraded"]
    assert note.startswith("Searched by full text only")
    assert found.json()[0]["fact"]["text"] == "Collects vintage synthesizers."
    assert recalled.json()[0]["text"] == "Collects vintage synthesizers."


def test_mcp_tools_answer_from_full_text_and_say_so(blind: Memory) -> None:
    async def work() -> list[dict[str, Any]]:
        async with Client(create_mcp_server(blind, profile="alice")) as client:
            answers = [
                await client.call_tool("fact_search", {"query": "vintage synthesizers"}),
                await client.call_tool("recall", {"query": "synthesizers"}),
            ]
        return [a.structured_content or {} for a in answers]

    searched, recalled = anyio.run(work)
    assert searched["facts"][0]["text"] == "Collects vintage synthesizers."
    assert recalled["results"][0]["text"] == "Collects vintage synthesizers."
    for answer in (searched, recalled):
        [note] = answer["degraded"]
        assert note.startswith("Searched by full text only")


def test_the_command_line_says_so_on_stderr_and_keeps_stdout_json(
    blind: Memory, tmp_path: Path
) -> None:
    state = CliState(memory_factory=lambda s: Memory(settings=s, embedder=blind.embedder))
    db = str(tmp_path / "somna.db")
    for command in ("search", "recall"):
        result = CliRunner().invoke(
            app, ["--db", db, command, "alice", "vintage synthesizers", "--json"], obj=state
        )
        assert result.exit_code == 0, result.output
        assert "Collects vintage synthesizers." in result.stdout
        [line] = result.stderr.splitlines()
        assert line.startswith("Degraded: Searched by full text only")
