"""Degrade instead of failing: with a part down, search and recall still answer, and say so.

The parts fail for real: a model server on 127.0.0.1 that answers HTTP 500, a model
and an embedder whose port nobody listens on (through the real `openai` client).
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from somna import Memory, Settings
from somna.embed import BundledEmbedder, OpenAIEmbedder
from somna.llm import OpenAILLM
from tests.llm.scripted_server import Script, ScriptedChatServer, serve


def dead_url() -> str:
    """The URL of a port of 127.0.0.1 that nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


@pytest.fixture
def chat_server() -> Iterator[ScriptedChatServer]:
    yield from serve()


@pytest.fixture
def stocked(memory: Memory) -> Memory:
    memory.create_profile("alice")
    memory.add_fact("alice", "Collects vintage synthesizers.")
    memory.add_fact("alice", "Grows tomatoes on the balcony.")
    memory.add_messages("alice", "chat", [("user", "What instruments do I collect?")])
    return memory


def with_parts(memory: Memory, **parts: object) -> Memory:
    """The same store, with some parts swapped."""
    return Memory(
        store=memory.store,
        embedder=parts.get("embedder", memory.embedder),  # type: ignore[arg-type]
        llm=parts.get("llm"),  # type: ignore[arg-type]
        settings=Settings(),
        clock=memory._clock,
    )


def test_with_the_embedder_down_search_and_recall_use_full_text_and_say_so(
    stocked: Memory, embedder: BundledEmbedder
) -> None:
    down = OpenAIEmbedder("any", base_url=dead_url(), dim=embedder.dim, max_retries=0)
    m = with_parts(stocked, embedder=down)
    hits = m.search("alice", "vintage synthesizers")
    assert [h.fact.text for h in hits] == ["Collects vintage synthesizers."]
    assert hits[0].vector_rank is None and hits[0].text_rank == 1
    [note] = hits.degraded
    assert note.startswith("Searched by full text only, because the embedder failed")
    recalled = m.recall("alice", "tomatoes balcony")
    assert recalled[0].text == "Grows tomatoes on the balcony."
    [again] = recalled.degraded
    assert again.startswith("Searched by full text only") and again.endswith(".")
    [block_note] = m.context("alice", "tomatoes balcony").degraded
    assert block_note == again


def test_when_everything_works_nothing_is_degraded(stocked: Memory) -> None:
    assert stocked.search("alice", "synthesizers").degraded == []
    assert stocked.recall("alice", "synthesizers").degraded == []
    assert stocked.context("alice", "synthesizers").degraded == []


@pytest.mark.parametrize("failure", ["http-500", "no-server"])
def test_with_the_model_failing_recall_uses_the_query_as_written(
    stocked: Memory, chat_server: ScriptedChatServer, failure: str
) -> None:
    if failure == "http-500":
        chat_server.push(Script(500, "the model crashed"))
        url = chat_server.url
    else:
        url = dead_url()
    llm = OpenAILLM("scripted", base_url=url, api_key="test", max_retries=0, timeout=5)
    m = with_parts(stocked, llm=llm)
    try:
        recalled = m.recall("alice", "vintage synthesizers", query_rewrite=True, session_key="chat")
    finally:
        llm.close()
    assert recalled[0].text == "Collects vintage synthesizers."
    [note] = recalled.degraded
    assert note.startswith("The query was used as written, because rewriting failed")
    assert note.endswith(".") and "\n" not in note
