"""Measuring memory against benchmarks: does recall bring back what answers the question?

Not on the conversation path and not part of what Somna ships to agents: these
functions read benchmark files (LoCoMo, client-memory scenarios) that tests, benchmarks
and the `somna eval` command point them at, ingest them through `Memory`, and score what
recall returns. `metrics` holds the pure arithmetic; `report` and `scenarios_report` the
models of the results.
"""

from somna.evaluation.locomo import (
    CONSOLIDATE_AFTER,
    LocomoQuestion,
    evaluate_locomo,
    read_locomo_questions,
)
from somna.evaluation.metrics import (
    block_facts,
    mean,
    normalize_dia_ids,
    percentile,
    recall_at_k,
)
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
from somna.evaluation.scenarios import evaluate_scenarios, read_translations, scenario_questions
from somna.evaluation.scenarios_format import Scenario, matches, read_scenarios
from somna.evaluation.scenarios_report import (
    Asked,
    GroupResult,
    Observed,
    ProfileResult,
    ScenarioFigures,
    ScenarioReport,
    ScenarioResult,
    score_scenario,
)

__all__ = [
    "CATEGORY_NAMES",
    "CONSOLIDATE_AFTER",
    "Asked",
    "ConsolidationFigures",
    "ConversationFigures",
    "Distribution",
    "GroupFigures",
    "GroupResult",
    "LocomoQuestion",
    "LocomoReport",
    "Observed",
    "ProfileResult",
    "QuestionResult",
    "RecalledItem",
    "RuleFigures",
    "Scenario",
    "ScenarioFigures",
    "ScenarioReport",
    "ScenarioResult",
    "block_facts",
    "evaluate_locomo",
    "evaluate_scenarios",
    "matches",
    "mean",
    "normalize_dia_ids",
    "percentile",
    "read_locomo_questions",
    "read_scenarios",
    "read_translations",
    "recall_at_k",
    "scenario_questions",
    "score_scenario",
]
