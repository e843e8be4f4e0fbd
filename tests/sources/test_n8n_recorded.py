"""The rows real n8n agents wrote into their Postgres Chat Memory, read back by the import.

`make n8n-check` records them (`bench/n8n_check.py --record`) into
tests/sources/recorded/, one file per n8n line: AI Agent 3.1 and 1.7, turns
with and without a tool call, the memory node keyed by the profile id or by the
chat's session id under a renamed node. Each row's expected kind is worked out
here from its raw JSON, independently of the reader.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from somna.consolidate.transcript import spoken
from somna.memory import Memory
from somna.model import Role
from somna.sources import N8nImport, N8nTable, ProfileFrom, read_chat_message
from tests.sources.n8n_rows import N8nChat
from tests.store.pg_servers import TestServers

RECORDED = sorted((Path(__file__).parent / "recorded").glob("n8n-*.json"))
ROWS: list[dict[str, Any]] = [row for path in RECORDED for row in json.loads(path.read_text())]


def expected_kind(message: dict[str, Any]) -> str:
    if message["type"] == "tool":
        return "tool result"
    if message["type"] == "ai" and message.get("tool_calls"):
        return "tool call"
    return str(message["type"])


def agent_of(row: dict[str, Any]) -> str:
    return f"n8n {row['n8n']}, AI Agent {row['agent']}, {row['memory_node']} {row['memory']}"


def shapes() -> list[dict[str, Any]]:
    """One recorded row per (agent, kind): every shape the agents wrote."""
    first: dict[tuple[str, str], dict[str, Any]] = {}
    for row in ROWS:
        first.setdefault((agent_of(row), expected_kind(row["message"])), row)
    return list(first.values())


def test_both_n8n_lines_were_recorded_with_every_kind_of_row() -> None:
    assert {row["n8n"].split(".")[1] for row in ROWS} >= {"8", "40"}
    kinds = {(row["agent"], expected_kind(row["message"])) for row in ROWS}
    for agent in {row["agent"] for row in ROWS}:
        assert {k for a, k in kinds if a == agent} >= {"human", "ai"}
    assert {k for _, k in kinds} >= {"human", "ai", "tool call", "tool result"}


@pytest.mark.parametrize(
    "row", shapes(), ids=lambda r: f"{agent_of(r)}: {expected_kind(r['message'])}"
)
def test_each_recorded_shape_is_read_as_what_it_is(row: dict[str, Any]) -> None:
    read = read_chat_message(row["message"])
    kind = expected_kind(row["message"])
    assert read.kind == kind
    assert read.content.strip()
    roles = {"human": Role.USER, "ai": Role.ASSISTANT, "tool call": Role.ASSISTANT}
    assert read.role is roles.get(kind, Role.TOOL)
    if kind == "human":
        assert read.content == row["message"]["content"]


@pytest.fixture
def chat(postgres_servers: TestServers, tmp_path: Path) -> N8nChat:
    return N8nChat(postgres_servers, tmp_path / "n8n")


@pytest.fixture
def table(chat: N8nChat) -> Iterator[N8nTable]:
    with N8nTable(chat.dsn) as opened:
        yield opened


@pytest.mark.parametrize("n8n", sorted({row["n8n"] for row in ROWS}))
def test_an_import_of_a_real_chat_table_keeps_every_row_counted_by_kind(
    n8n: str, memory: Memory, chat: N8nChat, table: N8nTable
) -> None:
    rows = [row for row in ROWS if row["n8n"] == n8n]
    for row in rows:
        chat.insert(row["session_id"], row["message"])
    names = sorted({row["memory_node"] for row in rows})
    mapping = ProfileFrom.parse("session", names)
    report = N8nImport(
        memory.store, table, idle_hours=3, clock=memory.now, profile_from=mapping
    ).run()
    assert report.skipped == {}
    assert report.kinds == dict(Counter(expected_kind(row["message"]) for row in rows))
    users = {row["session_id"].split("__")[0] for row in rows}
    assert {p.id for p in memory.list_profiles()} == users  # each session id back to its user
    for user in users:
        said = [
            row["message"]["content"]
            for row in rows
            if row["session_id"].startswith(user) and row["message"]["type"] == "human"
        ]
        with memory.store.read(user) as tx:
            messages = [m for s in tx.sessions() for m in tx.session_messages(s.id)]
        assert [m.content for m in spoken(messages) if m.role is Role.USER] == said
        calls = [m for m in messages if m.meta.get("tool_call")]
        assert all(m.role is Role.ASSISTANT and m.content for m in calls)
        assert not set(map(id, calls)) & set(map(id, spoken(messages)))
