"""The command line refuses a message dated far in the future: exit 2, one line, and
nothing of the file written."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from somna.embed import BundledEmbedder
from somna.interfaces.cli import app
from somna.interfaces.cli.options import CliState
from somna.memory import Memory
from tests.interfaces.cli.support import assert_one_line_error


def test_ingesting_a_message_from_the_far_future_exits_2(
    tmp_path: Path, embedder: BundledEmbedder
) -> None:
    rows = [
        {"session": "a", "role": "user", "content": "hi", "at": "2026-01-01T00:00:00Z"},
        {"session": "b", "role": "user", "content": "hi", "at": "9999-12-31T00:00:00Z"},
    ]
    chat = tmp_path / "chat.jsonl"
    chat.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    state = CliState(memory_factory=lambda s: Memory(settings=s, embedder=embedder))
    db = str(tmp_path / "x.db")
    result = CliRunner().invoke(
        app, ["--db", db, "ingest", str(chat), "--profile", "alice"], obj=state
    )
    assert_one_line_error(result, 2, "9999-12-31", "ahead of now")
    listed = CliRunner().invoke(app, ["--db", db, "profiles", "list", "--json"], obj=state)
    assert json.loads(listed.stdout) == []  # nothing of the file was written
