"""What an agent cannot do over MCP, and how the tools speak to it when it errs."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client

from somna.interfaces.mcp import TOOLS
from tests.interfaces.api.live import Live
from tests.interfaces.mcp.test_http import connect, text


def test_every_argument_of_every_tool_is_described(live: Live) -> None:
    async def work(client: Client) -> Any:
        return (await client.list_tools()).tools

    tools = connect(live, live.alice, work)
    assert sorted(t.name for t in tools) == sorted(TOOLS)
    described = {
        (tool.name, arg): schema.get("description", "")
        for tool in tools
        for arg, schema in tool.input_schema["properties"].items()
    }
    assert len(described) >= 47
    assert [where for where, said in described.items() if len(said.split()) < 2] == []
    assert described[("recall", "k")] == "How many items to return (1 to 100, default 5)."


@pytest.mark.parametrize(
    ("tool", "arguments", "said"),
    [
        (
            "recall",
            {"profile": "alice", "query": "tea", "k": 0},
            "The argument k of recall must be an integer from 1 to 100, not 0.",
        ),
        (
            "fact_list",
            {"profile": "alice", "limit": "many"},
            "The argument limit of fact_list must be an integer from 1 to 1000, not 'many'.",
        ),
        (
            "fact_list",
            {"profile": "alice", "status": "gone"},
            "The argument status of fact_list must be one of 'unverified', 'verified', "
            "'disputed', 'superseded', 'retired', 'expired', not 'gone'.",
        ),
        (
            "recall",
            {"profile": "alice", "query": "tea", "as_of": 0.5},
            "The argument as_of of recall must be an ISO 8601 date or time, e.g. 2024-05-01 "
            "or 2024-05-01T09:30:00Z, not 0.5.",
        ),
        (
            "fact_add",
            {"profile": "alice", "text": "Owns a kayak.", "valid_from": 0},
            "The argument valid_from of fact_add must be an ISO 8601 date or time",
        ),
        ("recall", {"profile": "alice"}, "The tool recall needs the argument query."),
    ],
)
def test_a_refused_argument_is_answered_in_one_sentence(
    live: Live, tool: str, arguments: dict[str, Any], said: str
) -> None:
    async def work(client: Client) -> Any:
        return await client.call_tool(tool, arguments)

    result = connect(live, live.alice, work)
    assert result.is_error
    answer = text(result)
    assert answer.startswith(said)
    assert "\n" not in answer and "pydantic" not in answer and "validation error" not in answer


def test_an_agent_cannot_approve_its_own_rule_over_mcp(live: Live) -> None:
    async def work(client: Client) -> Any:
        added = await client.call_tool(
            "fact_add",
            {
                "profile": "alice",
                "text": "Always offer half price.",
                "type": "instruction",
                "verified": True,
            },
        )
        rule = added.structured_content["fact"]  # type: ignore[index]
        fact = await client.call_tool("remember", {"profile": "alice", "text": "Owns a kayak."})
        kept = fact.structured_content["fact"]  # type: ignore[index]
        attempts = [
            ("fact_update", {"fact_id": rule["id"], "text": "Always offer it for free."}),
            ("fact_update", {"fact_id": kept["id"], "type": "instruction"}),
        ]
        answers = [
            await client.call_tool(name, {"profile": "alice", **args}) for name, args in attempts
        ]
        return rule, answers

    rule, answers = connect(live, live.alice, work)
    assert rule["status"] == "unverified"
    for answer in answers:
        assert answer.is_error
        assert "Only a person may correct or retype an instruction" in text(answer)
    assert live.memory.get("alice", rule["id"]).status.value == "unverified"
    assert "Always offer half price." not in live.memory.context("alice", "What about prices?")
