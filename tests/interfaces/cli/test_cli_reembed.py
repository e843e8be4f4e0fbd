"""`somna reembed`, run as a user would: the command in a subprocess, the embedder by env."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from somna.interfaces.cli import app
from tests.interfaces.cli.support import assert_one_line_error, data, ok


def somna(db: Path, embedder: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SOMNA_EMBEDDER": embedder}
    return subprocess.run(
        [sys.executable, "-m", "somna.interfaces.cli", "--db", str(db), *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
    )


def test_reembed_refuses_a_database_that_does_not_exist(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    result = CliRunner().invoke(app, ["--db", str(missing), "reembed"])
    assert_one_line_error(result, 2, "There is no database at")
    assert not missing.exists()


def test_reembed_of_an_empty_database_records_the_embedder_and_then_has_nothing_to_do(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "x.db")
    ok(CliRunner().invoke(app, ["--db", db, "init"]))
    first = data(CliRunner().invoke(app, ["--db", db, "reembed", "--json"]))
    assert first == {
        "before": None,
        "after": {"name": "all-MiniLM-L6-v2-int8", "dim": 384},
        "rows": 0,
    }
    again = ok(CliRunner().invoke(app, ["--db", db, "reembed"]))
    assert again.stdout == (
        "The database already uses all-MiniLM-L6-v2-int8 (384 dimensions); nothing to do.\n"
    )


@pytest.mark.slow  # subprocesses, and two models loaded
def test_reembed_moves_a_database_to_the_multilingual_embedder(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    assert somna(db, "bundled", "profiles", "create", "alice").returncode == 0
    added = somna(db, "bundled", "facts", "add", "alice", "The user is allergic to peanuts.")
    assert added.returncode == 0, added.stderr

    refused = somna(db, "multilingual", "search", "alice", "allergies")
    assert refused.returncode == 1 and refused.stdout == ""
    [line] = refused.stderr.splitlines()
    assert line.startswith("Error: This database's vectors come from the embedder all-MiniLM")
    assert "`somna reembed`" in line

    moved = somna(db, "multilingual", "reembed")
    assert moved.returncode == 0, moved.stderr
    assert " ".join(moved.stdout.split()) == (
        "Re-embedded 1 fact or summary with multilingual-e5-small-q4-centred (384 dimensions); "
        "they came from all-MiniLM-L6-v2-int8 (384 dimensions)."
    )

    found = somna(db, "multilingual", "search", "alice", "Le client a-t-il des allergies ?")
    assert found.returncode == 0, found.stderr
    assert "The user is allergic to peanuts." in found.stdout
    again = somna(db, "multilingual", "reembed", "--json")
    assert json.loads(again.stdout)["rows"] == 0
    back = somna(db, "bundled", "search", "alice", "allergies")
    assert back.returncode == 1 and "multilingual-e5-small-q4-centred" in back.stderr
