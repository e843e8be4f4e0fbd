"""Query rewriting: a follow-up becomes a standalone query, through a real OpenAI-compatible
server on 127.0.0.1, and only when asked for."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from somna import Memory, Settings
from somna.embed import BundledEmbedder
from somna.llm import OpenAILLM
from somna.store.sqlite import SQLiteStore
from tests.llm.scripted_server import Script, ScriptedChatServer, serve


@pytest.fixture
def chat_server() -> Iterator[ScriptedChatServer]:
    yield from serve()


@pytest.fixture
def memory(chat_server: ScriptedChatServer, embedder: BundledEmbedder) -> Iterator[Memory]:
    llm = OpenAILLM("scripted", base_url=chat_server.url, api_key="test", max_retries=0)
    memory = Memory(store=SQLiteStore(":memory:"), embedder=embedder, llm=llm, settings=Settings())
    memory.create_profile("alice")
    memory.add_fact("alice", "Collects vintage synthesizers.")
    memory.add_fact("alice", "Collects old film cameras.")
    memory.add_messages("alice", "chat", [("user", "What instruments do I collect?")])
    yield memory
    memory.close()
    llm.close()


def test_a_follow_up_is_rewritten_from_the_session_window(
    memory: Memory, chat_server: ScriptedChatServer
) -> None:
    chat_server.push(Script(200, json.dumps({"query": "Which electronic instruments?"})))
    [first, *_] = memory.recall(
        "alice", "and the electronic ones?", query_rewrite=True, session_key="chat"
    )
    assert first.text == "Collects vintage synthesizers."
    [request] = chat_server.requests
    sent = request["messages"][-1]["content"]
    assert "and the electronic ones?" in sent and "What instruments do I collect?" in sent


def test_recall_calls_no_model_by_default(memory: Memory, chat_server: ScriptedChatServer) -> None:
    memory.recall("alice", "and the electronic ones?", session_key="chat")
    memory.context("alice", "instruments")
    assert chat_server.requests == []
