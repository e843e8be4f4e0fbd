"""The first hour of a new user at the command line: what they type wrong, and what they need.

Usage errors, a database path that is not a database, a port already taken,
LoCoMo file names, conflict ids at 80 columns, a model provider without a key,
a dry run's counts, erasure and export, and how the demo says to reach
`somna`. Each test works on its own database under `tmp_path`.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from somna.config import Settings
from somna.embed import BundledEmbedder
from somna.errors import InvalidInputError, SomnaError
from somna.interfaces.cli import app
from somna.interfaces.cli.options import CliState
from somna.llm.tasks import SessionDigest, SessionTranscript
from somna.memory import Memory
from somna.model import FactStatus
from somna.store.sqlite import SQLiteStore
from tests.consolidate.scripted import ScriptedLLM, fact
from tests.interfaces.cli.support import assert_one_line_error, data, ok

Invoke = Callable[..., Result]
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "x.db"


@pytest.fixture
def somna(db: Path, embedder: BundledEmbedder) -> Invoke:
    """`somna --db <tmp>/x.db ARGS…` with the shared embedder."""
    runner = CliRunner()

    def invoke(
        *args: str, columns: int = 200, env: dict[str, str] | None = None, input: str | None = None
    ) -> Result:
        state = CliState(memory_factory=lambda s: Memory(settings=s, embedder=embedder))
        return runner.invoke(
            app,
            ["--db", str(db), *args],
            obj=state,
            env={"COLUMNS": str(columns), **(env or {})},
            input=input,
        )

    return invoke


@pytest.fixture
def stored(db: Path, embedder: BundledEmbedder) -> Iterator[Memory]:
    memory = Memory(settings=Settings(db=str(db)), embedder=embedder)
    yield memory
    memory.close()


# -- usage errors ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["facts", "add"], ["Missing argument 'PROFILE'", "somna facts add --help"]),
        (["facts", "list", "alice", "--colour"], ["No such option: --colour"]),
        (["recal", "alice", "tea"], ["No such command 'recal'", "somna --help"]),
        (["search", "alice", "tea", "--k", "0"], ["'--k'", "somna search --help"]),
        (["facts", "list", "alice", "--as-of", "soon"], ["'soon' is not a date"]),
    ],
)
def test_a_usage_error_is_one_line_on_stderr_with_exit_2(
    somna: Invoke, args: list[str], fragments: list[str]
) -> None:
    assert_one_line_error(somna(*args), 2, *fragments)


@pytest.mark.slow  # a subprocess
def test_a_usage_error_of_the_installed_command_is_one_line_too(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "somna.interfaces.cli", "facts", "add"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "80"},
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "Error: Missing argument 'PROFILE'. See 'somna facts add --help'."
    ]


# -- a database path that is not a database -------------------------------------------


def test_somna_db_naming_a_file_that_is_not_a_database_fails_in_one_line(
    tmp_path: Path, embedder: BundledEmbedder
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list: eggs, flour\n" * 50, encoding="utf-8")
    state = CliState(memory_factory=lambda s: Memory(settings=s, embedder=embedder))
    result = CliRunner().invoke(
        app, ["facts", "list", "alice"], obj=state, env={"SOMNA_DB": str(notes)}
    )
    assert_one_line_error(result, 2, str(notes), "is not a Somna database")
    assert notes.read_text(encoding="utf-8").startswith("shopping list")  # left as it was


def test_the_store_refuses_a_file_that_is_not_a_database_with_a_somna_error(
    tmp_path: Path,
) -> None:
    junk = tmp_path / "junk.bin"
    junk.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(InvalidInputError, match=r"junk\.bin' is not a Somna database") as caught:
        SQLiteStore(junk)
    assert isinstance(caught.value, SomnaError)


# -- serve on a port in use -----------------------------------------------------------


def test_serve_on_a_port_in_use_says_so_in_one_line_before_any_banner(somna: Invoke) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = somna("serve", "--port", str(port))
    assert_one_line_error(result, 2, f"Port {port}", "already in use", "--port")


# -- ingest ---------------------------------------------------------------------------


def _conversation(sessions: int) -> dict[str, object]:
    """A LoCoMo-shaped conversation between two invented speakers."""
    data: dict[str, object] = {"speaker_a": "Ines", "speaker_b": "Tomas"}
    for n in range(1, sessions + 1):
        data[f"session_{n}_date_time"] = f"10:00 am on {n} March, 2024"
        data[f"session_{n}"] = [
            {"speaker": "Ines", "dia_id": f"D{n}:1", "text": f"Day {n}: I repaired a clock."},
            {"speaker": "Tomas", "dia_id": f"D{n}:2", "text": "Nice work."},
        ]
    return data


@pytest.mark.parametrize("name", ["26.json", "locomo-26.json"])
def test_ingest_names_a_locomo_profile_after_the_file_once_and_counts_sessions(
    somna: Invoke, stored: Memory, tmp_path: Path, name: str
) -> None:
    path = tmp_path / name
    path.write_text(json.dumps(_conversation(19)), encoding="utf-8")
    result = ok(somna("ingest", str(path)))
    assert result.stdout.startswith("Read 19 sessions of 1 profile from 1 file: created 1 profile")
    assert [p.id for p in stored.list_profiles()] == ["locomo-26"]
    again = data(somna("ingest", str(path), "--json"))
    assert (again["sessions_read"], again["skipped"]) == (19, 19)


# -- conflicts at 80 columns ----------------------------------------------------------


def test_conflict_ids_stay_whole_at_80_columns(somna: Invoke, stored: Memory) -> None:
    stored.create_profile("alice")
    veggie = stored.add_fact(
        "alice", "Has been strictly vegetarian for many years and never eats any meat at all."
    ).fact
    steak = stored.add_fact(
        "alice", "Orders a large steak at the grill restaurant downtown every single week."
    ).fact
    stored.resolve("alice", steak.id, veggie.id, "contradicts")
    [pair] = stored.conflicts("alice")
    stored.resolve_conflict(
        "alice", pair.conflict.id, "corrected", correction="Eats fish on Fridays, no other meat."
    )
    [settled] = stored.conflicts("alice", status="resolved")
    assert settled.correction is not None
    shown = ok(somna("conflicts", "list", "alice", "--status", "resolved", columns=80)).stdout
    assert max(len(line) for line in shown.splitlines()) <= 80
    for whole in (pair.conflict.id, veggie.id, steak.id, settled.correction.id):
        assert any(whole in line for line in shown.splitlines()), whole
    assert "c: Eats fish" in shown  # the correction's text, under the facts


# -- a model provider without its key -------------------------------------------------


def test_the_openai_provider_without_a_key_says_what_to_set(somna: Invoke, stored: Memory) -> None:
    result = somna(
        "consolidate", env={"SOMNA_LLM_PROVIDER": "openai", "SOMNA_LLM_MODEL": "gpt-4o-mini"}
    )
    assert_one_line_error(result, 1, "needs an API key", "SOMNA_LLM_API_KEY", "SOMNA_LLM_BASE_URL")
    assert "api_key=" not in result.stderr and "from_env" not in result.stderr


# -- a dry run counts what the real run does ------------------------------------------


SAID = {  # what each line says, as the scripted model files it
    "I'm planning to visit the lighthouse museum next month.": (
        "Plans to visit the lighthouse museum.",
        "plan",
    ),
    "I want to learn the cello this year.": ("Wants to learn the cello.", "plan"),
    "I prefer green tea to coffee.": ("Prefers green tea to coffee.", "preference"),
    "I'm planning to repaint the kitchen.": ("Plans to repaint the kitchen.", "plan"),
}


def _scripted(transcript: SessionTranscript) -> SessionDigest:
    return SessionDigest(
        summary="",
        facts=[
            fact(SAID[m.content][0], m.content, category=SAID[m.content][1])
            for m in transcript.messages
        ],
    )


def test_a_dry_run_counts_what_the_real_run_does_expiry_included(
    db: Path, embedder: BundledEmbedder, stored: Memory, tmp_path: Path
) -> None:
    state = CliState(
        memory_factory=lambda s: Memory(settings=s, embedder=embedder, llm=ScriptedLLM(_scripted))
    )

    def somna(*args: str) -> Result:
        return CliRunner().invoke(app, ["--db", str(db), *args], obj=state)

    lines = [
        ("spring", "I'm planning to visit the lighthouse museum next month.", "2023-03-01T10:00"),
        ("spring", "I want to learn the cello this year.", "2023-03-01T10:01"),
        ("summer", "I prefer green tea to coffee.", "2023-07-01T10:00"),
        ("summer", "I want to learn the cello this year.", "2023-07-01T10:01"),
        ("recent", "I'm planning to repaint the kitchen.", None),
    ]
    chat = tmp_path / "chat.jsonl"
    chat.write_text(
        "".join(
            json.dumps({"session": s, "role": "user", "content": c, **({"at": a} if a else {})})
            + "\n"
            for s, c, a in lines
        ),
        encoding="utf-8",
    )
    ok(somna("ingest", str(chat), "--profile", "alice"))
    dry = data(somna("consolidate", "--dry-run", "--idle-hours", "0", "--json"))
    assert stored.list_facts("alice", status=list(FactStatus)) == []  # a dry run writes nothing
    real = data(somna("consolidate", "--idle-hours", "0", "--json"))
    # 4 facts: the cello said twice is reinforced; the museum plan (2023) and the green tea
    # (2023, past 730 days) expire at once; the cello was seen again now, the kitchen is new.
    assert (real["facts_added"], real["facts_reinforced"], real["facts_expired"]) == (4, 1, 2)
    for count in ("sessions_consolidated", "facts_added", "facts_reinforced", "facts_expired"):
        assert dry[count] == real[count], count
    assert len(stored.list_facts("alice", status=[FactStatus.EXPIRED])) == 2


# -- forget and export ----------------------------------------------------------------


@pytest.fixture
def alice(stored: Memory) -> str:
    stored.create_profile("alice")
    stored.add_fact("alice", "Keeps bees on the roof.", quote="my bees are doing great")
    stored.add_messages("alice", "chat-1", [("user", "The hives need painting.")])
    return "alice"


def test_export_prints_everything_the_profile_holds_as_json(somna: Invoke, alice: str) -> None:
    exported = data(somna("export", alice))
    assert exported["profile"]["id"] == "alice"
    assert [f["text"] for f in exported["facts"]] == ["Keeps bees on the roof."]
    assert [e["quote"] for e in exported["evidence"]] == ["my bees are doing great"]
    assert [m["content"] for m in exported["messages"]] == ["The hives need painting."]


def test_export_to_a_file_writes_it_for_its_owner_only(
    somna: Invoke, alice: str, tmp_path: Path
) -> None:
    target = tmp_path / "alice.json"
    result = ok(somna("export", alice, "-o", str(target)))
    assert result.stdout.startswith(f"Exported profile alice to {target} (1 fact, 1 session")
    assert json.loads(target.read_text(encoding="utf-8"))["profile"]["id"] == "alice"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_export_and_forget_refuse_an_unknown_profile(somna: Invoke, stored: Memory) -> None:
    assert_one_line_error(somna("export", "nobody"), 2, "no profile named 'nobody'")
    assert_one_line_error(somna("forget", "nobody", "--yes"), 2, "no profile named 'nobody'")
    assert_one_line_error(somna("forget", "nobody", input="y\n"), 2, "'nobody'")


def test_forget_asks_first_and_keeps_everything_when_told_no(
    somna: Invoke, alice: str, stored: Memory
) -> None:
    declined = somna("forget", alice, input="n\n")
    assert declined.exit_code == 1
    assert "Erase profile 'alice'" in declined.stderr
    assert "Nothing was erased." in declined.stderr
    no_answer = somna("forget", alice, input="")
    assert no_answer.exit_code == 1
    assert "--yes" in no_answer.stderr
    assert stored.get_profile(alice).id == "alice"
    assert len(stored.list_facts(alice)) == 1


def test_forget_erases_after_a_yes_and_prints_the_receipt(
    somna: Invoke, alice: str, stored: Memory
) -> None:
    done = ok(somna("forget", alice, input="y\n"))
    assert "Erased profile alice, rows per table: " in done.stdout  # after the echoed "y"
    assert "facts 1" in done.stdout and "profiles 1" in done.stdout
    assert [p.id for p in stored.list_profiles()] == []
    assert_one_line_error(somna("export", alice), 2, "no profile named 'alice'")


def test_forget_with_yes_does_not_ask_and_json_gives_the_receipt(
    somna: Invoke, alice: str, stored: Memory
) -> None:
    receipt = data(somna("forget", alice, "--yes", "--json"))
    assert receipt["profile"] == "alice"
    assert receipt["erased"]["facts"] == 1
    assert receipt["erased"]["profiles"] == 1
    assert stored.list_profiles() == []


# -- how to reach `somna` -------------------------------------------------------------


@pytest.mark.slow  # subprocesses
def test_the_demo_names_somna_in_a_form_that_runs_when_pasted(tmp_path: Path) -> None:
    """Outside an activated venv, the demo's lines name the script by its path."""
    script = Path(sys.executable).parent / "somna"
    assert script.is_file(), "the somna console script is not installed next to python"
    probe = (
        "import sys; sys.argv[0] = sys.argv[1]; "
        "from somna.interfaces.cli.demo import how_to_run; print(how_to_run())"
    )
    bare_path = {**os.environ, "PATH": "/usr/bin:/bin"}
    shown = subprocess.run(
        [sys.executable, "-c", probe, str(script)],
        capture_output=True,
        text=True,
        env=bare_path,
        cwd=tmp_path,
        check=True,
    ).stdout.strip()
    assert shown != "somna" and shown.endswith("somna")
    pasted = subprocess.run(
        f"{shown} --db demo.db init",
        shell=True,
        capture_output=True,
        text=True,
        env=bare_path,
        cwd=tmp_path,
        check=False,
    )
    assert pasted.returncode == 0, pasted.stderr
    assert "Database ready" in pasted.stdout
    on_path = {**os.environ, "PATH": f"{script.parent}:/usr/bin:/bin"}
    plain = subprocess.run(
        [sys.executable, "-c", probe, str(script)],
        capture_output=True,
        text=True,
        env=on_path,
        cwd=tmp_path,
        check=True,
    ).stdout.strip()
    assert plain == "somna"


def test_the_demo_ends_with_commands_for_the_same_database_and_the_dashboard(
    somna: Invoke, db: Path
) -> None:
    closing = ok(somna("demo")).stdout.split("Next: explore the same memory yourself.", 1)[1]
    lines = [line.strip() for line in closing.strip().splitlines()]
    assert lines[0] == f"somna --db {db} facts list demo --status superseded --status disputed"
    assert all(line.startswith(f"somna --db {db} ") for line in lines)
    assert any("serve" in line and "http://127.0.0.1:8420/ui" in line for line in lines)
