"""Measuring memory against benchmarks: does recall bring back what answers the question?

Not on the conversation path and not part of what Somna ships to agents: these
functions read benchmark files (LoCoMo) that tests, benchmarks and the `somna eval`
command point them at, ingest them through `Memory`, and score what recall returns.
`metrics` holds the pure arithmetic; `report` the models of the results.
"""

from somna.evaluation.locomo import (
    CONSOLIDATE_AFTER,
    LocomoQuestion,
    evaluate_locomo,
    read_locomo_questions,
)
from somna.evaluation.metrics import mean, normalize_dia_ids, percentile, recall_at_k
from somna.evaluation.report import (
    CATEGORY_NAMES,
    ConsolidationFigures,
    ConversationFigures,
    Distribution,
    GroupFigures,
    LocomoReport,
    QuestionResult,
    RecalledItem,
    RuleFigures,
)

__all__ = [
    "CATEGORY_NAMES",
    "CONSOLIDATE_AFTER",
    "ConsolidationFigures",
    "ConversationFigures",
    "Distribution",
    "GroupFigures",
    "LocomoQuestion",
    "LocomoReport",
    "QuestionResult",
    "RecalledItem",
    "RuleFigures",
    "evaluate_locomo",
    "mean",
    "normalize_dia_ids",
    "percentile",
    "read_locomo_questions",
    "recall_at_k",
]
