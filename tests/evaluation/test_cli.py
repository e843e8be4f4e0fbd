"""`somna eval locomo`, through the Typer app of `somna.interfaces.cli.evaluate`."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from somna.embed import BundledEmbedder
from somna.interfaces.cli.evaluate import app
from somna.interfaces.cli.options import CliState
from somna.memory import Memory

pytestmark = pytest.mark.slow  # a LoCoMo evaluation

Invoke = Callable[..., Result]


@pytest.fixture
def somna_eval(tmp_path: Path, embedder: BundledEmbedder) -> Invoke:
    """`somna eval ARGS… --db <tmp>/eval.db` with the shared embedder, on a wide terminal
    unless `columns` says otherwise."""
    runner = CliRunner()

    def invoke(*args: str, columns: int = 200) -> Result:
        state = CliState(memory_factory=lambda s: Memory(settings=s, embedder=embedder))
        return runner.invoke(
            app,
            [*args, "--db", str(tmp_path / "eval.db")],
            obj=state,
            env={"COLUMNS": str(columns)},
        )

    return invoke


def test_eval_locomo_prints_recall_by_category_and_writes_the_report(
    somna_eval: Invoke, tiny_locomo: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report.json"
    result = somna_eval("locomo", str(tiny_locomo), "--json", str(out))
    assert result.exit_code == 0, result.output
    table = result.stdout
    assert "Recall by question category" in table
    for header in ("evidence@5", "evidence@10", "session@5", "session@10", "coverage"):
        assert header in table
    rows = {line.split()[0]: line for line in table.splitlines() if line.strip()}
    assert rows["all"].split()[1:3] == ["6", "5"]  # questions, scored
    assert rows["all"].split()[4] == "70.0%"  # evidence@10
    assert "1 multi-hop" in table and "4 single-hop" in table
    assert "tiny.json" in table and "Recall latency: p50" in table
    assert f"Full report written to {out}." in table
    assert "tiny.json: 3 sessions ingested (12 turns)." in result.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["overall"]["evidence_recall"]["10"] == 0.7
    assert report["k_values"] == [5, 10] and report["categories"] == [1, 2, 3, 4]
    assert len(report["questions"]) == 6
    assert all(q["recalled"] for q in report["questions"])


def test_json_dash_prints_the_report_alone_on_stdout(somna_eval: Invoke, tiny_locomo: Path) -> None:
    result = somna_eval("locomo", str(tiny_locomo), "--json", "-", "--k", "10")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["k_values"] == [10]
    assert report["by_category"]["3"]["evidence_recall"] == {"10": 0.0}


def test_k_and_category_choose_columns_and_rows(somna_eval: Invoke, tiny_locomo: Path) -> None:
    result = somna_eval("locomo", str(tiny_locomo), "-k", "3", "--category", "4", "-c", "1")
    assert result.exit_code == 0, result.output
    assert "evidence@3" in result.stdout and "evidence@5" not in result.stdout
    assert "4 single-hop" in result.stdout and "1 multi-hop" in result.stdout
    assert "2 temporal" not in result.stdout


def test_a_second_run_on_the_same_database_warns(somna_eval: Invoke, tiny_locomo: Path) -> None:
    assert somna_eval("locomo", str(tiny_locomo)).exit_code == 0
    again = somna_eval("locomo", str(tiny_locomo))
    assert again.exit_code == 0, again.output
    assert "Warning: 3 sessions were already in the database" in again.stdout


def test_no_consolidate_skips_the_nightly_job(somna_eval: Invoke, tiny_locomo: Path) -> None:
    result = somna_eval("locomo", str(tiny_locomo), "--no-consolidate")
    assert result.exit_code == 0, result.output
    assert "skipped" in result.stdout


def test_a_file_that_is_not_locomo_exits_2(somna_eval: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    path.write_text("[]", encoding="utf-8")
    result = somna_eval("locomo", str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ") and "not a LoCoMo conversation file" in result.stderr


def test_a_missing_file_or_report_folder_is_a_usage_error(
    somna_eval: Invoke, tiny_locomo: Path, tmp_path: Path
) -> None:
    assert somna_eval("locomo", str(tmp_path / "nope.json")).exit_code == 2
    result = somna_eval("locomo", str(tiny_locomo), "--json", str(tmp_path / "no" / "r.json"))
    assert result.exit_code == 2
    assert "does not exist" in result.stderr


def test_the_help_asks_for_a_fresh_database() -> None:
    result = CliRunner().invoke(app, ["locomo", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "fresh database" in result.stdout and "Example:" in result.stdout


def test_eval_locomo_prints_the_raw_turn_baseline_beside_memory(
    somna_eval: Invoke, tiny_locomo: Path
) -> None:
    result = somna_eval("locomo", str(tiny_locomo), "--baseline", "turns", "--k", "20")
    assert result.exit_code == 0, result.output
    assert "turns@20" in result.stdout and "Recall by conversation" in result.stdout
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines() if line.strip()}
    assert rows["all"][4] == "100.0%"  # turns@20: twelve turns, all of them found
    assert "in context" in result.stdout and "observations" in result.stdout


def test_eval_locomo_tables_are_read_whole_at_80_columns(
    somna_eval: Invoke, tiny_locomo: Path
) -> None:
    result = somna_eval("locomo", str(tiny_locomo), "--baseline", "turns", columns=80)
    assert result.exit_code == 0, result.output
    tables = result.stdout.split("Recall latency:")[0]
    assert "…" not in tables
    assert max(len(line) for line in tables.splitlines()) <= 80
    for header in ("category", "questions", "evidence@10", "turns@10", "session@10", "coverage"):
        assert header in tables
    assert "Recall by question category (continued)" in tables
    rows = [line.split() for line in tables.splitlines() if line.startswith("all ")]
    assert rows[0][1:3] == ["6", "5"] and rows[1][1:3] == ["100.0%", "100.0%"]  # session@5, @10


def test_eval_locomo_refuses_an_unknown_baseline(somna_eval: Invoke, tiny_locomo: Path) -> None:
    result = somna_eval("locomo", str(tiny_locomo), "--baseline", "chunks")
    assert result.exit_code == 2
    assert "the only baseline is 'turns'" in result.output
