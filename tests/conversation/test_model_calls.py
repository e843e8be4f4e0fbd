"""The optional model calls of a live conversation, through the real `openai` client to a
scripted OpenAI-compatible server on 127.0.0.1: folding a thread, and multi-query recall."""

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
    memory.create_profile("bo")
    yield memory
    memory.close()
    llm.close()


def _long_thread(memory: Memory, turns: int) -> None:
    for i in range(turns):
        memory.add_messages(
            "bo",
            "chat",
            [
                ("user", f"Step {i}: please add item number {i} to the packing list for the trip."),
                ("assistant", f"Added item {i} to the packing list."),
            ],
        )


def test_a_thread_folds_with_the_model_and_extends_its_summary(
    memory: Memory, chat_server: ScriptedChatServer
) -> None:
    _long_thread(memory, 6)
    chat_server.push(Script(200, json.dumps({"summary": "The user listed items 0 to 3."})))
    first = memory.thread("bo", "chat", budget_tokens=100, keep_turns=4)
    assert first.summary == "The user listed items 0 to 3." and first.summarised_by == "model"
    [request] = chat_server.requests
    sent = request["messages"][-1]["content"]
    assert "(none yet)" in sent and "item number 0" in sent and "item number 4" not in sent
    _long_thread(memory, 1)  # two more turns: the next fold extends the summary
    chat_server.push(Script(200, json.dumps({"summary": "The user listed items 0 to 4."})))
    second = memory.thread("bo", "chat", budget_tokens=100, keep_turns=4)
    assert second.summary == "The user listed items 0 to 4."
    sent = chat_server.requests[-1]["messages"][-1]["content"]
    assert "The user listed items 0 to 3." in sent and "item number 4" in sent
    assert "item number 0" not in sent  # already told by the summary so far
    assert memory.thread("bo", "chat", budget_tokens=100, keep_turns=4).summarised_by == "saved"
    assert len(chat_server.requests) == 2


def test_a_failing_model_leaves_an_extractive_thread(
    memory: Memory, chat_server: ScriptedChatServer
) -> None:
    _long_thread(memory, 6)
    chat_server.fail(500)
    thread = memory.thread("bo", "chat", budget_tokens=100, keep_turns=4)
    assert thread.summarised_by == "extractive" and thread.summary


def test_multi_query_recall_fuses_the_rephrasings(
    memory: Memory, chat_server: ScriptedChatServer
) -> None:
    memory.add_fact("bo", "Keeps a sourdough starter called Gustav in the fridge.")
    memory.add_fact("bo", "Drives a blue hatchback.")
    question = "what pet does Bo look after?"
    plain = memory.recall("bo", question, k=1, include_summaries=False)
    assert chat_server.requests == []  # off by default
    rephrased = ["Who is Gustav?", "What does Bo keep in the fridge?", "bread dough starter"]
    chat_server.push(Script(200, json.dumps({"queries": rephrased})))
    found = memory.recall("bo", question, k=1, include_summaries=False, multi_query=True)
    assert found[0].text == "Keeps a sourdough starter called Gustav in the fridge."
    assert found[0].signals["queries"] == 4 and found[0].signals["multi_query_rrf"] > 0
    assert plain[0].text == "Drives a blue hatchback."  # the question alone misses it
    [request] = chat_server.requests
    assert question in request["messages"][-1]["content"]


def test_the_prompt_block_for_a_question_just_recalled_reuses_its_rephrasings(
    memory: Memory, chat_server: ScriptedChatServer
) -> None:
    memory.add_fact("bo", "Keeps a sourdough starter called Gustav in the fridge.")
    chat_server.push(Script(200, json.dumps({"queries": ["Which starter does Bo keep?"]})))
    question = "what does Bo keep in the fridge?"
    memory.recall("bo", question, k=1, include_summaries=False, multi_query=True)
    memory.settings = memory.settings.model_copy(update={"multi_query": True})
    block = memory.context("bo", question)
    assert "Gustav" in block
    assert len(chat_server.requests) == 1  # the second recall asked the model nothing
    chat_server.push(Script(200, json.dumps({"queries": ["Which animal?"]})))
    memory.recall("bo", "and which animal?", k=1, multi_query=True)
    assert len(chat_server.requests) == 2  # another question is another call


def test_multi_query_with_a_failing_model_is_the_plain_recall(
    memory: Memory, chat_server: ScriptedChatServer
) -> None:
    memory.add_fact("bo", "Drives a blue hatchback.")
    chat_server.fail(500)
    found = memory.recall("bo", "which car?", k=1, include_summaries=False, multi_query=True)
    plain = memory.recall("bo", "which car?", k=1, include_summaries=False)
    assert [r.text for r in found] == [r.text for r in plain] == ["Drives a blue hatchback."]
    assert "multi_query_rrf" not in found[0].signals
    chat_server.push(Script(200, json.dumps({"queries": ["What does Bo drive?"]})))
    again = memory.recall("bo", "which car?", k=1, include_summaries=False, multi_query=True)
    assert again[0].signals["queries"] == 2  # a failure is not remembered: asked again


def test_multi_query_asks_nothing_of_the_rules_provider(embedder: BundledEmbedder) -> None:
    with Memory(store=SQLiteStore(":memory:"), embedder=embedder, settings=Settings()) as memory:
        memory.create_profile("bo")
        memory.add_fact("bo", "Drives a blue hatchback.")
        found = memory.recall("bo", "which car?", k=1, multi_query=True)
        plain = memory.recall("bo", "which car?", k=1)
        assert [r.id for r in found] == [r.id for r in plain]
        assert "multi_query_rrf" not in found[0].signals
