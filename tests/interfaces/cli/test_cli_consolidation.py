"""`somna ingest`, `consolidate`, `runs`, `summaries`, `schedule` and `demo`, as a user sees them.

Each test works on a SQLite file under `tmp_path` and shares the session's
embedder through `CliState`. The `schedule` loop runs on a fake clock that its
fake `sleep` moves, so no test waits.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from somna.config import Settings
from somna.embed import BundledEmbedder
from somna.errors import LLMError, StoreError
from somna.interfaces.cli import app
from somna.interfaces.cli.consolidation import SHOWN, session_progress
from somna.interfaces.cli.demo import sample_conversations
from somna.interfaces.cli.options import CliState
from somna.interfaces.cli.schedule import next_run, parse_at, run_schedule, sleep_until
from somna.llm import LLM
from somna.llm.tasks import SessionDigest, SessionTranscript
from somna.memory import Memory
from somna.model import FactStatus, FactType, Run, Session
from tests.consolidate.scripted import ScriptedLLM, fact
from tests.interfaces.cli.support import assert_one_line_error, data, ok

Invoke = Callable[..., Result]

EVERY_STATUS = list(FactStatus)
CHAT = [
    {"session": "monday", "role": "user", "content": "I love hiking in the Alps.",
     "at": "2025-03-03T09:00:00Z"},
    {"session": "monday", "role": "assistant", "content": "Noted!", "at": "2025-03-03T09:00:10Z"},
    {"session": "monday", "role": "user", "content": "Thanks!", "at": "2025-03-03T09:00:20Z"},
    {"session": "friday", "role": "user", "content": "I work as a nurse at the city hospital.",
     "at": "2025-03-07T18:00:00Z"},
    {"session": "friday", "role": "user", "content": "I love hiking in the Alps.",
     "at": "2025-03-07T18:01:00Z"},
]  # fmt: skip


class FakeClock:
    """A naive local wall clock that `sleep` moves forward instead of waiting."""

    def __init__(self, start: datetime) -> None:
        self.now = start
        self.slept: list[float] = []

    def __call__(self) -> datetime:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += timedelta(seconds=seconds)


class BrokenMemory(Memory):
    """A memory whose whole consolidation run fails, as when the database is locked."""

    def consolidate(self, *args: Any, **kwargs: Any) -> Run:
        raise StoreError("The database is locked.")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "x.db"


@pytest.fixture
def cli(db: Path, embedder: BundledEmbedder) -> Callable[..., Invoke]:
    """`cli(llm=…, memory=…, clock=…)` gives `somna --db <tmp>/x.db ARGS…` wired that way."""

    def wired(
        llm: LLM | None = None, memory: type[Memory] = Memory, clock: FakeClock | None = None
    ) -> Invoke:
        def factory(settings: Settings) -> Memory:
            return memory(settings=settings, embedder=embedder, llm=llm)

        state = CliState(memory_factory=factory)
        if clock is not None:
            state.local_clock, state.sleep = clock, clock.sleep

        def invoke(*args: str, columns: int = 200) -> Result:
            return CliRunner().invoke(
                app, ["--db", str(db), *args], obj=state, env={"COLUMNS": str(columns)}
            )

        return invoke

    return wired


@pytest.fixture
def somna(cli: Callable[..., Invoke]) -> Invoke:
    return cli()


@pytest.fixture
def stored(db: Path, embedder: BundledEmbedder) -> Iterator[Memory]:
    """The same database through the library, to check what the CLI wrote."""
    memory = Memory(settings=Settings(db=str(db)), embedder=embedder)
    yield memory
    memory.close()


@pytest.fixture
def chat(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "chat.jsonl", CHAT)


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def ingested(somna: Invoke, chat: Path) -> None:
    ok(somna("ingest", str(chat), "--profile", "alice"))


# -- ingest ---------------------------------------------------------------------------


def test_ingest_jsonl_reports_what_it_added_and_skips_it_the_second_time(
    somna: Invoke, chat: Path, stored: Memory
) -> None:
    first = ok(somna("ingest", str(chat), "--profile", "alice"))
    assert first.stdout == (
        "Read 2 sessions of 1 profile from 1 file: created 1 profile, added 2 sessions "
        "(5 messages), skipped 0 sessions already imported.\n"
    )
    again = data(somna("ingest", str(chat), "--profile", "alice", "--json"))
    assert again == {
        "files": [str(chat)],
        "sessions_read": 2,
        "profiles": 0,
        "sessions": 0,
        "messages": 0,
        "skipped": 2,
    }
    assert [p.id for p in stored.list_profiles()] == ["alice"]
    assert [m.content for m in stored.window("alice", "friday")] == [
        "I work as a nurse at the city hospital.",
        "I love hiking in the Alps.",
    ]


def test_ingest_a_bad_line_exits_2_naming_file_and_line_and_writes_nothing(
    somna: Invoke, chat: Path, tmp_path: Path, db: Path, embedder: BundledEmbedder
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(CHAT[0]) + "\n{not json\n", encoding="utf-8")
    assert_one_line_error(
        somna("ingest", str(chat), str(bad), "--profile", "alice"), 2, str(bad), "line 2"
    )
    assert not db.exists()  # nothing was opened, let alone written
    role = tmp_path / "role.jsonl"
    write_jsonl(role, [CHAT[0], {**CHAT[1], "role": "robot"}])
    assert_one_line_error(somna("ingest", str(role), "--profile", "alice"), 2, "line 2", "role")
    assert not db.exists()


def test_ingest_checks_every_file_before_writing_any(
    somna: Invoke, chat: Path, tmp_path: Path, stored: Memory
) -> None:
    other = write_jsonl(tmp_path / "other.jsonl", [{**CHAT[0], "profile": "bob"}])
    misnamed = write_jsonl(tmp_path / "misnamed.jsonl", [{**CHAT[0], "profile": "no spaces"}])
    result = somna("ingest", str(other), str(misnamed))
    assert_one_line_error(result, 2, str(misnamed), "not a valid profile id")
    assert stored.list_profiles() == []


def test_ingest_without_a_profile_exits_2(somna: Invoke, chat: Path) -> None:
    assert_one_line_error(somna("ingest", str(chat)), 2, "line 1", "--profile")


def test_ingest_a_missing_or_unknown_file_exits_2(somna: Invoke, tmp_path: Path) -> None:
    assert_one_line_error(somna("ingest", "nope.jsonl"), 2, "nope.jsonl", "no such file")
    notes = tmp_path / "notes.txt"
    notes.write_text("Just some notes.\n", encoding="utf-8")
    assert_one_line_error(somna("ingest", str(notes)), 2, "notes.txt", "--format")


def _locomo(tmp_path: Path) -> Path:
    conversation = {
        "speaker_a": "Ines",
        "speaker_b": "Tomas",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ines", "dia_id": "D1:1", "text": "I love sailing with my cat."},
            {"speaker": "Tomas", "dia_id": "D1:2", "text": "That sounds lovely!"},
        ],
        "session_2_date_time": "7:55 pm on 25 May, 2023",
        "session_2": [
            {"speaker": "Tomas", "dia_id": "D2:1", "text": "I'm a nurse in Lisbon."},
        ],
    }
    path = tmp_path / "conv-26.json"
    path.write_text(json.dumps(conversation), encoding="utf-8")
    return path


def test_ingest_detects_a_locomo_file(somna: Invoke, tmp_path: Path, stored: Memory) -> None:
    result = ok(somna("ingest", str(_locomo(tmp_path))))
    assert (
        "Read 2 sessions of 1 profile from 1 file: created 1 profile, added 2 sessions"
        in result.stdout
    )
    [profile] = stored.list_profiles()
    assert (profile.id, profile.name) == ("locomo-conv-26", "Ines & Tomas")
    [first] = stored.window("locomo-conv-26", "session_1", n=1)
    assert first.meta == {"speaker": "Tomas", "dia_id": "D1:2"}
    assert first.created_at.date().isoformat() == "2023-05-08"


def test_ingest_format_option_overrides_detection(somna: Invoke, tmp_path: Path) -> None:
    locomo = _locomo(tmp_path)
    named = data(somna("ingest", str(locomo), "--format", "locomo", "--profile", "ines", "--json"))
    assert (named["profiles"], named["sessions"]) == (1, 2)
    result = somna("ingest", str(locomo), "--format", "jsonl", "--profile", "x")
    assert_one_line_error(result, 2, str(locomo), "line 1")


def test_ingest_detects_json_lines_by_content(somna: Invoke, tmp_path: Path) -> None:
    lines = write_jsonl(tmp_path / "export.json", CHAT)
    done = data(somna("ingest", str(lines), "--profile", "alice", "--json"))
    assert (done["sessions"], done["messages"]) == (2, 5)


def test_ingest_names_the_file_of_a_bad_locomo_date(somna: Invoke, tmp_path: Path) -> None:
    path = _locomo(tmp_path)
    broken = json.loads(path.read_text(encoding="utf-8"))
    broken["session_2_date_time"] = "late May"
    path.write_text(json.dumps(broken), encoding="utf-8")
    assert_one_line_error(somna("ingest", str(path)), 2, str(path), "'late May'")
    truncated = tmp_path / "cut.json"
    truncated.write_text('{"speaker_a": "Ines",\n "session_1": [', encoding="utf-8")
    assert_one_line_error(somna("ingest", str(truncated)), 2, str(truncated), "line 2")


# -- consolidate ----------------------------------------------------------------------


def test_consolidate_prints_the_run_table(somna: Invoke, chat: Path) -> None:
    ingested(somna, chat)
    result = ok(somna("consolidate"))
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Run run_") and " succeeded in " in lines[0]
    rows = [re.fullmatch(r"\s*(\S.*?)\s{2,}(\S.*?)\s*", line) for line in lines[1:]]
    counts = {row[1]: row[2] for row in rows if row}
    assert counts["sessions seen"] == counts["sessions consolidated"] == "2"
    assert counts["sessions failed"] == "0"
    assert counts["facts added"] == "2"  # hiking, then the nurse
    assert counts["facts reinforced"] == "1"  # hiking, said again on friday
    assert counts["messages archived"] == "5"
    assert counts["LLM calls"] == "2"
    for label in ("facts superseded", "facts disputed", "facts rejected", "facts expired",
                  "messages purged", "prompt tokens", "completion tokens", "duration"):  # fmt: skip
        assert label in counts
    assert "Rejected" not in result.stdout
    assert "Failed" not in result.stdout


def test_consolidate_json_is_the_run(somna: Invoke, chat: Path, stored: Memory) -> None:
    ingested(somna, chat)
    run = data(somna("consolidate", "--profile", "alice", "--json"))
    assert run["id"].startswith("run_") and run["status"] == "succeeded"
    assert (run["sessions_seen"], run["facts_added"], run["facts_reinforced"]) == (2, 2, 1)
    assert run["duration_s"] >= 0 and run["dry_run"] is False
    assert [r.id for r in stored.runs()] == [run["id"]]
    texts = sorted(f.text for f in stored.list_facts("alice"))
    assert texts == [
        "The user loves hiking in the Alps.",
        "The user works as a nurse at the city hospital.",
    ]


def test_consolidate_with_nothing_due_says_so(somna: Invoke) -> None:
    result = ok(somna("consolidate", "--idle-hours", "5"))
    assert "No session was due (quiet for 5 h and not yet consolidated)." in result.stdout


def test_consolidate_dry_run_writes_nothing(somna: Invoke, chat: Path, stored: Memory) -> None:
    ingested(somna, chat)
    run = data(somna("consolidate", "--dry-run", "--json"))
    assert run["dry_run"] is True and run["facts_added"] >= 2
    assert stored.list_facts("alice", status=EVERY_STATUS) == []
    assert stored.runs() == [] and stored.summaries("alice") == []
    assert len(stored.window("alice", "friday")) == 2  # still in the hot table
    table = ok(somna("consolidate", "--dry-run")).stdout
    assert "Dry run: nothing was written." in table
    assert data(somna("consolidate", "--json"))["sessions_consolidated"] == 2


def test_consolidate_limit_takes_the_oldest_sessions_first(somna: Invoke, chat: Path) -> None:
    ingested(somna, chat)
    assert data(somna("consolidate", "--limit", "1", "--json"))["sessions_seen"] == 1
    assert data(somna("consolidate", "--json"))["sessions_seen"] == 1
    assert somna("consolidate", "--limit", "0").exit_code == 2


def test_consolidate_lists_rejections_up_to_ten_and_counts_the_rest(
    cli: Callable[..., Invoke], chat: Path
) -> None:
    invented = [fact(f"Owns {n} boats.", f"I own {n} boats") for n in range(SHOWN + 2)]
    somna = cli(llm=ScriptedLLM(lambda t: SessionDigest(summary="", facts=invented)))
    ingested(somna, chat)
    result = ok(somna("consolidate", "--limit", "1"))
    assert f"Rejected facts ({SHOWN + 2}):" in result.stdout
    listed = [line for line in result.stdout.splitlines() if line.startswith("  - Owns")]
    assert len(listed) == SHOWN
    assert "  - Owns 0 boats. (its quote is not in the conversation)" in listed
    assert "  … and 2 more" in result.stdout


def test_a_failed_session_is_reported_and_exits_0(
    cli: Callable[..., Invoke], chat: Path, stored: Memory
) -> None:
    def extract(transcript: SessionTranscript) -> SessionDigest:
        if transcript.session_key == "friday":
            raise LLMError("The model answered out of shape.")
        return SessionDigest(summary="", facts=[])

    somna = cli(llm=ScriptedLLM(extract))
    ingested(somna, chat)
    result = ok(somna("consolidate"))
    assert "Run run_" in result.stdout and " partial " in result.stdout
    assert "Failed sessions (1), left for the next run:" in result.stdout
    assert "  - session friday: The model answered out of shape." in result.stdout
    assert len(stored.window("alice", "friday")) == 2  # left for the next run


def test_a_run_that_raises_exits_1_with_one_line(cli: Callable[..., Invoke]) -> None:
    result = cli(memory=BrokenMemory)("consolidate")
    assert_one_line_error(result, 1, "The database is locked.")


def test_consolidate_unknown_profile_exits_2(somna: Invoke) -> None:
    assert_one_line_error(somna("consolidate", "--profile", "nobody"), 2, "nobody")


def test_session_progress_counts_sessions_on_a_terminal() -> None:
    screen = Console(file=io.StringIO(), force_terminal=True, width=100)
    at = datetime(2026, 5, 3, 9, 0, tzinfo=UTC)
    session = Session(profile_id="alice", key="monday", started_at=at, last_message_at=at)
    with session_progress(console=screen) as advance:
        assert advance is not None
        advance(session)
    with session_progress(enabled=False, console=screen) as nothing:
        assert nothing is None
    piped = Console(file=io.StringIO(), force_terminal=False)
    with session_progress(console=piped) as nothing:
        assert nothing is None


# -- runs and summaries ---------------------------------------------------------------


def test_runs_lists_the_latest_runs(somna: Invoke, chat: Path) -> None:
    assert "No consolidation runs yet" in ok(somna("runs")).stdout
    ingested(somna, chat)
    first = data(somna("consolidate", "--limit", "1", "--json"))["id"]
    second = data(somna("consolidate", "--json"))["id"]
    table = ok(somna("runs")).stdout
    assert first in table and second in table
    assert table.index(second) < table.index(first)  # newest first
    assert "succeeded" in table and "1 added" in table
    narrow = ok(somna("runs", columns=80)).stdout
    assert second in narrow and "sessions 1/1" in narrow
    assert [r["id"] for r in data(somna("runs", "--limit", "1", "--json"))] == [second]


def test_summaries_lists_the_session_summaries(somna: Invoke, chat: Path) -> None:
    ingested(somna, chat)
    ok(somna("consolidate"))
    table = ok(somna("summaries", "alice")).stdout
    assert "session" in table and "2025-03-07 18:00 → 18:01" in table
    assert "nurse at the city hospital" in table
    found = data(somna("summaries", "alice", "--json"))
    assert len(found) == 2 and {s["kind"] for s in found} == {"session"}
    [portrait] = data(somna("summaries", "alice", "--kind", "portrait", "--json"))
    assert "hiking" in portrait["text"]
    days = data(somna("summaries", "alice", "--kind", "day", "--limit", "1", "--json"))
    assert len(days) <= 1 and all(s["kind"] == "day" for s in days)


def test_summaries_empty_and_unknown(somna: Invoke, chat: Path) -> None:
    ingested(somna, chat)
    assert "No session summaries yet" in ok(somna("summaries", "alice")).stdout
    assert somna("summaries", "alice", "--kind", "weekly").exit_code == 2
    assert_one_line_error(somna("summaries", "nobody"), 2, "nobody")


# -- schedule -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("now", "expected"),
    [
        (datetime(2026, 5, 3, 1, 0), datetime(2026, 5, 3, 3, 0)),  # still ahead: today
        (datetime(2026, 5, 3, 2, 59, 59, 999_999), datetime(2026, 5, 3, 3, 0)),
        (datetime(2026, 5, 3, 3, 0), datetime(2026, 5, 4, 3, 0)),  # now: tomorrow
        (datetime(2026, 5, 3, 22, 0), datetime(2026, 5, 4, 3, 0)),  # past: tomorrow
        (datetime(2026, 12, 31, 4, 0), datetime(2027, 1, 1, 3, 0)),  # over the year
    ],
)
def test_next_run_is_today_if_still_ahead_else_tomorrow(now: datetime, expected: datetime) -> None:
    assert next_run(now, time(3, 0)) == expected


def test_next_run_at_midnight() -> None:
    assert next_run(datetime(2026, 2, 28, 23, 59), time(0, 0)) == datetime(2026, 3, 1, 0, 0)


@pytest.mark.parametrize("value", ["25:00", "3", "03:60", "3pm", "", "-1:00", "12:5"])
def test_parse_at_refuses_what_is_not_hh_mm(value: str) -> None:
    with pytest.raises(Exception, match="not a time of day"):
        parse_at(value)


def test_parse_at_reads_a_24_hour_time() -> None:
    assert (parse_at("03:00"), parse_at(" 7:05 "), parse_at("23:59")) == (
        time(3, 0),
        time(7, 5),
        time(23, 59),
    )


def test_sleep_until_reads_the_clock_at_least_once_a_minute() -> None:
    clock = FakeClock(datetime(2026, 5, 3, 2, 57, 30))
    sleep_until(datetime(2026, 5, 3, 3, 0), clock, clock.sleep)
    assert clock.slept == [60.0, 60.0, 30.0]
    assert clock.now == datetime(2026, 5, 3, 3, 0)


def test_run_schedule_runs_each_day_and_counts_failures() -> None:
    clock = FakeClock(datetime(2026, 5, 3, 22, 0))
    ran: list[datetime] = []
    waits: list[datetime] = []

    def job() -> bool:
        ran.append(clock.now)
        return len(ran) > 1  # the first night fails

    failed = run_schedule(
        time(3, 0), job, clock=clock, sleep=clock.sleep, times=2, on_wait=waits.append
    )
    assert failed == 1
    assert ran == waits == [datetime(2026, 5, 4, 3, 0), datetime(2026, 5, 5, 3, 0)]


def test_schedule_with_a_bad_time_exits_2(somna: Invoke) -> None:
    result = somna("schedule", "--at", "25:00")
    assert result.exit_code == 2
    assert "'25:00' is not a time of day" in result.stderr


def test_schedule_once_runs_at_the_next_time_and_exits(
    cli: Callable[..., Invoke], chat: Path, stored: Memory
) -> None:
    clock = FakeClock(datetime(2026, 5, 3, 2, 58, 30))
    somna = cli(clock=clock)
    ingested(somna, chat)
    result = ok(somna("schedule", "--at", "03:00", "--profile", "alice", "--once"))
    lines = result.stdout.splitlines()
    assert lines[0] == 'Consolidating profile "alice" once, at 03:00 local time; Ctrl-C stops.'
    assert lines[1] == "Next run: 2026-05-03 03:00."
    assert lines[2].startswith("2026-05-03 03:00 Run run_")
    assert "succeeded" in lines[2] and "2 sessions consolidated" in lines[2]
    assert "facts 2 added, 1 reinforced" in lines[2]
    assert clock.slept == [60.0, 30.0]
    assert len(stored.runs()) == 1


def test_schedule_ctrl_c_stops_cleanly(cli: Callable[..., Invoke]) -> None:
    clock = FakeClock(datetime(2026, 5, 3, 12, 0))

    def interrupted(seconds: float) -> None:
        raise KeyboardInterrupt

    clock.sleep = interrupted  # type: ignore[method-assign]
    result = ok(cli(clock=clock)("schedule", "--at", "03:00"))
    assert "every day at 03:00" in result.stdout
    assert "Next run: 2026-05-04 03:00." in result.stdout
    assert result.stdout.endswith("Stopped.\n")


def test_schedule_once_with_a_failed_run_exits_1(cli: Callable[..., Invoke]) -> None:
    clock = FakeClock(datetime(2026, 5, 3, 2, 59))
    result = cli(memory=BrokenMemory, clock=clock)("schedule", "--at", "03:00", "--once")
    assert result.exit_code == 1
    assert result.stderr == "2026-05-03 03:00 Error: The database is locked.\n"


def test_schedule_unknown_profile_exits_2_before_waiting(cli: Callable[..., Invoke]) -> None:
    clock = FakeClock(datetime(2026, 5, 3, 2, 0))
    result = cli(clock=clock)("schedule", "--at", "03:00", "--profile", "nobody")
    assert_one_line_error(result, 2, "nobody")
    assert clock.slept == []


# -- demo -----------------------------------------------------------------------------


def test_the_samples_hold_both_languages_over_several_days() -> None:
    conversations = sample_conversations()
    days = {turn.at.date() for c in conversations for turn in c.turns}
    said = " ".join(turn.content for c in conversations for turn in c.turns)
    assert len(conversations) >= 5 and len(days) >= 5
    assert max(days).isoformat() < "2026-11-01"
    for sentence in ("Remember that", "Retiens que", "Thanks!", "Merci", "Japan", "loto"):
        assert sentence in said


def test_demo_shows_each_behaviour_and_runs_again(somna: Invoke, stored: Memory) -> None:
    first = ok(somna("demo")).stdout
    assert 'into profile "demo"' in first and "Added 7 sessions (30 messages)." in first
    assert "7 sessions consolidated: " in first
    # superseded: Python until the Rust message, Rust since
    assert "The user's favourite programming language is Rust." in first
    assert (
        'Superseded: "The user\'s favourite programming language is Python." was true until '
        "2026-05-18" in first
    )
    # disputed: an open conflict the conversations never settle
    conflicts = first.split("4. Open conflicts")[1].split("5. Portrait")[0]
    assert "The user does not like meat." in conflicts and "The user does like meat." in conflicts
    # reinforced, the remembered instructions, the portrait and the recall
    assert 'Reinforced: "The user is allergic to peanuts." was said in 2 sessions' in first
    assert "sister's birthday is" in first and "retenir que le frère de" in first
    portrait = first.split("5. Portrait")[1].split("6. Recall")[0]
    assert "Rust" in portrait and "Python" not in portrait
    recall = first.split("6. Recall")[1].splitlines()
    top = next(line for line in recall if line.lstrip().startswith("1 "))
    assert "Rust" in top and "2026-05-18" in top
    # nothing from the pleasantries and the hypotheticals
    for never in ("Japan", "ramen", "loto", "chalet", "Thanks!", "Merci", "Cheers"):
        assert never not in first

    facts = stored.list_facts("demo", status=EVERY_STATUS)
    by_status = {status: [f.text for f in facts if f.status is status] for status in FactStatus}
    assert by_status[FactStatus.SUPERSEDED] == [
        "The user's favourite programming language is Python."
    ]
    assert sorted(by_status[FactStatus.DISPUTED]) == [
        "The user does like meat.",
        "The user does not like meat.",
    ]
    assert len(stored.conflicts("demo")) == 1
    instructions = sorted(f.text for f in facts if f.type is FactType.INSTRUCTION)
    assert instructions == [
        "L'utilisateur demande à l'assistant de retenir que le frère de l'utilisateur "
        "s'appelle Bastien.",
        "The user wants the assistant to remember that the user's sister's birthday is on "
        "12 March.",
    ]
    peanuts = next(f for f in facts if "peanuts" in f.text)
    assert len(stored.history("demo", peanuts.id).evidence) == 2
    for stored_fact in facts:
        for never in ("japan", "ramen", "loto", "chalet", "thank", "merci", "cheers"):
            assert never not in stored_fact.text.casefold()

    second = ok(somna("demo")).stdout
    assert "Skipped 7 sessions imported by an earlier run." in second
    assert "Nothing left to consolidate" in second
    assert second.split("3. Facts")[1] == first.split("3. Facts")[1]
    assert len(stored.list_facts("demo", status=EVERY_STATUS)) == len(facts)


def test_demo_output_fits_a_narrow_terminal(somna: Invoke) -> None:
    narrow = ok(somna("demo", columns=80)).stdout
    table = narrow.split("3. Facts")[1].split("\n", 1)[1].split("  Superseded:")[0]
    assert max(len(line) for line in table.splitlines()) <= 80
    assert "superseded" in table and "2026-03-02 → 2026-05-18" in table
