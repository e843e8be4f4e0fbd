"""`somna recall` and `somna context`, as a user types them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from somna.embed import BundledEmbedder
from somna.interfaces.cli import app
from somna.interfaces.cli.options import CliState
from somna.memory import Memory
from somna.ranking import HEADER, count_tokens

Invoke = Callable[..., Result]


@pytest.fixture
def somna(tmp_path: Path, embedder: BundledEmbedder) -> Invoke:
    runner = CliRunner()
    db = str(tmp_path / "x.db")

    def invoke(*args: str) -> Result:
        state = CliState(memory_factory=lambda s: Memory(settings=s, embedder=embedder))
        return runner.invoke(app, ["--db", db, *args], obj=state, env={"COLUMNS": "200"})

    assert invoke("profiles", "create", "alice").exit_code == 0
    for text in ("Is allergic to peanuts.", "Owns a red bicycle.", "Works as a nurse."):
        assert invoke("facts", "add", "alice", text).exit_code == 0
    return invoke


def test_recall_prints_what_came_back_and_why(somna: Invoke) -> None:
    result = somna("recall", "alice", "can she eat peanut butter?", "--k", "1")
    assert result.exit_code == 0, result.output
    assert "Is allergic to peanuts." in result.stdout and "text, vector" in result.stdout


def test_recall_json_is_parseable(somna: Invoke) -> None:
    result = somna("recall", "alice", "what is her job?", "--json", "--k", "2")
    items = json.loads(result.stdout)
    assert items[0]["text"] == "Works as a nurse." and items[0]["kind"] == "fact"
    assert {"rrf", "cosine"} <= set(items[0]["signals"])


def test_context_prints_the_prompt_block_within_budget(somna: Invoke) -> None:
    result = somna("context", "alice", "can she eat peanut butter?", "--budget", "40")
    assert result.exit_code == 0
    assert result.stdout.startswith(HEADER)
    assert count_tokens(result.stdout.strip()) <= 40


def test_recall_on_an_unknown_profile_exits_2(somna: Invoke) -> None:
    result = somna("recall", "carol", "anything")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
