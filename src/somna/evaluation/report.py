"""What an evaluation returns: figures per category and overall, and every question's detail.

Plain Pydantic models: `report.model_dump_json()` is the JSON the CLI writes with
`--json`, and `LocomoReport.model_validate_json` reads it back. Recall figures are
fractions between 0 and 1, keyed by k; None where no question could be scored.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from somna.model import Run, RunCounts

__all__ = [
    "CATEGORY_NAMES",
    "ConsolidationFigures",
    "ConversationFigures",
    "Distribution",
    "GroupFigures",
    "LocomoReport",
    "QuestionResult",
    "RecalledItem",
    "RuleFigures",
]

CATEGORY_NAMES: dict[int, str] = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}
"""LoCoMo's question categories, as its README numbers them."""


class _Figures(BaseModel):
    model_config = ConfigDict(frozen=True)


class Distribution(_Figures):
    """Mean, median, 95th percentile and maximum of a measure over the questions."""

    count: int
    mean: float | None
    p50: float | None
    p95: float | None
    max: float | None


class RecalledItem(_Figures):
    """One result of recall for a question, and what it stands for in the benchmark.

    `turns` are the benchmark turns (dia_ids) behind a fact's evidence; `sessions`
    the session keys behind a fact or a summary (a day digest: its sessions').
    """

    rank: int
    kind: str
    summary_kind: str | None = None
    id: str
    text: str
    score: float
    turns: list[str]
    sessions: list[str]


class QuestionResult(_Figures):
    """One question: its evidence, what recall returned, and its scores.

    `evidence` holds the question's turns found in the conversation; `unknown_evidence`
    the ids it names that the conversation does not have. A question without evidence
    is not scored: its recall figures are empty.
    """

    conversation: str
    number: int
    category: int
    question: str
    answer: str | None
    evidence: list[str]
    evidence_sessions: list[str]
    unknown_evidence: list[str]
    covered_evidence: list[str]
    """The evidence turns behind at least one active fact after consolidation."""
    expired_evidence: list[str]
    """The evidence turns behind expired facts only: what category TTLs took away."""
    evidence_recall: dict[int, float]
    session_recall: dict[int, float]
    baseline_recall: dict[int, float] = {}
    """Evidence recall@k of the raw-turn baseline; empty when it was not asked for."""
    latency_ms: float
    context_tokens: int
    context_facts: int = 0
    """How many facts the context block for this question holds."""
    context_evidence: bool = False
    """Whether one of them stands on an evidence turn of the question."""
    recalled: list[RecalledItem]


class GroupFigures(_Figures):
    """Averages over the scored questions of one category, or of all of them."""

    questions: int
    scored: int
    evidence_recall: dict[int, float | None]
    session_recall: dict[int, float | None]
    coverage: float | None
    """The mean share of a question's evidence turns behind an active fact: recall's ceiling."""
    expired: float | None
    """The mean share of a question's evidence turns behind expired facts only."""
    baseline_recall: dict[int, float | None] = {}
    """Evidence recall@k of the raw-turn baseline over the same questions; empty without it."""
    context_with_evidence: float | None = None
    """The share of context blocks holding a fact that stands on an evidence turn."""
    context_facts: float | None = None
    """The mean number of facts in a context block."""


class ConsolidationFigures(_Figures, RunCounts):
    """What the consolidation of one conversation did, from its runs."""

    llm: str
    seconds: float
    sessions: int

    @classmethod
    def of_runs(cls, llm: str, runs: Sequence[Run], seconds: float) -> ConsolidationFigures:
        """The runs' counts, summed: a conversation may be consolidated night after night."""

        def total(name: str) -> int:
            return sum(int(getattr(run, name)) for run in runs)

        return cls(
            llm=llm,
            seconds=round(seconds, 3),
            sessions=total("sessions_consolidated"),
            **{name: total(name) for name in RunCounts.model_fields},
        )


class RuleFigures(_Figures):
    """What one extraction rule stored, and how much of it LoCoMo's reference also noted."""

    items: int
    on_reference: int
    """Items whose turn carries a reference observation: a rough precision, over `items`."""


class ConversationFigures(_Figures):
    """One conversation file: what was ingested, what memory holds, its questions."""

    path: str
    profile: str
    sessions: int
    turns: int
    sessions_already_stored: int
    questions: int
    facts_stored: int
    facts_active: int
    facts_expired: int
    session_summaries: int
    day_digests: int
    facts_per_turn: float
    """Active facts per ingested turn."""
    items_per_turn: float = 0.0
    """Every stored fact (active or not) per ingested turn: what extraction kept."""
    observations: int = 0
    """LoCoMo's reference observations of the conversation (`session_N_observation`)."""
    observation_recall: float | None = None
    """The share of reference observations whose turn is behind at least one stored fact."""
    figures: GroupFigures | None = None
    """The conversation's own recall figures, all categories together."""
    rules: dict[str, RuleFigures] = {}
    """Per extraction rule (recorded in each fact's `created` event): what it stored."""
    consolidation: ConsolidationFigures | None


class LocomoReport(_Figures):
    """The whole evaluation: settings, figures per category and overall, and the details."""

    k_values: list[int]
    categories: list[int]
    conversations: list[ConversationFigures]
    by_category: dict[int, GroupFigures]
    overall: GroupFigures
    latency_ms: Distribution
    context_tokens: Distribution
    questions: list[QuestionResult]
