"""Client-memory scenarios: reading the files, the scoring arithmetic, and `somna eval scenarios`.

The two scenario files under `scenarios/` (one English, one French, people and firms
made up for these tests) and `scenario_translations.json` back the evaluation and CLI
tests; the arithmetic is checked on a scenario and observations built by hand.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from somna.config import Settings
from somna.embed import BundledEmbedder
from somna.errors import InvalidInputError
from somna.evaluation import (
    Asked,
    Observed,
    Scenario,
    ScenarioFigures,
    evaluate_scenarios,
    matches,
    read_scenarios,
    read_translations,
    scenario_questions,
    score_scenario,
)
from somna.interfaces.cli.evaluate import app
from somna.interfaces.cli.options import CliState
from somna.memory import Memory

HERE = Path(__file__).parent
FOLDER = HERE / "scenarios"
ENGLISH = FOLDER / "test-en-01.json"
FRENCH = FOLDER / "test-fr-01.json"
TRANSLATIONS = HERE / "scenario_translations.json"

Invoke = Callable[..., Result]


def _message(content: str, at: str = "2025-01-06T10:00:00Z", role: str = "user") -> dict[str, str]:
    return {"role": role, "content": content, "at": at}


def _scenario(**fields: Any) -> dict[str, Any]:
    """A valid scenario as JSON data, with `fields` put over it."""
    data: dict[str, Any] = {
        "id": "hand-en-01",
        "language": "en",
        "sessions": [{"key": "s1", "messages": [_message("I'm Ada, I keep bees in Galway.")]}],
    }
    return {**data, **fields}


HAND = Scenario.model_validate(
    _scenario(
        facts=[
            {"id": "f1", "keywords": [["ada"]]},
            {"id": "f2", "keywords": [["hives", "beehives"], ["12", "twelve"]]},
            {"id": "f3", "keywords": [["galway"]]},
            {"id": "f4", "keywords": [["honey"], ["jar"]]},
        ],
        outdated=[
            {"id": "o1", "keywords": [["9 hives", "nine hives"]]},
            {"id": "o2", "keywords": [["york"]]},
        ],
        conflicts=[
            {"id": "c1", "a_keywords": [["no sugar"]], "b_keywords": [["fondant"]]},
            {"id": "c2", "a_keywords": [["organic"]], "b_keywords": [["pesticide"]]},
        ],
        questions=[
            {
                "q": "How many hives?",
                "answer_keywords": [["12"], ["hives"]],
                "not_keywords": [["9 hives"]],
            },
            {"q": "Where and how many?", "answer_keywords": [["galway"], ["12 hives"]]},
            {"q": "What jars?", "answer_keywords": [["jar"]], "not_keywords": [["plastic"]]},
        ],
        unrelated_questions=["How do I tune a cello?", "Best pizza dough?"],
    )
)


def test_a_keyword_list_matches_when_every_group_has_an_alternative() -> None:
    assert matches([["15", "fifteen"], ["seat"]], "Needs FIFTEEN Seats.")
    assert not matches([["15", "fifteen"], ["seat"]], "Needs fifteen chairs.")
    assert not matches([["décembre"]], "until decembre")  # accents are kept
    assert matches([], "anything")  # no group: nothing to miss


def test_score_counts_each_gold_item_against_what_the_profile_held() -> None:
    observed = Observed(
        active=[
            "Ada keeps 12 hives.",
            "Lives in Galway.",
            "Used to keep 9 hives.",  # the outdated value, still active
            "Feeds no sugar to her bees.",
            "Always answer in English.",
        ],
        conflicts=[("Gives fondant in winter.", "Feeds no sugar to her bees.")],  # b, a
        questions=[
            Asked("How many hives?", ["Ada keeps 12 hives.", "Used to keep 9 hives."]),
            # the answer's groups are met by two facts together: the block counts joined
            Asked("Where and how many?", ["Lives in Galway.", "Ada keeps 12 hives."]),
            Asked("What jars?", ["Always answer in English."]),
        ],
        unrelated=[
            Asked("How do I tune a cello?", ["Always answer in English."]),
            Asked("Best pizza dough?", ["Always answer in English.", "Lives in Galway."]),
        ],
        client_messages=4,
        standing=frozenset({"Always answer in English."}),
    )
    result = score_scenario(HAND, "p", observed)
    figures = result.figures
    assert result.facts_missed == ["f4"]
    assert (figures.facts, figures.recalled, figures.fact_recall) == (4, 3, 0.75)
    assert result.outdated_active == ["o1"] and figures.outdated_still_active == 0.5
    assert result.conflicts_flagged == ["c1"] and figures.conflicts_flagged == 0.5
    assert [q.answer_in_context for q in result.questions] == [True, True, False]
    assert [q.stale_in_context for q in result.questions] == [True, None, False]
    assert (figures.answered, figures.answer_in_context) == (2, 0.6667)
    assert (figures.stale_checked, figures.stale, figures.stale_in_context) == (2, 1, 0.5)
    # the standing instruction opens every block: it is not a fact a question brought
    assert [u.left_empty for u in result.unrelated] == [True, False]
    assert result.unrelated[1].facts == ["Lives in Galway."]
    assert figures.unrelated_left_empty == 0.5
    assert figures.block_facts == 4 and figures.facts_per_block == 1.3333
    assert figures.items == 5 and figures.items_per_message == 1.25


def test_group_figures_are_read_from_the_summed_counts() -> None:
    one = ScenarioFigures(scenarios=1, facts=10, recalled=9, questions=1, answered=1)
    other = ScenarioFigures(scenarios=1, facts=2, recalled=0, questions=3, answered=0)
    total = ScenarioFigures.total([one, other])
    assert (total.scenarios, total.facts, total.recalled) == (2, 12, 9)
    assert total.fact_recall == 0.75  # not the mean of 0.9 and 0.0
    assert total.answer_in_context == 0.25
    assert total.conflicts_flagged is None and total.stale_in_context is None
    dumped = total.model_dump()
    assert dumped["fact_recall"] == 0.75 and dumped["unrelated_left_empty"] is None


def test_a_folder_gives_its_scenarios_in_file_order() -> None:
    scenarios = read_scenarios([FOLDER])
    assert [s.id for s in scenarios] == ["test-en-01", "test-fr-01"]
    english = scenarios[0]
    assert english.client_messages == 6 and len(english.sessions) == 2
    assert english.path == str(ENGLISH)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"language": "de"}, "in 'language': Input should be 'en' or 'fr'"),
        ({"sessions": []}, "in 'sessions': List should have at least 1 item"),
        (
            {"questions": [{"q": "Why?", "answer_keywords": [["x"], []]}]},
            "in 'questions[0].answer_keywords[1]': List should have at least 1 item",
        ),
        (
            {"sessions": [{"key": "s1", "messages": [_message("Hi.", at="2025-01-06T10:00")]}]},
            "in 'sessions[0].messages[0].at': Input should have timezone info",
        ),
        (
            {"unrelated_questions": ["A?"], "unrelated_questions_other": []},
            "unrelated_questions_other must list as many as unrelated_questions",
        ),
    ],
)
def test_a_bad_scenario_is_refused_naming_the_file_and_the_field(
    tmp_path: Path, data: dict[str, Any], expected: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_scenario(**data)), encoding="utf-8")
    with pytest.raises(InvalidInputError) as caught:
        read_scenarios([path])
    assert str(caught.value).startswith(f"{path} is not a valid scenario")
    assert expected in str(caught.value)


def test_files_that_are_not_scenarios_are_refused(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"id": ', encoding="utf-8")
    with pytest.raises(InvalidInputError, match=r"broken\.json is not a JSON file"):
        read_scenarios([broken])
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InvalidInputError, match="holds no scenario file"):
        read_scenarios([empty])
    twin = tmp_path / "twin.json"
    twin.write_text(ENGLISH.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(InvalidInputError, match="both hold scenario 'test-en-01'"):
        read_scenarios([ENGLISH, twin])


def test_questions_in_the_other_language_come_from_the_file_then_the_table() -> None:
    english, french = read_scenarios([ENGLISH, FRENCH])
    assert scenario_questions(french, "same")[0][0].startswith("Combien de sacs")
    asked, unrelated = scenario_questions(english, "other")
    assert asked[0] == "Larkfield a besoin de combien de bureaux debout ?"
    assert unrelated == ["Comment enlever la rouille d'un sécateur ?"]
    table = read_translations(TRANSLATIONS)
    asked, unrelated = scenario_questions(french, "other", table)
    assert asked == [
        "How many bags of flour does Maëlle order each month?",
        "When should we call Maëlle?",
    ]  # the second from its q_other
    assert unrelated == ["When is the best season to plant tulips?"]
    with pytest.raises(InvalidInputError, match="no translation of the question 'Combien de"):
        scenario_questions(french, "other")


def test_a_translation_table_must_map_questions_to_texts(tmp_path: Path) -> None:
    path = tmp_path / "tr.json"
    path.write_text('{"Why?": 3}', encoding="utf-8")
    with pytest.raises(InvalidInputError, match="is not a translation table"):
        read_translations(path)


@pytest.mark.slow  # consolidates two scenarios
def test_each_session_is_consolidated_and_the_baseline_holds_every_client_sentence(
    tmp_path: Path, embedder: BundledEmbedder
) -> None:
    scenarios = read_scenarios([FOLDER])
    lines: list[str] = []
    with Memory(settings=Settings.load(db=str(tmp_path / "s.db")), embedder=embedder) as memory:
        report = evaluate_scenarios(memory, scenarios, baseline=True, progress=lines.append)
        english = report.scenarios[0]
        assert english.consolidation.sessions == 2 and english.consolidation.llm == "rules"
        sessions = memory.sessions("scenario-test-en-01")
        assert len(sessions) == 2 and all(s.consolidated_at is not None for s in sessions)
        # the one two-sentence client message became two facts, the others one each
        turns = memory.list_facts("scenario-test-en-01-turns")
        assert len(turns) == 7
        assert "A suede finish on the chair arms would be great." in {f.text for f in turns}
        assert english.baseline is not None and english.baseline.figures.items == 7
        with pytest.raises(InvalidInputError, match="already holds the profile"):
            evaluate_scenarios(memory, scenarios)
    assert lines[0].startswith("test-en-01: 2 sessions consolidated")
    assert list(report.by_language) == ["en", "fr"]
    overall = report.overall
    assert overall.memory.scenarios == 2 and overall.memory.questions == 5
    assert overall.baseline is not None and overall.baseline.client_messages == 11
    assert overall.memory.facts == 11 and overall.memory.unrelated == 2
    assert all(len(q.facts) <= 5 for s in report.scenarios for q in s.memory.questions)


def test_a_scenario_that_ends_after_now_is_refused(
    tmp_path: Path, embedder: BundledEmbedder
) -> None:
    late = Scenario.model_validate(
        _scenario(
            sessions=[{"key": "s1", "messages": [_message("Hi.", at="2999-01-01T10:00:00Z")]}]
        )
    )
    with Memory(settings=Settings.load(db=str(tmp_path / "s.db")), embedder=embedder) as memory:
        with pytest.raises(InvalidInputError, match="ends after now"):
            evaluate_scenarios(memory, [late])
        assert memory.list_profiles() == []


# -- the command -----------------------------------------------------------------------


@pytest.fixture
def somna_eval(tmp_path: Path, embedder: BundledEmbedder) -> Invoke:
    """`somna eval ARGS… --db <tmp>/eval.db` with the shared embedder, 80 columns wide."""
    runner = CliRunner()

    def invoke(*args: str) -> Result:
        state = CliState(memory_factory=lambda s: Memory(settings=s, embedder=embedder))
        return runner.invoke(
            app, [*args, "--db", str(tmp_path / "eval.db")], obj=state, env={"COLUMNS": "80"}
        )

    return invoke


def _fits(tables: str, width: int = 80) -> None:
    """Every line within `width`, no cell cut short."""
    assert "…" not in tables
    assert max(len(line) for line in tables.splitlines()) <= width


@pytest.mark.slow  # consolidates two scenarios
def test_eval_scenarios_prints_tables_that_fit_80_columns_and_writes_json(
    somna_eval: Invoke, tmp_path: Path
) -> None:
    out = tmp_path / "report.json"
    result = somna_eval("scenarios", str(FOLDER), "--baseline", "turns", "--json", str(out))
    assert result.exit_code == 0, result.output
    text = result.stdout
    _fits(text.split("\n2 scenarios, 5 questions")[0])  # the lines after wrap as prose
    assert "Client memory by language" in text and "By scenario" in text
    rows = {line.split("  ")[0]: line.split() for line in text.splitlines() if line.strip()}
    assert rows["scenarios"][-6:] == ["1", "1", "1", "1", "2", "2"]  # en, fr, all; memory, turns
    assert rows["questions"][-2:] == ["5", "5"]
    for measure in (
        "fact recall",
        "outdated still active",
        "answer in context",
        "unrelated left empty",
        "items per message",
    ):
        assert measure in rows
    assert "test-fr-01" in text and "  turns" in text
    assert f"Full report written to {out}." in text
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["ask_in"] == "same" and report["llm"] == "rules"
    assert set(report["by_language"]) == {"en", "fr"}
    assert report["overall"]["baseline"]["items"] == 12
    first = report["scenarios"][0]["memory"]["questions"][0]
    assert first["question"] == "How many standing desks does Larkfield need?"
    assert set(first) == {"question", "facts", "answer_in_context", "stale_in_context"}


@pytest.mark.slow  # consolidates two scenarios
def test_ask_in_other_reports_each_direction_with_the_translations(somna_eval: Invoke) -> None:
    result = somna_eval(
        "scenarios",
        str(FOLDER),
        "--ask-in",
        "other",
        "--translations",
        str(TRANSLATIONS),
        "--json",
        "-",
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ask_in"] == "other"
    assert report["by_language"]["en"]["label"] == "fr questions over en conversations"
    assert report["by_language"]["fr"]["label"] == "en questions over fr conversations"
    french = report["scenarios"][1]["memory"]
    assert (
        french["questions"][0]["question"] == "How many bags of flour does Maëlle order each month?"
    )
    assert french["unrelated"][0]["question"] == "When is the best season to plant tulips?"


def test_ask_in_other_without_a_translation_fails_in_one_line(somna_eval: Invoke) -> None:
    result = somna_eval("scenarios", str(FRENCH), "--ask-in", "other")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "Error: Scenario 'test-fr-01' gives no translation of the question 'Combien de sacs de "
        "farine commande Maëlle par mois ?', and the translation table has none either."
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--baseline", "facts"], "the only baseline is 'turns', not 'facts'."),
        (["--ask-in", "both"], "ask questions in 'same' or 'other', not 'both'."),
        (["--translations", str(TRANSLATIONS)], "translations are read only with --ask-in other."),
    ],
)
def test_bad_options_exit_2(somna_eval: Invoke, args: list[str], message: str) -> None:
    result = somna_eval("scenarios", str(ENGLISH), *args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.replace("│", " ").split())  # boxed, wrapped


def test_a_bad_file_exits_2_with_one_readable_line(somna_eval: Invoke, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_scenario(language="it")), encoding="utf-8")
    result = somna_eval("scenarios", str(ENGLISH), str(bad))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"Error: {bad} is not a valid scenario in 'language': Input should be 'en' or 'fr'."
    ]
    assert result.stdout == ""


def test_the_baseline_stores_a_message_whole_or_sentence_by_sentence() -> None:
    from somna.evaluation.scenarios import _as_facts

    assert _as_facts("We need 3 desks, thanks!") == ["We need 3 desks, thanks!"]
    assert _as_facts("Hello there. We need 3 desks!") == ["Hello there.", "We need 3 desks!"]
    assert _as_facts("Hello there\nwe need desks") == ["Hello there we need desks"]
    assert _as_facts("Thanks. Bye! !") == ["Thanks.", "Bye!"]  # a lone "!" says nothing
    long = _as_facts("word " * 300 + "end. Bye.")
    assert long[-2:] == ["end.", "Bye."] and all(len(piece) <= 500 for piece in long)
    assert " ".join(long[:-1]) == "word " * 300 + "end."
