"""The arithmetic of an evaluation: benchmark turn ids, recall at k, means and percentiles.

Pure functions only, no I/O: `somna.evaluation.locomo` gathers what recall returned and
calls these to score it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence

__all__ = ["block_facts", "mean", "normalize_dia_ids", "percentile", "recall_at_k"]

_DIA_ID = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)", re.IGNORECASE)
_FACT_LINE = re.compile(r"^- \[[^\]]*\] | \(unverified\)$")


def normalize_dia_ids(value: str | Iterable[str]) -> list[str]:
    """LoCoMo turn ids (``D<session>:<turn>``) in one canonical spelling, in order, once each.

    The benchmark's evidence lists hold a few malformed entries, several ids in one
    string or stray spaces and zeros; every id found is kept, anything else is dropped.

    >>> normalize_dia_ids(["D1:3", "D8:6; D9:17", " d2 : 05 ", "D1:3", "n/a"])
    ['D1:3', 'D8:6', 'D9:17', 'D2:5']
    """
    texts = [value] if isinstance(value, str) else list(value)
    found: dict[str, None] = {}
    for text in texts:
        for session, turn in _DIA_ID.findall(str(text)):
            found[f"D{int(session)}:{int(turn)}"] = None
    return list(found)


def block_facts(block: str, header: str) -> list[str]:
    """The texts of the facts a context block lists under `header`, read back from its lines.

    >>> block_facts("About: Likes tea.\\nFacts:\\n- [2026-05-03] Has a cat. (unverified)", "Facts:")
    ['Has a cat.']
    """
    lines = block.splitlines()
    start = lines.index(header) + 1 if header in lines else len(lines)
    return [_FACT_LINE.sub("", line) for line in lines[start:]]


def recall_at_k(
    relevant: Collection[str], ranked: Sequence[Collection[str]], k: int
) -> float | None:
    """The share of `relevant` labels covered by the first `k` ranked items.

    Each ranked item is the set of labels it stands for (a fact: its evidence turns; a
    summary: its sessions); an item that stands for nothing still takes its place in
    the ranking. None when nothing is relevant: such a question cannot be scored.

    >>> recall_at_k({"D1:1", "D1:2"}, [set(), {"D1:2"}, {"D1:1"}], k=2)
    0.5
    """
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    wanted = set(relevant)
    if not wanted:
        return None
    covered: set[str] = set()
    for labels in ranked[:k]:
        covered.update(labels)
    return len(wanted & covered) / len(wanted)


def mean(values: Iterable[float | None]) -> float | None:
    """The mean of the values that are not None; None when there are none."""
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if kept else None


def percentile(values: Sequence[float], q: float) -> float | None:
    """The nearest-rank `q` quantile (0 to 1) of `values`; None for no values.

    >>> percentile([1.0, 2.0, 3.0, 4.0, 5.0], 0.5)
    3.0
    """
    if not 0 <= q <= 1:
        raise ValueError(f"q must lie between 0 and 1, not {q}")
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]
