"""Tool traffic stays in the session for provenance but never becomes facts, on every path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from somna import Memory
from somna.consolidate.transcript import is_tool_traffic, spoken
from somna.llm.tasks import SessionTranscript
from somna.model import Message, Role, SessionStatus
from somna.sources import read_jsonl
from tests.consolidate.scripted import ScriptedLLM, fact, proposing
from tests.consolidate.test_pipeline import with_llm
from tests.support import Clock

ASKED = "What do I usually drink?"
CALL = 'Calling search_my_memory with input: {"query": "drinks"}'
OUTPUT = json.dumps([{"id": "fct_1", "text": "Drinks oat milk lattes.", "status": "verified"}])
REPLY = "You usually go for oat milk lattes; I also like green tea myself."
TURN = [
    {"role": "user", "content": ASKED},
    {"role": "assistant", "content": CALL},
    {"role": "tool", "content": OUTPUT},
    {"role": "assistant", "content": REPLY},
]
# Each fact quotes one message: only the one the user said may become a fact.
FROM_USER = fact("Asks about usual drinks.", "What do I usually drink")
FROM_TOOL = fact("Drinks oat milk lattes.", "Drinks oat milk lattes")
FROM_CALL = fact("Searched for drinks.", 'input: {"query": "drinks"}')


@pytest.fixture
def alice(memory: Memory) -> Memory:
    memory.create_profile("alice")
    return memory


def _transcripts(llm: ScriptedLLM) -> list[SessionTranscript]:
    return [inputs for name, inputs in llm.calls if name == "extract"]


def _consolidated(memory: Memory, llm: ScriptedLLM, clock: Clock) -> list[str]:
    clock.advance(hours=4)
    run = memory.consolidate("alice")
    assert run.sessions_failed == 0
    return sorted(f.text for f in memory.list_facts("alice"))


def test_tool_rows_of_an_agent_turn_are_kept_but_never_extracted(
    alice: Memory, clock: Clock
) -> None:
    llm = ScriptedLLM(proposing(FROM_USER, FROM_TOOL, FROM_CALL))
    m = with_llm(alice, llm)
    m.add_messages("alice", "chat-1", TURN)
    assert _consolidated(m, llm, clock) == ["Asks about usual drinks."]
    [transcript] = _transcripts(llm)
    assert [(t.role, t.content) for t in transcript.messages] == [
        (Role.USER, ASKED),
        (Role.ASSISTANT, REPLY),
    ]
    with m.store.read("alice") as tx:
        [session] = tx.sessions()
    assert session.status is SessionStatus.ARCHIVED  # the whole turn went, tool rows included


def test_a_session_of_tool_traffic_alone_is_archived_without_a_model_call(
    alice: Memory, clock: Clock
) -> None:
    llm = ScriptedLLM(proposing(FROM_TOOL))
    m = with_llm(alice, llm)
    m.add_messages("alice", "tools-only", TURN[1:3])
    assert _consolidated(m, llm, clock) == []
    assert _transcripts(llm) == []


def test_tool_rows_read_from_jsonl_are_left_out_too(
    alice: Memory, clock: Clock, tmp_path: Path
) -> None:
    lines = [{"session": "s1", "profile": "alice", **turn} for turn in TURN]
    path = tmp_path / "chats.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    llm = ScriptedLLM(proposing(FROM_USER, FROM_TOOL, FROM_CALL))
    m = with_llm(alice, llm)
    m.ingest(read_jsonl(path, profile=None, now=m.now()))
    assert _consolidated(m, llm, clock) == ["Asks about usual drinks."]


def test_what_counts_as_tool_traffic(clock: Clock) -> None:
    def message(role: Role, content: str, **meta: object) -> Message:
        return Message(
            session_id="ses_1", seq=0, role=role, content=content, created_at=clock(), meta=meta
        )

    assert is_tool_traffic(message(Role.TOOL, "42"))
    assert is_tool_traffic(message(Role.ASSISTANT, CALL))
    assert is_tool_traffic(message(Role.ASSISTANT, "Looking it up.", tool_call=True))
    assert not is_tool_traffic(message(Role.USER, CALL))  # a person may type anything
    assert not is_tool_traffic(message(Role.ASSISTANT, "Calling your mother is a good idea."))
    kept = spoken([message(Role.USER, ASKED), message(Role.TOOL, OUTPUT)])
    assert [m.content for m in kept] == [ASKED]
