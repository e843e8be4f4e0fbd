"""`somna facts add` shows, apart from similar facts, the facts the new one may contradict."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from somna.embed import BundledEmbedder
from somna.interfaces.cli import app
from somna.interfaces.cli.options import CliState
from somna.memory import Memory


def test_facts_add_shows_the_candidates_to_judge(tmp_path: Path, embedder: BundledEmbedder) -> None:
    runner = CliRunner()
    state = CliState(memory_factory=lambda s: Memory(settings=s, embedder=embedder))

    def somna(*args: str) -> str:
        result = runner.invoke(
            app, ["--db", str(tmp_path / "x.db"), *args], obj=state, env={"COLUMNS": "200"}
        )
        assert result.exit_code == 0, result.output
        return result.stdout

    somna("profiles", "create", "odile")
    somna("facts", "add", "odile", "The user lives in Paris.")
    shown = somna("facts", "add", "odile", "The user lives in Berlin.")
    assert "Facts of the same subject it may contradict" in shown
    assert "The user lives in Paris." in shown and "Similar active facts" not in shown
    assert "somna facts resolve odile" in shown
