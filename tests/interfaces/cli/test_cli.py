"""The `somna` command line, specified by what a user types and sees.

Each test works on its own database under `tmp_path` (the suite's autouse
`clean_environ` fixture also clears SOMNA_* and chdirs there). Most invocations
share the session's loaded embedder through `CliState`; `init` and the
configuration tests run the default wiring end to end. The consolidation
commands and the demo are in test_cli_consolidation.py.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner, Result

from somna.config import Settings
from somna.embed import BundledEmbedder
from somna.interfaces.cli import app
from somna.interfaces.cli.options import CliState
from somna.memory import Memory
from somna.model import FactStatus
from tests.interfaces.cli.support import assert_one_line_error, data, ok

Invoke = Callable[..., Result]

EVERY_STATUS = list(FactStatus)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "x.db"


@pytest.fixture
def somna(db: Path, embedder: BundledEmbedder) -> Invoke:
    """`somna --db <tmp>/x.db ARGS…` with the shared embedder, on a wide terminal."""
    runner = CliRunner()

    def invoke(*args: str, columns: int = 200) -> Result:
        state = CliState(memory_factory=lambda s: Memory(settings=s, embedder=embedder))
        return runner.invoke(
            app, ["--db", str(db), *args], obj=state, env={"COLUMNS": str(columns)}
        )

    return invoke


@pytest.fixture
def alice(somna: Invoke) -> str:
    assert somna("profiles", "create", "alice").exit_code == 0
    return "alice"


@pytest.fixture
def stored(db: Path, embedder: BundledEmbedder) -> Iterator[Memory]:
    """The same database through the library, to check what the CLI wrote."""
    memory = Memory(settings=Settings(db=str(db)), embedder=embedder)
    yield memory
    memory.close()


def add(somna: Invoke, text: str, *options: str) -> dict[str, Any]:
    added: dict[str, Any] = data(somna("facts", "add", "alice", text, *options, "--json"))
    return added


# -- database and profiles ------------------------------------------------------------


def test_init_creates_the_database_and_is_idempotent(tmp_path: Path) -> None:
    target = tmp_path / "new.db"
    for _ in range(2):
        result = ok(CliRunner().invoke(app, ["init", "--db", str(target)]))
        assert re.fullmatch(
            rf"Database ready: {re.escape(str(target))} \(schema version [1-9]\d*\)\.\n",
            result.stdout,
        )
    assert target.exists()


def test_profiles_create_then_list(somna: Invoke) -> None:
    ok(somna("init"))
    assert "No profiles yet" in ok(somna("profiles")).stdout
    created = ok(somna("profiles", "create", "alice", "--name", "Alice Martin"))
    assert created.stdout == "Created profile alice (Alice Martin).\n"
    for listing in (somna("profiles"), somna("profiles", "list")):
        assert "Alice Martin" in ok(listing).stdout
    assert [p["id"] for p in data(somna("profiles", "--json"))] == ["alice"]


def test_creating_an_existing_profile_exits_2(somna: Invoke, alice: str) -> None:
    assert_one_line_error(somna("profiles", "create", "alice"), 2, "already exists")


def test_unknown_profile_exits_2(somna: Invoke) -> None:
    ok(somna("init"))
    assert_one_line_error(somna("facts", "list", "nobody"), 2, "no profile named 'nobody'")


# -- facts ----------------------------------------------------------------------------


def test_facts_add_then_list_shows_the_fact(somna: Invoke, alice: str) -> None:
    added = ok(somna("facts", "add", "alice", "Prefers tea to coffee.", "--category", "pref"))
    fact_id = added.stdout.split()[3].rstrip(".")
    assert added.stdout == f"Stored new fact {fact_id}.\n"
    listing = ok(somna("facts", "list", "alice")).stdout
    assert fact_id in listing
    assert "Prefers tea to coffee." in listing
    assert "unverified" in listing
    assert "pref" in listing


def test_facts_add_reports_similar_facts(somna: Invoke, alice: str) -> None:
    first = add(somna, "Prefers tea to coffee.")["fact"]["id"]
    result = ok(somna("facts", "add", "alice", "Likes drinking tea more than coffee."))
    assert "Similar active facts" in result.stdout
    assert first in result.stdout
    assert "0.8" in result.stdout  # the cosine, above the 0.80 floor
    assert "somna facts resolve alice" in result.stdout
    added = add(somna, "Enjoys tea much more than coffee.")
    assert first in [near["fact"]["id"] for near in added["similar"]]
    assert all(near["similarity"] >= 0.8 for near in added["similar"])


def test_facts_add_same_text_reinforces(somna: Invoke, alice: str) -> None:
    first = add(somna, "Prefers tea to coffee.")
    again = ok(somna("facts", "add", "alice", "prefers tea to coffee"))
    assert again.stdout.startswith(f"Reinforced known fact {first['fact']['id']}")
    assert len(data(somna("facts", "list", "alice", "--json"))) == 1


def test_facts_add_accepts_every_option(somna: Invoke, alice: str) -> None:
    added = add(
        somna,
        "Speaks Italian at home.",
        *("--type", "persona", "--category", "language", "--subject", "bob"),
        *("--confidence", "0.9", "--verified", "--quote", "We speak Italian at home."),
        *("--valid-from", "2024-01-02T10:00+02:00", "--valid-to", "2030-01-01"),
    )
    fact = added["fact"]
    assert added["created"] is True
    assert (fact["type"], fact["category"], fact["subject"]) == ("persona", "language", "bob")
    assert (fact["confidence"], fact["status"]) == (0.9, "verified")
    assert fact["valid_from"] == "2024-01-02T08:00:00Z"  # converted to UTC
    assert fact["valid_to"] == "2030-01-01T00:00:00Z"  # naive means UTC
    history = data(somna("facts", "history", "alice", fact["id"], "--json"))
    assert [e["quote"] for e in history["evidence"]] == ["We speak Italian at home."]


def test_facts_resolve_duplicate_retires_the_new_fact(somna: Invoke, alice: str) -> None:
    old = add(somna, "Prefers tea to coffee.")["fact"]["id"]
    new = add(somna, "Likes drinking tea more than coffee.")["fact"]["id"]
    result = ok(somna("facts", "resolve", "alice", new, old, "duplicate"))
    assert f"{new} is a duplicate" in result.stdout
    assert [f["id"] for f in data(somna("facts", "list", "alice", "--json"))] == [old]
    retired = data(somna("facts", "list", "alice", "--status", "retired", "--json"))
    assert [f["id"] for f in retired] == [new]


def test_facts_resolve_supersedes_keeps_the_past_true_in_its_time(
    somna: Invoke, alice: str
) -> None:
    paris = add(somna, "Lives in Paris.", "--valid-from", "2021-09-01")["fact"]["id"]
    berlin = add(somna, "Lives in Berlin.", "--valid-from", "2025-03-01")["fact"]["id"]
    outcome = data(somna("facts", "resolve", "alice", berlin, paris, "supersedes", "--json"))
    old = next(f for f in outcome["facts"] if f["id"] == paris)
    assert (old["status"], old["valid_to"]) == ("superseded", "2025-03-01T00:00:00Z")
    now = data(somna("facts", "list", "alice", "--json"))
    then = data(somna("facts", "list", "alice", "--as-of", "2023-01-01", "--json"))
    assert [f["id"] for f in now] == [berlin]
    assert [f["id"] for f in then] == [paris]


def test_facts_resolve_rejects_an_unknown_verdict(somna: Invoke, alice: str) -> None:
    a = add(somna, "Prefers tea to coffee.")["fact"]["id"]
    b = add(somna, "Lives in Paris.")["fact"]["id"]
    result = somna("facts", "resolve", "alice", b, a, "maybe")
    assert result.exit_code == 2
    assert "maybe" in result.stderr


def test_facts_show_prints_every_field(somna: Invoke, alice: str) -> None:
    fact_id = add(somna, "Prefers tea to coffee.", "--category", "preference")["fact"]["id"]
    shown = ok(somna("facts", "show", "alice", fact_id)).stdout
    for field in ("id", "text", "status", "confidence", "valid_from", "recorded_at"):
        assert f" {field} " in shown
    assert "preference" in shown


def test_history_shows_versions_after_edit(somna: Invoke, alice: str) -> None:
    old = add(somna, "Prefers tea to coffee.")["fact"]["id"]
    edited = ok(somna("facts", "edit", "alice", old, "--text", "Prefers green tea to coffee."))
    new = edited.stdout.split()[8].rstrip(".")
    assert edited.stdout.startswith(f"Fact {old} is replaced by its new version {new}.")
    history = data(somna("facts", "history", "alice", new, "--json"))
    assert [v["id"] for v in history["versions"]] == [old, new]
    assert [v["status"] for v in history["versions"]] == ["superseded", "verified"]
    assert "updated" in [e["action"] for e in history["events"]]
    table = ok(somna("facts", "history", "alice", new)).stdout
    assert "Versions" in table
    assert "Events" in table
    assert "v1" in table
    assert "v2" in table
    assert "status: unverified → superseded" in table


def test_edit_without_changes_exits_2(somna: Invoke, alice: str, stored: Memory) -> None:
    fact_id = add(somna, "Prefers tea to coffee.")["fact"]["id"]
    assert_one_line_error(somna("facts", "edit", "alice", fact_id), 2, "Nothing to change")
    assert [f.id for f in stored.list_facts("alice", status=EVERY_STATUS)] == [fact_id]


def test_delete_retires(somna: Invoke, alice: str, stored: Memory) -> None:
    fact_id = add(somna, "Prefers tea to coffee.")["fact"]["id"]
    result = ok(somna("facts", "delete", "alice", fact_id, "--reason", "asked to forget"))
    assert result.stdout == f"Retired fact {fact_id}: Prefers tea to coffee.\n"
    assert data(somna("facts", "list", "alice", "--json")) == []
    kept = stored.get("alice", fact_id)
    assert kept.status is FactStatus.RETIRED
    events = data(somna("facts", "history", "alice", fact_id, "--json"))["events"]
    assert events[-1]["action"] == "retired"
    assert events[-1]["after"]["reason"] == "asked to forget"
    assert_one_line_error(somna("facts", "delete", "alice", fact_id), 2, "already retired")


# -- conflicts ------------------------------------------------------------------------


def _contradiction(somna: Invoke) -> dict[str, Any]:
    """Two contradicting facts; returns the conflict they open (fact_a_id, fact_b_id, id…)."""
    veggie = add(somna, "Is vegetarian.")["fact"]["id"]
    meat = add(somna, "Eats meat every day.")["fact"]["id"]
    outcome = data(somna("facts", "resolve", "alice", meat, veggie, "contradicts", "--json"))
    assert {outcome["conflict"]["fact_a_id"], outcome["conflict"]["fact_b_id"]} == {meat, veggie}
    conflict: dict[str, Any] = outcome["conflict"]
    return conflict


def test_conflict_flow(somna: Invoke, alice: str) -> None:
    opened = _contradiction(somna)
    conflict, a, b = opened["id"], opened["fact_a_id"], opened["fact_b_id"]
    listing = ok(somna("conflicts", "list", "alice")).stdout
    for shown in (conflict, a, b, "Is vegetarian.", "Eats meat every day.", "disputed"):
        assert shown in listing
    resolved = ok(somna("conflicts", "resolve", "alice", conflict, "a_true"))
    assert f"Conflict {conflict} resolved as a_true." in resolved.stdout
    assert ok(somna("conflicts", "list", "alice")).stdout == "No open conflicts.\n"
    assert data(somna("conflicts", "list", "alice", "--json")) == []
    settled = data(somna("conflicts", "list", "alice", "--status", "resolved", "--json"))
    assert [(c["conflict"]["id"], c["conflict"]["resolution"]) for c in settled] == [
        (conflict, "a_true")
    ]
    assert [f["id"] for f in data(somna("facts", "list", "alice", "--json"))] == [a]
    assert data(somna("facts", "show", "alice", b, "--json"))["status"] == "retired"


def test_conflict_corrected_stores_the_correction(somna: Invoke, alice: str) -> None:
    conflict = _contradiction(somna)["id"]
    assert_one_line_error(
        somna("conflicts", "resolve", "alice", conflict, "corrected"), 2, "correction"
    )
    pair = data(
        somna(
            "conflicts",
            *("resolve", "alice", conflict, "corrected"),
            *("--correction", "Eats fish but no other meat.", "--json"),
        )
    )
    assert pair["correction"]["text"] == "Eats fish but no other meat."
    texts = [f["text"] for f in data(somna("facts", "list", "alice", "--json"))]
    assert texts == ["Eats fish but no other meat."]


def test_conflict_defer_moves_it_out_of_the_open_list(somna: Invoke, alice: str) -> None:
    conflict = _contradiction(somna)["id"]
    assert "deferred until" in ok(somna("conflicts", "resolve", "alice", conflict, "defer")).stdout
    assert data(somna("conflicts", "list", "alice", "--json")) == []
    deferred = data(somna("conflicts", "list", "alice", "--status", "deferred", "--json"))
    assert [c["conflict"]["id"] for c in deferred] == [conflict]


def test_unknown_conflict_exits_2(somna: Invoke, alice: str) -> None:
    result = somna("conflicts", "resolve", "alice", "cfl_NOPE", "a_true")
    assert_one_line_error(result, 2, "no conflict with id 'cfl_NOPE'")


# -- search ---------------------------------------------------------------------------


def test_search_ranks_the_relevant_fact_first(somna: Invoke, alice: str) -> None:
    add(somna, "Works as a data engineer at Acme.")
    tea = add(somna, "Prefers tea to coffee.")["fact"]["id"]
    hits = data(somna("search", "alice", "what does she drink? tea", "--k", "1", "--json"))
    assert [hit["fact"]["id"] for hit in hits] == [tea]
    assert set(hits[0]) == {"fact", "score", "text_rank", "vector_rank", "similarity"}
    table = ok(somna("search", "alice", "tea")).stdout
    for column in ("rank", "score", "text rank", "vector rank", "similarity", "date"):
        assert column in table
    assert "Prefers tea to coffee." in table


def test_search_as_of_finds_what_was_true_then(somna: Invoke, alice: str) -> None:
    paris = add(somna, "Lives in Paris.", "--valid-from", "2021-09-01")["fact"]["id"]
    berlin = add(somna, "Lives in Berlin.", "--valid-from", "2025-03-01")["fact"]["id"]
    ok(somna("facts", "resolve", "alice", berlin, paris, "supersedes"))
    query = ("search", "alice", "where does she live?", "--json")
    assert data(somna(*query))[0]["fact"]["id"] == berlin
    assert data(somna(*query, "--as-of", "2022-06-01"))[0]["fact"]["id"] == paris


def test_search_with_empty_query_exits_2(somna: Invoke, alice: str) -> None:
    assert_one_line_error(somna("search", "alice", "  "), 2, "query")


# -- output ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["profiles"],
        ["profiles", "list"],
        ["facts", "list", "alice"],
        ["facts", "show", "alice", "{fact}"],
        ["facts", "history", "alice", "{fact}"],
        ["conflicts", "list", "alice"],
        ["search", "alice", "tea"],
    ],
    ids=" ".join,
)
def test_json_output_is_parseable(somna: Invoke, alice: str, command: list[str]) -> None:
    fact_id = add(somna, "Prefers tea to coffee.", "--quote", "I love tea")["fact"]["id"]
    _contradiction(somna)
    args = [part.replace("{fact}", fact_id) for part in command]
    parsed = data(somna(*args, "--json"))
    assert parsed
    assert somna(*args, "--json").stderr == ""


def test_narrow_terminal_keeps_ids_whole(somna: Invoke, alice: str) -> None:
    fact_id = add(somna, "Works as a data engineer at a large logistics company in Lyon.")
    listing = ok(somna("facts", "list", "alice", columns=60)).stdout
    assert fact_id["fact"]["id"] in listing
    assert max(len(line) for line in listing.splitlines()) <= 60
    assert "unverified" in listing


def test_markup_in_fact_text_is_printed_verbatim(somna: Invoke, alice: str) -> None:
    add(somna, "Writes notes with [bold] tags.")
    assert "Writes notes with [bold] tags." in ok(somna("facts", "list", "alice")).stdout


# -- errors ---------------------------------------------------------------------------


def test_unknown_fact_id_exits_2_with_one_line(somna: Invoke, alice: str) -> None:
    for command in ("show", "history", "delete"):
        result = somna("facts", command, "alice", "fct_NOPE")
        assert_one_line_error(result, 2, "Profile 'alice' has no fact with id 'fct_NOPE'.")


def test_empty_text_exits_2_and_writes_nothing(somna: Invoke, alice: str, stored: Memory) -> None:
    before = stored.list_facts("alice", status=EVERY_STATUS)
    assert_one_line_error(somna("facts", "add", "alice", "   "), 2, "must not be empty")
    assert stored.list_facts("alice", status=EVERY_STATUS) == before == []


def test_bad_date_exits_2(somna: Invoke, alice: str, stored: Memory) -> None:
    result = somna("facts", "add", "alice", "Lives in Rome.", "--valid-from", "2026-13-01")
    assert result.exit_code == 2
    assert "'2026-13-01' is not a date" in result.stderr
    assert stored.list_facts("alice", status=EVERY_STATUS) == []
    assert somna("facts", "list", "alice", "--as-of", "yesterday").exit_code == 2


def test_configuration_error_exits_1() -> None:
    result = CliRunner().invoke(app, ["profiles", "--db", "postgres://db.example/somna"])
    assert_one_line_error(result, 1, "Postgres")


def test_a_libpq_keyword_value_database_is_a_server_not_a_file_named_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    db = "host=127.0.0.1 port=1 dbname=somna user=somna"
    result = CliRunner().invoke(app, ["profiles", "--db", db])
    assert_one_line_error(result, 1, "Cannot open the Postgres database")
    assert list(tmp_path.iterdir()) == []


def test_a_folder_given_as_the_database_exits_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["init", "--db", str(tmp_path)])
    assert_one_line_error(result, 2, f"The database '{tmp_path}' is a folder")


def test_db_option_beats_somna_db_and_command_beats_global(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOMNA_DB", str(tmp_path / "env.db"))
    runner = CliRunner()
    ok(runner.invoke(app, ["init"]))
    ok(runner.invoke(app, ["--db", str(tmp_path / "global.db"), "init"]))
    ok(runner.invoke(app, ["--db", str(tmp_path / "global.db"), "init", "--db", "cmd.db"]))
    ok(runner.invoke(app, ["profiles", "--db", "group.db", "create", "alice"]))
    assert sorted(p.name for p in tmp_path.glob("*.db")) == [
        "cmd.db",
        "env.db",
        "global.db",
        "group.db",
    ]


# -- demo, help, entry points ---------------------------------------------------------


def _command_paths(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    yield path
    for name, sub in getattr(command, "commands", {}).items():
        yield from _command_paths(sub, (*path, name))


@pytest.mark.slow  # renders the help of every command
def test_every_command_has_help_with_example() -> None:
    paths = list(_command_paths(typer.main.get_command(app)))
    assert {
        ("facts", "add"),
        ("conflicts", "resolve"),
        ("profiles", "create"),
        ("ingest",),
        ("consolidate",),
        ("runs",),
        ("summaries",),
        ("schedule",),
        ("demo",),
    } <= set(paths)
    for path in paths:
        result = ok(CliRunner().invoke(app, [*path, "--help"]))
        assert "Example:" in result.stdout, path
        assert "\n     somna " in result.stdout, f"{path}: the example lost its indentation"


def test_version() -> None:
    assert ok(CliRunner().invoke(app, ["--version"])).stdout == "somna 0.1.0\n"


@pytest.mark.slow  # a subprocess
def test_python_dash_m_runs_the_cli(tmp_path: Path) -> None:
    src = Path(__file__).resolve().parents[3] / "src"
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, "-m", "somna.interfaces.cli", "--help"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Usage: somna" in done.stdout
