"""From fused ranks to a final order: recency, confidence and strength as gentle weights.

A candidate's score is its reciprocal-rank-fusion score times a blend of the
three factors, each in [0, 1]:

    score = rrf * ((1 - w_r - w_c - w_s) + w_r * recency + w_c * confidence + w_s * strength)

so relevance always leads and the weights only reorder close calls. Recency
halves every `half_life_days` of age (at the asked time); a summary counts as
fully confident and strong.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

__all__ = ["Weights", "blend", "recency"]


@dataclass(frozen=True)
class Weights:
    recency: float = 0.1
    confidence: float = 0.1
    strength: float = 0.02
    half_life_days: float = 365.0

    def __post_init__(self) -> None:
        total = self.recency + self.confidence + self.strength
        if min(self.recency, self.confidence, self.strength) < 0 or total > 1:
            raise ValueError("recall weights must be non-negative and add up to at most 1")


def recency(moment: datetime, at: datetime, half_life_days: float) -> float:
    """1.0 for something from the asked moment, 0.5 one half-life before it, and so on."""
    age_days = max((at - moment).total_seconds(), 0.0) / 86_400
    return float(0.5 ** (age_days / half_life_days))


def blend(
    rrf_score: float, weights: Weights, *, recent: float, confidence: float, strength: float
) -> float:
    base = 1.0 - weights.recency - weights.confidence - weights.strength
    factor = (
        base
        + weights.recency * recent
        + weights.confidence * confidence
        + weights.strength * strength
    )
    return rrf_score * factor
