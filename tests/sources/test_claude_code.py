"""Reading coding-assistant transcripts: Claude Code's JSON Lines, and plain role/content lines."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from somna.errors import InvalidInputError
from somna.model import Role
from somna.sources.claude_code import read_transcript

NOW = datetime(2026, 5, 3, 12, 0, tzinfo=UTC)


def _write(path: Path, *entries: object) -> Path:
    path.write_text("\n".join(json.dumps(e) for e in entries), encoding="utf-8")
    return path


def _assistant(message_id: str, block: dict[str, object], at: str) -> dict[str, object]:
    return {
        "type": "assistant",
        "sessionId": "abc",
        "timestamp": at,
        "message": {"id": message_id, "role": "assistant", "content": [block]},
    }


def test_blocks_of_one_assistant_message_become_one_turn(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "t.jsonl",
        {"type": "user", "sessionId": "abc", "timestamp": "2026-05-03T09:00:00Z",
         "message": {"role": "user", "content": "Rename the module to ledger."}},
        _assistant("m1", {"type": "thinking", "thinking": "ok"}, "2026-05-03T09:00:01Z"),
        _assistant("m1", {"type": "text", "text": "Renaming it now."}, "2026-05-03T09:00:02Z"),
        _assistant("m1", {"type": "tool_use", "name": "Bash", "input": {}}, "2026-05-03T09:00:03Z"),
        _assistant("m1", {"type": "text", "text": "Done: ledger.py."}, "2026-05-03T09:00:04Z"),
        _assistant("m2", {"type": "text", "text": "Anything else?"}, "2026-05-03T09:00:05Z"),
        {"type": "user", "isMeta": True, "message": {"role": "user", "content": "caveat"}},
        {"type": "file-history-snapshot", "snapshot": {}},
    )  # fmt: skip
    read = read_transcript(path, now=NOW)
    assert read.session_id == "abc"
    assert [(t.role, t.content) for t in read.turns] == [
        (Role.USER, "Rename the module to ledger."),
        (Role.ASSISTANT, "Renaming it now.\n\nDone: ledger.py."),
        (Role.ASSISTANT, "Anything else?"),
    ]
    assert read.turns[1].at == datetime(2026, 5, 3, 9, 0, 2, tzinfo=UTC)
    assert read.turns[0].meta["source"] == "capture" and read.turns[0].meta["sessionId"] == "abc"


def test_role_content_lines_take_at_or_timestamp_or_now(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "c.jsonl",
        {"role": "user", "content": "one", "timestamp": "2026-05-01T10:00:00+02:00"},
        {"role": "assistant", "content": "two", "at": "2026-05-01T08:01:00Z"},
        {"role": "tool", "content": "ignored"},
        {"role": "user", "content": "three"},
    )
    turns = read_transcript(path, now=NOW).turns
    assert [t.content for t in turns] == ["one", "two", "three"]
    assert [t.at for t in turns] == [
        datetime(2026, 5, 1, 8, 0, tzinfo=UTC),
        datetime(2026, 5, 1, 8, 1, tzinfo=UTC),
        NOW,
    ]


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("[1, 2]", "must be a JSON object"),
        ('{"role": "narrator", "content": "x"}', "expected a 'role'"),
        ('{"role": "user", "content": 5}', "'content' must be"),
        ('{"role": "user", "content": "x", "at": "yesterday"}', "not a date"),
        ('{"type": "user"}', "needs a message"),
    ],
)
def test_a_bad_line_is_named(tmp_path: Path, line: str, fragment: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"role": "user", "content": "fine"}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(InvalidInputError, match="line 2") as caught:
        read_transcript(path, now=NOW)
    assert fragment in str(caught.value)
