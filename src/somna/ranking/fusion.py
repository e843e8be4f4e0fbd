"""Reciprocal rank fusion: one ranking from several, by rank alone.

Scores of different signals (BM25, cosine) do not share a scale; ranks do.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["RRF_K", "rrf"]

RRF_K = 60
"""The usual damping constant: a rank r contributes 1 / (RRF_K + r)."""


def rrf(rankings: Sequence[Sequence[str]], k: int = RRF_K) -> list[tuple[str, float]]:
    """Fuse rankings (ids, best first) into one list of (id, score), best first.

    >>> rrf([["a", "b"], ["b", "c"]])[0][0]
    'b'
    """
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))
