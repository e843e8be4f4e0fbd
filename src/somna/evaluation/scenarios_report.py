"""What a scenario evaluation returns, and the arithmetic that scores one profile.

`score_scenario` is pure: it takes a scenario and what one profile held (active fact texts,
open conflict pairs, the facts of each question's context block) and counts the gold
items met. Counts add up over scenarios; the shares are read from the summed counts,
so a group's figure weighs every gold item alike, not every scenario. Plain Pydantic
models: `report.model_dump_json()` is the JSON the CLI writes with `--json`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, computed_field

from somna.evaluation.report import ConsolidationFigures
from somna.evaluation.scenarios_format import Scenario, matches

__all__ = [
    "Asked",
    "GroupResult",
    "Observed",
    "ProfileResult",
    "QuestionOutcome",
    "ScenarioFigures",
    "ScenarioReport",
    "ScenarioResult",
    "UnrelatedOutcome",
    "score_scenario",
]

AskIn = Literal["same", "other"]


@dataclass(frozen=True)
class Asked:
    """One question as it was put to `context()`, and the fact texts of its block."""

    question: str
    facts: Sequence[str]


@dataclass(frozen=True)
class Observed:
    """What one profile held after the conversations, and what its context blocks showed.

    `questions` follow the scenario's questions, `unrelated` its unrelated questions.
    `standing` holds the texts of standing instructions: they open every block whatever
    the question, so they are not counted as facts a question brought.
    """

    active: Sequence[str]
    conflicts: Sequence[tuple[str, str]]
    questions: Sequence[Asked]
    unrelated: Sequence[Asked]
    client_messages: int
    standing: frozenset[str] = frozenset()


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True)


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _share_field(part: str, whole: str) -> Any:
    """A share of two counts, `part` out of `whole`, serialized after the counts (None where
    `whole` is 0). Typed Any: it stands for a property of `float | None`."""

    def share(figures: BaseModel) -> float | None:
        return _share(getattr(figures, part), getattr(figures, whole))

    return computed_field(property(share))


class ScenarioFigures(_Model):
    """Counts over one profile or a group of them, and the shares read from them."""

    scenarios: int = 0
    client_messages: int = 0
    items: int = 0
    """Active facts after the conversations."""
    facts: int = 0
    recalled: int = 0
    outdated: int = 0
    still_active: int = 0
    conflicts: int = 0
    flagged: int = 0
    questions: int = 0
    answered: int = 0
    """Questions whose block holds the answer."""
    stale_checked: int = 0
    """Questions with a stale value to look for (`not_keywords`)."""
    stale: int = 0
    unrelated: int = 0
    left_empty: int = 0
    block_facts: int = 0
    """Facts the questions' blocks held, standing instructions left out."""

    fact_recall = _share_field("recalled", "facts")
    outdated_still_active = _share_field("still_active", "outdated")
    conflicts_flagged = _share_field("flagged", "conflicts")
    answer_in_context = _share_field("answered", "questions")
    stale_in_context = _share_field("stale", "stale_checked")
    unrelated_left_empty = _share_field("left_empty", "unrelated")
    facts_per_block = _share_field("block_facts", "questions")
    items_per_message = _share_field("items", "client_messages")

    @classmethod
    def total(cls, parts: Iterable[ScenarioFigures]) -> ScenarioFigures:
        """The counts of `parts` added up."""
        names = [n for n, f in cls.model_fields.items() if f.annotation is int]
        sums = dict.fromkeys(names, 0)
        for part in parts:
            for name in names:
                sums[name] += getattr(part, name)
        return cls(**sums)


class QuestionOutcome(_Model):
    question: str
    facts: list[str]
    """The fact texts of its context block."""
    answer_in_context: bool
    stale_in_context: bool | None
    """None when the question has no stale value to look for."""


class UnrelatedOutcome(_Model):
    question: str
    facts: list[str]
    """The facts its block holds beyond the standing instructions."""
    left_empty: bool


