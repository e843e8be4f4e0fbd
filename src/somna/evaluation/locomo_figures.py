"""LoCoMo's figures over many questions: recall by group, and distributions."""

from __future__ import annotations

from collections.abc import Sequence

from somna.evaluation.metrics import mean, percentile
from somna.evaluation.report import Distribution, GroupFigures, QuestionResult

__all__ = ["distribution", "group_figures"]


def group_figures(results: Sequence[QuestionResult], ks: Sequence[int]) -> GroupFigures:
    """The figures of a group of answered questions, scored on those with evidence."""
    scored = [r for r in results if r.evidence]
    return GroupFigures(
        questions=len(results),
        scored=len(scored),
        evidence_recall={k: mean(r.evidence_recall.get(k) for r in scored) for k in ks},
        session_recall={k: mean(r.session_recall.get(k) for r in scored) for k in ks},
        coverage=mean(len(r.covered_evidence) / len(r.evidence) for r in scored),
        expired=mean(len(r.expired_evidence) / len(r.evidence) for r in scored),
        baseline_recall={
            k: mean(r.baseline_recall.get(k) for r in scored)
            for k in ks
            if any(r.baseline_recall for r in scored)
        },
        context_with_evidence=mean(float(r.context_evidence) for r in scored),
        context_facts=mean(float(r.context_facts) for r in results),
    )


def distribution(values: Sequence[float]) -> Distribution:
    """Count, mean, median, 95th percentile and maximum of `values`."""
    return Distribution(
        count=len(values),
        mean=mean(values),
        p50=percentile(values, 0.5),
        p95=percentile(values, 0.95),
        max=max(values) if values else None,
    )
