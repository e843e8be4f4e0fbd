"""`evaluate_locomo` end to end on the tiny conversation of conftest.py, scored by hand.

The real `Memory`: SQLite under tmp_path, the bundled embedder, the rules extractor.
Every fact of the tiny conversation fits in the first 10 results, so
recall@10 is known by hand (see conftest.py); at k = 5 only what the ranking cannot
change is asserted.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from somna.config import Settings
from somna.embed import BundledEmbedder
from somna.errors import InvalidInputError
from somna.evaluation import LocomoReport, evaluate_locomo, read_locomo_questions
from somna.memory import Memory

pytestmark = pytest.mark.slow  # a LoCoMo evaluation

FACT_TURNS = {"D1:1", "D1:3", "D2:1", "D2:3", "D3:1"}
RECALL_AT_10 = {0: 1.0, 1: 1.0, 2: 0.5, 3: 0.0, 4: 1.0}
"""Question number: share of its evidence turns among FACT_TURNS."""


@pytest.fixture
def memory(tmp_path: Path, embedder: BundledEmbedder) -> Iterator[Memory]:
    opened = Memory(settings=Settings(db=str(tmp_path / "eval.db")), embedder=embedder)
    yield opened
    opened.close()


@pytest.fixture
def report(memory: Memory, tiny_locomo: Path) -> LocomoReport:
    return evaluate_locomo(memory, [tiny_locomo])


def test_recall_at_10_is_the_hand_computed_share_of_evidence_turns(report: LocomoReport) -> None:
    scored = {q.number: q.evidence_recall[10] for q in report.questions if q.evidence}
    assert scored == RECALL_AT_10
    assert report.overall.evidence_recall[10] == pytest.approx(3.5 / 5)
    assert {c: g.evidence_recall[10] for c, g in report.by_category.items()} == {
        1: 0.5,
        2: 1.0,
        3: 0.0,
        4: 1.0,
    }
    assert report.overall.coverage == pytest.approx(0.7)
    assert all(q.expired_evidence == [] for q in report.questions)


def test_every_evidence_session_is_behind_the_first_10_results(report: LocomoReport) -> None:
    assert report.overall.session_recall[10] == 1.0
    assert all(q.session_recall[10] == 1.0 for q in report.questions if q.evidence)


def test_recall_at_5_never_beats_recall_at_10(report: LocomoReport) -> None:
    for question in report.questions:
        for recall in (question.evidence_recall, question.session_recall):
            assert recall.get(5, 0.0) <= recall.get(10, 0.0)
    by_number = {q.number: q for q in report.questions}
    assert by_number[3].evidence_recall[5] == 0.0  # its turn gave no fact
    assert by_number[2].evidence_recall[5] <= 0.5  # one of its two turns gave no fact


def test_recalled_facts_are_traced_to_the_turns_they_quote(report: LocomoReport) -> None:
    first = report.questions[0]
    facts = [item for item in first.recalled if item.kind == "fact"]
    summaries = [item for item in first.recalled if item.kind == "summary"]
    assert {turn for item in facts for turn in item.turns} == FACT_TURNS
    assert all(len(item.turns) == 1 for item in facts)
    assert len(summaries) == 1  # one result in ten at most is a summary
    assert [item.rank for item in first.recalled] == list(range(1, len(first.recalled) + 1))


def test_a_day_digest_stands_for_the_sessions_of_its_day(
    tmp_path: Path, embedder: BundledEmbedder, tiny_locomo: Path
) -> None:
    with Memory(settings=Settings(db=str(tmp_path / "wide.db")), embedder=embedder) as memory:
        report = evaluate_locomo(memory, [tiny_locomo], k_values=[40])
    days = [item for q in report.questions for item in q.recalled if item.summary_kind == "day"]
    assert days
    assert all(item.sessions == ["session_1", "session_2"] for item in days)


def test_malformed_and_unknown_evidence_ids_are_normalized(report: LocomoReport) -> None:
    by_number = {q.number: q for q in report.questions}
    assert by_number[2].evidence == ["D2:3", "D2:4"]
    assert by_number[2].covered_evidence == ["D2:3"]
    assert by_number[4].evidence == ["D1:3"]
    assert by_number[4].unknown_evidence == ["D9:9"]


def test_questions_without_evidence_are_asked_but_not_scored(report: LocomoReport) -> None:
    by_number = {q.number: q for q in report.questions}
    assert sorted(by_number) == [0, 1, 2, 3, 4, 6]  # 5 is adversarial: not asked by default
    assert by_number[6].evidence_recall == {} and by_number[6].session_recall == {}
    assert report.by_category[2].questions == 2 and report.by_category[2].scored == 1
    assert (report.overall.questions, report.overall.scored) == (6, 5)


def test_memory_holds_the_known_facts_and_summaries(report: LocomoReport) -> None:
    (conversation,) = report.conversations
    assert conversation.profile == "locomo-tiny"
    assert (conversation.sessions, conversation.turns, conversation.questions) == (3, 12, 6)
    assert (conversation.facts_active, conversation.facts_stored) == (5, 5)
    assert conversation.session_summaries == 3 and conversation.day_digests >= 1
    assert conversation.facts_per_turn == round(5 / 12, 4)
    assert conversation.consolidation is not None
    assert conversation.consolidation.llm == "rules"
    assert conversation.consolidation.sessions == 3


def test_tokens_and_latency_are_measured_per_question(report: LocomoReport) -> None:
    assert all(q.context_tokens > 0 and q.latency_ms > 0 for q in report.questions)
    assert report.context_tokens.count == report.latency_ms.count == 6
    assert report.latency_ms.p50 is not None and report.latency_ms.p95 is not None
    assert report.latency_ms.p50 <= report.latency_ms.p95 <= (report.latency_ms.max or 0)


def _figures(report: LocomoReport) -> dict[str, Any]:
    """Everything but timings, ids and the last digits of scores."""
    data = report.model_dump(mode="json")
    for question in data["questions"]:
        question.pop("latency_ms")
        for item in question["recalled"]:
            item.pop("id")
            item.pop("score")
    for conversation in data["conversations"]:
        conversation.pop("path")
        conversation["consolidation"].pop("seconds")
    data.pop("latency_ms")
    return data


def test_evidence_lost_to_a_category_ttl_is_reported(
    tmp_path: Path, embedder: BundledEmbedder, tiny_locomo: Path
) -> None:
    # Consolidation runs a day after the last session (15 June): with a one-day TTL,
    # the preference said on 8 May has expired, and question 0 loses its evidence.
    settings = Settings(db=str(tmp_path / "ttl.db"), ttl_days={"preference": 1.0})
    with Memory(settings=settings, embedder=embedder) as memory:
        report = evaluate_locomo(memory, [tiny_locomo])
    first = report.questions[0]
    assert (first.covered_evidence, first.expired_evidence) == ([], ["D1:1"])
    assert first.evidence_recall == {5: 0.0, 10: 0.0}
    assert report.conversations[0].facts_expired == 1
    assert report.by_category[4].expired == pytest.approx(0.5)  # question 0 of 0 and 4
    assert report.conversations[0].facts_active == 4


def test_two_runs_on_fresh_databases_give_the_same_figures(
    tmp_path: Path, embedder: BundledEmbedder, tiny_locomo: Path
) -> None:
    runs = []
    for name in ("a", "b"):
        with Memory(settings=Settings(db=str(tmp_path / f"{name}.db")), embedder=embedder) as m:
            runs.append(_figures(evaluate_locomo(m, [tiny_locomo])))
    assert runs[0] == runs[1]


def test_the_report_round_trips_through_json(report: LocomoReport) -> None:
    again = LocomoReport.model_validate_json(report.model_dump_json())
    assert again == report
    assert json.loads(report.model_dump_json())["overall"]["evidence_recall"]["10"] == 0.7


def test_categories_choose_the_questions_asked(memory: Memory, tiny_locomo: Path) -> None:
    report = evaluate_locomo(memory, [tiny_locomo], k_values=[3], categories=[5])
    assert [q.number for q in report.questions] == [5]
    assert list(report.by_category) == [5] and report.k_values == [3]
    assert len(report.questions[0].recalled) == 3


def test_a_second_run_on_the_same_database_reports_what_it_skipped(
    memory: Memory, tiny_locomo: Path
) -> None:
    evaluate_locomo(memory, [tiny_locomo])
    again = evaluate_locomo(memory, [tiny_locomo])
    (conversation,) = again.conversations
    assert conversation.sessions_already_stored == 3
    assert conversation.consolidation is not None and conversation.consolidation.sessions == 0
    assert conversation.facts_active == 5


def test_without_consolidation_nothing_is_recalled(memory: Memory, tiny_locomo: Path) -> None:
    report = evaluate_locomo(memory, [tiny_locomo], consolidate=False)
    assert report.conversations[0].consolidation is None
    assert report.conversations[0].facts_active == 0
    assert report.overall.evidence_recall == {5: 0.0, 10: 0.0}
    assert report.overall.session_recall == {5: 0.0, 10: 0.0}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"k_values": [0]}, "at least 1"),
        ({"k_values": []}, "at least one k"),
        ({"categories": [7]}, "categories are 1, 2, 3, 4, 5"),
        ({"categories": []}, "categories are"),
    ],
)
def test_bad_settings_are_refused(
    memory: Memory, tiny_locomo: Path, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidInputError, match=message):
        evaluate_locomo(memory, [tiny_locomo], **options)


def test_files_that_would_share_a_profile_are_refused(
    memory: Memory, tiny_locomo: Path, tmp_path: Path
) -> None:
    twin = tmp_path / "other" / "tiny.json"
    twin.parent.mkdir()
    twin.write_text(tiny_locomo.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(InvalidInputError, match="both be profile 'locomo-tiny'"):
        evaluate_locomo(memory, [tiny_locomo, twin])
    with pytest.raises(InvalidInputError, match="at least one"):
        evaluate_locomo(memory, [])


def test_a_file_that_is_not_locomo_is_refused_before_anything_is_written(
    memory: Memory, tiny_locomo: Path, tmp_path: Path
) -> None:
    path = tmp_path / "chat.json"
    path.write_text('{"messages": []}', encoding="utf-8")
    with pytest.raises(InvalidInputError, match="not a LoCoMo conversation file"):
        evaluate_locomo(memory, [tiny_locomo, path])
    assert memory.list_profiles() == []


def test_a_conversation_without_questions_is_refused(
    memory: Memory, tiny_locomo: Path, tmp_path: Path
) -> None:
    data = json.loads(tiny_locomo.read_text(encoding="utf-8"))
    del data["qa"]
    path = tmp_path / "mute.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InvalidInputError, match="has no LoCoMo questions"):
        evaluate_locomo(memory, [path])


def test_read_locomo_questions_keeps_file_order_and_normalizes(tiny_locomo: Path) -> None:
    questions = read_locomo_questions(tiny_locomo)
    assert [q.number for q in questions] == list(range(7))
    assert questions[2].evidence == ("D2:3", "D2:4")
    assert questions[5].answer is None  # adversarial questions have no `answer`
    assert questions[6].answer == "2022" and questions[6].evidence == ()


def test_the_raw_turn_baseline_is_scored_beside_memory(memory: Memory, tiny_locomo: Path) -> None:
    report = evaluate_locomo(memory, [tiny_locomo], k_values=[1, 20], baseline=True)
    scored = [q for q in report.questions if q.evidence]
    # Twelve turns: the first 20 turns are all of them, so the index finds every evidence turn.
    assert all(q.baseline_recall[20] == 1.0 for q in scored)
    assert report.overall.baseline_recall[20] == 1.0
    assert all(q.baseline_recall[1] in {0.0, 0.5, 1.0} for q in scored)
    (conversation,) = report.conversations
    assert conversation.figures is not None
    assert conversation.figures.baseline_recall == report.overall.baseline_recall


def test_without_the_baseline_no_baseline_figures(report: LocomoReport) -> None:
    assert report.overall.baseline_recall == {}
    assert all(q.baseline_recall == {} for q in report.questions)


def test_extraction_is_measured_against_the_reference_observations(
    memory: Memory, tiny_locomo: Path
) -> None:
    data = json.loads(tiny_locomo.read_text(encoding="utf-8"))
    data["session_1_observation"] = {
        "Ann": [["Ann loves hiking.", "D1:1"], ["Ann works as a nurse.", "D1:3"]],
        "Ben": [["Ben asks about weekends.", "D1:2"]],
    }
    data["session_3_observation"] = {"Ben": [["Ben mentions the weather.", ["D3:4"]]]}
    tiny_locomo.write_text(json.dumps(data), encoding="utf-8")
    (conversation,) = evaluate_locomo(memory, [tiny_locomo]).conversations
    assert conversation.observations == 4
    assert conversation.observation_recall == pytest.approx(2 / 4)  # D1:1 and D1:3 gave facts
    assert conversation.items_per_turn == round(5 / 12, 4)


def test_context_blocks_are_measured(report: LocomoReport) -> None:
    assert report.overall.context_facts is not None
    assert 0 < report.overall.context_facts <= 5
    first = report.questions[0]  # "What does Ann love doing in the mountains?"
    assert first.context_evidence and first.context_facts >= 1
    assert report.overall.context_with_evidence == pytest.approx(
        sum(q.context_evidence for q in report.questions if q.evidence) / 5
    )


def test_every_stored_fact_is_counted_under_the_rule_that_made_it(report: LocomoReport) -> None:
    (conversation,) = report.conversations
    assert sum(r.items for r in conversation.rules.values()) == conversation.facts_stored
    assert conversation.rules["observation"].items == 4  # see conftest.py