class ProfileResult(_Model):
    """One profile of one scenario: its figures, and which gold items it met or missed."""

    profile: str
    figures: ScenarioFigures
    facts_missed: list[str]
    """Gold facts (ids) no active fact matches."""
    outdated_active: list[str]
    conflicts_flagged: list[str]
    questions: list[QuestionOutcome]
    unrelated: list[UnrelatedOutcome]


def score_scenario(scenario: Scenario, profile: str, observed: Observed) -> ProfileResult:
    """Count the gold items of `scenario` that what `profile` held meets."""
    active = observed.active

    def held(groups: Sequence[Sequence[str]]) -> bool:
        return any(matches(groups, text) for text in active)

    def flagged(a: Sequence[Sequence[str]], b: Sequence[Sequence[str]]) -> bool:
        return any(
            (matches(a, x) and matches(b, y)) or (matches(a, y) and matches(b, x))
            for x, y in observed.conflicts
        )

    if len(observed.questions) != len(scenario.questions) or len(observed.unrelated) != len(
        scenario.unrelated_questions
    ):
        raise ValueError("every question of the scenario must be asked once, in order")
    missed = [f.id for f in scenario.facts if not held(f.keywords)]
    outdated = [o.id for o in scenario.outdated if held(o.keywords)]
    conflicts = [c.id for c in scenario.conflicts if flagged(c.a_keywords, c.b_keywords)]
    questions = []
    for gold, asked in zip(scenario.questions, observed.questions, strict=True):
        joined = "\n".join(asked.facts)
        questions.append(
            QuestionOutcome(
                question=asked.question,
                facts=list(asked.facts),
                answer_in_context=matches(gold.answer_keywords, joined),
                stale_in_context=matches(gold.not_keywords, joined) if gold.not_keywords else None,
            )
        )
    unrelated = []
    for asked in observed.unrelated:
        brought = [f for f in asked.facts if f not in observed.standing]
        unrelated.append(
            UnrelatedOutcome(question=asked.question, facts=brought, left_empty=not brought)
        )
    figures = ScenarioFigures(
        scenarios=1,
        client_messages=observed.client_messages,
        items=len(active),
        facts=len(scenario.facts),
        recalled=len(scenario.facts) - len(missed),
        outdated=len(scenario.outdated),
        still_active=len(outdated),
        conflicts=len(scenario.conflicts),
        flagged=len(conflicts),
        questions=len(questions),
        answered=sum(q.answer_in_context for q in questions),
        stale_checked=sum(q.stale_in_context is not None for q in questions),
        stale=sum(bool(q.stale_in_context) for q in questions),
        unrelated=len(unrelated),
        left_empty=sum(u.left_empty for u in unrelated),
        block_facts=sum(
            len([f for f in a.facts if f not in observed.standing]) for a in observed.questions
        ),
    )
    return ProfileResult(
        profile=profile,
        figures=figures,
        facts_missed=missed,
        outdated_active=outdated,
        conflicts_flagged=conflicts,
        questions=questions,
        unrelated=unrelated,
    )


class ScenarioResult(_Model):
    """One scenario: consolidated memory, and the raw-message baseline when asked for."""

    id: str
    language: str
    path: str
    sessions: int
    memory: ProfileResult
    baseline: ProfileResult | None = None
    consolidation: ConsolidationFigures


class GroupResult(_Model):
    """The figures of a group of scenarios (a language, or all), memory beside baseline."""

    label: str
    memory: ScenarioFigures
    baseline: ScenarioFigures | None = None

    @classmethod
    def of(cls, label: str, results: Sequence[ScenarioResult]) -> GroupResult:
        baselines = [r.baseline.figures for r in results if r.baseline is not None]
        return cls(
            label=label,
            memory=ScenarioFigures.total(r.memory.figures for r in results),
            baseline=ScenarioFigures.total(baselines) if baselines else None,
        )


class ScenarioReport(_Model):
    """The whole evaluation: how questions were asked, figures per language and overall."""

    ask_in: AskIn
    """'same': each question in its scenario's language; 'other': in the other language."""
    llm: str
    by_language: dict[str, GroupResult]
    """Keyed by the language of the conversations."""
    overall: GroupResult
    scenarios: list[ScenarioResult]
