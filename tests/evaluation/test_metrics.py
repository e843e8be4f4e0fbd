"""The arithmetic of an evaluation, on hand-made rankings."""

from __future__ import annotations

import pytest

from somna.evaluation import mean, normalize_dia_ids, percentile, recall_at_k


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (["D1:3"], ["D1:3"]),
        (["D8:6; D9:17"], ["D8:6", "D9:17"]),
        (["D1:3,D1:5"], ["D1:3", "D1:5"]),
        ([" D2 : 5 "], ["D2:5"]),
        (["d02:05"], ["D2:5"]),
        (["D:11:26"], ["D11:26"]),
        ("D4:1 D4:2", ["D4:1", "D4:2"]),
        (["D1:3", "D1:3", "D1:3; D2:1"], ["D1:3", "D2:1"]),
        (["", "n/a", "D1"], []),
        ([], []),
    ],
)
def test_normalize_dia_ids_repairs_the_benchmarks_spellings(
    given: list[str] | str, expected: list[str]
) -> None:
    assert normalize_dia_ids(given) == expected


def test_recall_at_k_counts_the_evidence_covered_by_the_first_k_items() -> None:
    ranked = [{"D1:1"}, set(), {"D2:2", "D9:9"}, {"D3:3"}]
    evidence = {"D1:1", "D2:2", "D3:3", "D4:4"}
    assert recall_at_k(evidence, ranked, 1) == 0.25
    assert recall_at_k(evidence, ranked, 2) == 0.25  # a summary takes a place, covers nothing
    assert recall_at_k(evidence, ranked, 3) == 0.5
    assert recall_at_k(evidence, ranked, 4) == 0.75
    assert recall_at_k(evidence, ranked, 10) == 0.75


def test_recall_at_k_counts_a_turn_once_however_many_facts_quote_it() -> None:
    assert recall_at_k(["D1:1", "D1:2"], [{"D1:1"}, {"D1:1"}, {"D1:1"}], 3) == 0.5


def test_recall_at_k_of_a_question_without_evidence_is_none() -> None:
    assert recall_at_k([], [{"D1:1"}], 5) is None


def test_recall_at_k_over_an_empty_ranking_is_zero() -> None:
    assert recall_at_k({"D1:1"}, [], 5) == 0.0


def test_recall_at_k_refuses_k_below_one() -> None:
    with pytest.raises(ValueError, match="k must be at least 1"):
        recall_at_k({"D1:1"}, [{"D1:1"}], 0)


def test_mean_skips_unscored_values() -> None:
    assert mean([1.0, None, 0.0, 0.5]) == 0.5
    assert mean([None]) is None
    assert mean([]) is None


def test_percentile_takes_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 51.0  # index round(49.5) = 50
    assert percentile(values, 0.95) == 95.0
    assert percentile(values, 0.0) == 1.0
    assert percentile(values, 1.0) == 100.0
    assert percentile([], 0.5) is None
    with pytest.raises(ValueError, match="between 0 and 1"):
        percentile(values, 95)
