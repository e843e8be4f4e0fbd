"""The command line of the person who reviews a bot's memory, run as real processes.

Where the database is (a folder, a missing folder, an absolute URL, none yet),
`context --json`, a list that says when it stops, help without type noise, the
Postgres extra through make, and why old chats expire facts the night they come.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from somna.config import Settings
from somna.embed import BundledEmbedder
from somna.interfaces.cli.render import EXPIRED_WHY
from somna.memory import Memory

pytestmark = pytest.mark.slow  # subprocesses

ROOT = Path(__file__).resolve().parents[3]


def somna(
    *args: str, cwd: Path, env: dict[str, str] | None = None, code: str | None = None
) -> subprocess.CompletedProcess[str]:
    """`somna ARGS…` in `cwd`, as a new process (or `code` run before its main)."""
    prelude = code or "pass"
    return subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys; {prelude}; from somna.interfaces.cli import main; "
            f"sys.argv = ['somna', *{list(args)!r}]; main()",
        ],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={
            **{k: v for k, v in os.environ.items() if not k.startswith("SOMNA_")},
            "PYTHONPATH": str(ROOT / "src"),
            "COLUMNS": "100",
            **(env or {}),
        },
        check=False,
        timeout=300,
    )


def one_error(done: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), done.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def test_a_read_command_in_an_empty_folder_creates_no_database(tmp_path: Path) -> None:
    for args in (["facts", "list", "alice"], ["profiles"], ["context", "alice", "tea?"]):
        one_error(somna(*args, cwd=tmp_path), "There is no database at 'somna.db' yet")
    assert list(tmp_path.iterdir()) == []
    made = somna("init", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "somna.db").is_file()
    assert somna("profiles", cwd=tmp_path).returncode == 0


def test_a_database_path_that_cannot_be_a_file_is_refused_in_one_line(tmp_path: Path) -> None:
    one_error(
        somna("profiles", cwd=tmp_path, env={"SOMNA_DB": str(tmp_path)}),
        f"The database '{tmp_path}' is a folder",
        f"SOMNA_DB={tmp_path / 'somna.db'}",
    )
    missing = tmp_path / "nowhere" / "x.db"
    one_error(
        somna("profiles", "create", "ann", cwd=tmp_path, env={"SOMNA_DB": str(missing)}),
        f"The folder of the database '{missing}' does not exist",
        f"mkdir -p {missing.parent}",
    )
    assert not missing.parent.exists()


def test_an_absolute_sqlite_url_stays_absolute(tmp_path: Path) -> None:
    elsewhere, here = tmp_path / "data", tmp_path / "work"
    elsewhere.mkdir()
    here.mkdir()
    url = f"sqlite:///{elsewhere / 'memory.db'}"  # sqlite:////…/data/memory.db
    assert url.startswith("sqlite:////")
    made = somna("profiles", "create", "ann", cwd=here, env={"SOMNA_DB": url})
    assert made.returncode == 0, made.stderr
    assert (elsewhere / "memory.db").is_file() and list(here.iterdir()) == []


@pytest.fixture
def stocked(tmp_path: Path, embedder: BundledEmbedder) -> Path:
    db = tmp_path / "x.db"
    with Memory(settings=Settings(db=str(db)), embedder=embedder) as memory:
        memory.create_profile("ann")
        for n in range(5):
            memory.add_fact("ann", f"Owns {n + 2} bicycles in the shed.", category="hobby")
        memory.add_fact("ann", "Drinks green tea every morning.", category="preference")
    return db


def test_context_answers_json_like_the_rest_api(stocked: Path) -> None:
    done = somna("context", "ann", "what does she drink?", "--json", cwd=stocked.parent,
                 env={"SOMNA_DB": str(stocked)})  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert set(answer) == {"context", "degraded"}
    assert "Drinks green tea every morning." in answer["context"] and answer["degraded"] == []


def test_facts_list_says_when_it_stops_at_its_limit(stocked: Path) -> None:
    env = {"SOMNA_DB": str(stocked)}
    cut = somna("facts", "list", "ann", "--limit", "2", "--json", cwd=stocked.parent, env=env)
    assert cut.returncode == 0, cut.stderr
    assert len(json.loads(cut.stdout)) == 2
    assert cut.stderr.strip() == (
        "Showing the 2 newest of 6 matching facts; add --limit 6 or --all to see every one."
    )
    whole = somna("facts", "list", "ann", "--all", "--json", cwd=stocked.parent, env=env)
    assert len(json.loads(whole.stdout)) == 6 and whole.stderr == ""
    some = somna("facts", "list", "ann", "--text", "bicycles", "--json", cwd=stocked.parent,
                 env=env)  # fmt: skip
    assert len(json.loads(some.stdout)) == 5 and some.stderr == ""


def test_help_shows_options_and_arguments_without_type_noise(tmp_path: Path) -> None:
    for command in ([], ["serve"], ["ingest", "files"], ["facts", "list"], ["keys", "create"]):
        shown = somna(*command, "--help", cwd=tmp_path)
        assert shown.returncode == 0, shown.stderr
        for noise in ("<bool>", "<list[", "{FILE}", "{PROFILE}"):
            assert noise not in shown.stdout, (command, noise)
    usage = somna("ingest", "files", "--help", cwd=tmp_path).stdout
    assert "Usage: somna ingest files [OPTIONS] FILE..." in usage
    group = somna("ingest", "--help", cwd=tmp_path).stdout
    assert "Usage: somna ingest [OPTIONS] FILE... | n8n [OPTIONS]" in group
    assert "COMMAND [ARGS]" not in group and "│ files " in group and "│ n8n " in group
    listed = somna("facts", "list", "--help", cwd=tmp_path).stdout
    assert "<unverified|verified|" in listed and "--all " in listed


def test_the_postgres_hint_names_a_command_that_works_in_a_clone(tmp_path: Path) -> None:
    done = somna(
        "profiles",
        cwd=tmp_path,
        env={"SOMNA_DB": "postgresql://somna@127.0.0.1:1/none"},
        code="sys.modules['psycopg'] = None",  # the driver is not installed
    )
    assert done.returncode == 1 and done.stdout == ""
    assert "make run EXTRAS=postgres" in done.stderr
    planned = subprocess.run(
        ["make", "-n", "run", "EXTRAS=postgres"], capture_output=True, text=True, cwd=ROOT,
        check=True,
    )  # fmt: skip
    assert "-e '.[postgres]'" in planned.stdout
    assert "touch .venv/.installed-runtime-postgres" in planned.stdout
    plain = subprocess.run(["make", "-n", "run"], capture_output=True, text=True, cwd=ROOT)
    assert "[postgres]" not in plain.stdout


def test_old_chats_that_expire_facts_the_same_night_are_explained(tmp_path: Path) -> None:
    chats = tmp_path / "old.jsonl"
    lines = [
        {"session": "s1", "role": "user", "content": text, "at": "2023-03-01T10:00:00Z"}
        for text in ("I plan to visit Lisbon next spring.", "I prefer green tea to coffee.")
    ]
    chats.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    env = {"SOMNA_DB": str(tmp_path / "x.db")}
    assert somna("init", cwd=tmp_path, env=env).returncode == 0
    taken = somna("ingest", str(chats), "--profile", "ann", cwd=tmp_path, env=env)
    assert taken.returncode == 0, taken.stderr
    night = somna("consolidate", cwd=tmp_path, env={**env, "COLUMNS": "300"})
    assert night.returncode == 0, night.stderr
    assert "facts expired" in night.stdout
    assert " ".join(EXPIRED_WHY.split()) in " ".join(night.stdout.split())


def test_a_key_name_too_long_is_one_line_not_a_traceback(stocked: Path) -> None:
    done = somna(
        "keys", "create", "--profile", "ann", "--name", "x" * 300, cwd=stocked.parent,
        env={"SOMNA_DB": str(stocked)},
    )  # fmt: skip
    one_error(done, "Invalid name: String should have at most 200 characters.")
    assert "Value error" not in done.stderr
