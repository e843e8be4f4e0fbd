"""`somna reembed`, run as a user would: the command in a subprocess, the embedder by env."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # subprocesses, and two models loaded


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
