"""`somna sessions`, `somna metrics` and `somna capture`, as a user types them."""

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
from tests.interfaces.cli.support import assert_one_line_error, data, ok

Invoke = Callable[..., Result]


@pytest.fixture
def somna(tmp_path: Path, embedder: BundledEmbedder) -> Invoke:
    runner = CliRunner()
    db = str(tmp_path / "x.db")

    def invoke(*args: str) -> Result:
        state = CliState(memory_factory=lambda s: Memory(settings=s, embedder=embedder))
        return runner.invoke(app, ["--db", db, *args], obj=state, env={"COLUMNS": "200"})

    return invoke


def _lines(path: Path, *entries: dict[str, object]) -> Path:
    path.write_text("\n".join(json.dumps(e) for e in entries) + "\n", encoding="utf-8")
    return path


def _claude(kind: str, content: object, at: str, **extra: object) -> dict[str, object]:
    entry: dict[str, object] = {
        "type": kind,
        "sessionId": "5d1e",
        "uuid": f"u-{at}",
        "timestamp": at,
        "message": {"role": kind, "content": content},
    }
    entry.update(extra)
    return entry


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    return _lines(
        tmp_path / "5d1e.jsonl",
        {"type": "summary", "summary": "Refactor the parser", "leafUuid": "x"},
        _claude("user", "Keep the parser in pure Python, no C extension.", "2026-05-03T09:00:00Z"),
        _claude(
            "assistant",
            [
                {"type": "thinking", "thinking": "The user wants no native code."},
                {"type": "text", "text": "Agreed: the parser stays pure Python."},
                {"type": "tool_use", "id": "t1", "name": "Edit", "input": {"file": "p.py"}},
            ],
            "2026-05-03T09:00:05Z",
        ),
        _claude(
            "user",
            [{"type": "tool_result", "tool_use_id": "t1", "content": "edited"}],
            "2026-05-03T09:00:06Z",
        ),
        _claude("user", "<command-name>/clear</command-name>", "2026-05-03T09:00:07Z"),
        _claude("user", "sub-agent prompt", "2026-05-03T09:00:08Z", isSidechain=True),
    )  # fmt: skip


def test_capture_claude_code_keeps_the_text_turns_once(somna: Invoke, transcript: Path) -> None:
    done = data(somna("capture", "claude-code", str(transcript), "--profile", "dev", "--json"))
    assert done["session_key"] == "claude-code:5d1e" and done["added"] == 2
    window = data(somna("sessions", "list", "dev", "--json"))
    assert [s["session"]["key"] for s in window] == ["claude-code:5d1e"]
    assert window[0]["messages"] == 2
    assert window[0]["last_message"] == "Agreed: the parser stays pure Python."
    again = somna("capture", "claude-code", str(transcript), "--profile", "dev")
    assert "Nothing new" in ok(again).stdout
    with transcript.open("a", encoding="utf-8") as file:
        file.write(json.dumps(_claude("user", "Ship it on Friday.", "2026-05-03T10:00:00Z")))
    more = data(somna("capture", "claude-code", str(transcript), "--profile", "dev", "--json"))
    assert more["added"] == 1 and more["skipped"] == 2


def test_capture_jsonl_reads_role_content_pairs(somna: Invoke, tmp_path: Path) -> None:
    path = _lines(
        tmp_path / "chat.jsonl",
        {"role": "system", "content": "You are helpful."},
        {"role": "user", "content": "I prefer metric units.", "at": "2026-05-03T08:00:00Z"},
        {"role": "assistant", "content": [{"type": "text", "text": "Metric it is."}]},
    )
    result = somna("capture", "jsonl", str(path), "--profile", "dev", "--session", "s1",
                   "--device", "laptop")  # fmt: skip
    assert "Captured 2 turns into session s1" in ok(result).stdout
    [listed] = data(somna("sessions", "list", "dev", "--json"))
    assert listed["device"] == "laptop" and listed["messages"] == 2


def test_capture_refuses_a_bad_line_and_writes_nothing(somna: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"role": "user", "content": "ok"}\nnot json\n', encoding="utf-8")
    result = somna("capture", "jsonl", str(path), "--profile", "dev", "--session", "s1")
    assert_one_line_error(result, 2, "line 2", "not valid JSON")
    nameless = _lines(tmp_path / "n.jsonl", {"role": "user", "content": "hi"})
    result = somna("capture", "claude-code", str(nameless), "--profile", "dev")
    assert_one_line_error(result, 2, "--session")
    # Nothing was written: not even the database was created.
    assert_one_line_error(somna("sessions", "list", "dev"), 2, "There is no database")


def test_sessions_resume_merge_and_thread(somna: Invoke, tmp_path: Path) -> None:
    ok(somna("profiles", "create", "ann"))
    for key, device, at, text in [
        ("phone", "phone", "2026-05-03T08:00:00Z", "I want to repaint the hallway green."),
        ("desk", "desk", "2026-05-03T08:05:00Z", "Which paint brands are washable?"),
    ]:
        path = _lines(tmp_path / f"{key}.jsonl", {"role": "user", "content": text, "at": at})
        ok(somna("capture", "jsonl", str(path), "--profile", "ann", "--session", key,
                 "--device", device))  # fmt: skip
    resumed = data(somna("sessions", "resume", "ann", "--json"))
    assert resumed["session"]["key"] == "desk" and resumed["device"] == "desk"
    assert resumed["thread"]["text"] == "user: Which paint brands are washable?"
    merged = somna("sessions", "merge", "ann", "phone", "desk")
    assert "Merged desk into phone: 2 messages." in ok(merged).stdout
    thread = data(somna("sessions", "thread", "ann", "phone", "--json"))
    assert [t["content"] for t in thread["turns"]] == [
        "I want to repaint the hallway green.",
        "Which paint brands are washable?",
    ]
    assert thread["summary"] is None and thread["tokens"] > 0
    again = somna("sessions", "merge", "ann", "phone", "desk")
    assert_one_line_error(again, 2, "no session 'desk'")


def test_metrics_per_session_and_profile(somna: Invoke, tmp_path: Path) -> None:
    path = _lines(
        tmp_path / "m.jsonl",
        {"role": "user", "content": "Book a table for tonight.", "at": "2026-05-03T08:00:00Z"},
        {"role": "assistant", "content": "Do you mean the Italian place or the sushi bar?",
         "at": "2026-05-03T08:00:10Z"},
        {"role": "user", "content": "The Italian one.", "at": "2026-05-03T08:01:00Z"},
        {"role": "user", "content": "Also, how do black holes evaporate?",
         "at": "2026-05-03T08:02:00Z"},
        {"role": "assistant", "content": "Through Hawking radiation.",
         "meta": {"facts_used": 2}, "at": "2026-05-03T08:03:00Z"},
    )  # fmt: skip
    ok(somna("capture", "jsonl", str(path), "--profile", "ann", "--session", "m"))
    found = data(somna("metrics", "ann", "--json"))
    [one] = found["per_session"]
    assert (one["turns"], one["user_turns"], one["assistant_turns"]) == (5, 3, 2)
    assert one["clarifications"] == 1 and found["clarification_rate"] == 0.5
    assert one["topic_shifts"] >= 1 and one["facts_used"] == 2 and one["facts_used_reported"] == 1
    assert one["time_to_close_s"] == 180.0  # quiet for days by now: closed
    assert one["user_chars_mean"] == pytest.approx((25 + 16 + 35) / 3)
    table = ok(somna("metrics", "ann", "--session", "m")).stdout
    assert "clarify" in table and "2 (1)" in table
