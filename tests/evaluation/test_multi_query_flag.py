"""`somna eval locomo --multi-query`: every question also recalled through rephrasings asked of
the configured model (a scripted OpenAI-compatible server on 127.0.0.1, the real client)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from somna.embed import BundledEmbedder
from somna.interfaces.cli.evaluate import app
from somna.interfaces.cli.options import CliState
from somna.llm import OpenAILLM
from somna.memory import Memory
from tests.evaluation.conftest import TINY
from tests.llm.scripted_server import Script, ScriptedChatServer, serve

pytestmark = pytest.mark.slow  # a LoCoMo evaluation


@pytest.fixture
def chat_server() -> Iterator[ScriptedChatServer]:
    yield from serve()


def test_the_flag_asks_the_model_for_rephrasings_of_each_question(
    tmp_path: Path, embedder: BundledEmbedder, tiny_locomo: Path, chat_server: ScriptedChatServer
) -> None:
    llm = OpenAILLM("scripted", base_url=chat_server.url, api_key="test", max_retries=0)
    state = CliState(memory_factory=lambda s: Memory(settings=s, embedder=embedder, llm=llm))

    def run(*flags: str) -> dict[str, object]:
        result = CliRunner().invoke(
            app,
            ["locomo", str(tiny_locomo), "--no-consolidate", "--json", "-", *flags,
             "--db", str(tmp_path / "eval.db")],
            obj=state,
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        report: dict[str, object] = json.loads(result.stdout)
        return report

    run()
    assert chat_server.requests == []
    for _ in range(20):
        chat_server.push(Script(200, json.dumps({"queries": ["another wording"]})))
    run("--multi-query")
    asked = [r["messages"][-1]["content"] for r in chat_server.requests]
    questions = {f"Question: {q['question']}" for q in TINY["qa"] if q["category"] <= 4}
    assert set(asked) == questions  # each question asked (by recall, and by the context block)
    llm.close()
