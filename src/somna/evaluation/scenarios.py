"""Client-memory scenarios as a benchmark: converse, sleep on it, then ask the agent's questions.

Each scenario becomes one fresh profile (`scenario-<id>`). Its sessions are added in
order with `Memory.add_messages`, each message at its own time, and each session is
consolidated by the memory's configured LLM one night after its last message (or
when the next session begins, if that comes sooner), as a nightly job would. Then
every question, and every unrelated question, is put to `Memory.context` once, in
file order, at the memory's own now (after the last session); the facts the block
lists are scored against the gold keywords (`scenarios_report.score_scenario`).

With the raw-message baseline, a second profile (`scenario-<id>-turns`) holds every
client message as a fact of its own, as it was said and at its time (one fact per
sentence where a message holds several, as a fact is one sentence), with nothing
consolidated, and is asked the same questions the same way. `context()` reinforces
the facts it shows, so both profiles are asked in the same order and
`Memory.flush` lands each question's reinforcement before the next one.
"""

from __future__ import annotations

import re
import textwrap
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from somna.errors import InvalidInputError
from somna.evaluation.locomo import CONSOLIDATE_AFTER
from somna.evaluation.metrics import block_facts
from somna.evaluation.report import ConsolidationFigures
from somna.evaluation.scenarios_format import Scenario, read_json
from somna.evaluation.scenarios_report import (
    Asked,
    AskIn,
    GroupResult,
    Observed,
    ProfileResult,
    ScenarioReport,
    ScenarioResult,
    score_scenario,
)
from somna.memory import Memory
from somna.model import (
    MAX_FACT_CHARS,
    ConflictStatus,
    FactType,
    Run,
    check_fact_text,
    is_fact_text,
)
from somna.ranking import HEADER

__all__ = ["evaluate_scenarios", "read_translations", "scenario_questions"]

Progress = Callable[[str], None]

_PAGE = 10_000
_SENTENCE_END = re.compile(r"(?<=[.!?\u2026])\s+")


def read_translations(path: Path) -> dict[str, str]:
    """A translation table, a JSON object `{question: translation}`, checked."""
    data = read_json(path)
    if not isinstance(data, dict) or not all(
        isinstance(v, str) and v.strip() for v in data.values()
    ):
        raise InvalidInputError(
            f"{path} is not a translation table: it should hold one JSON object whose "
            "values are the questions translated."
        )
    return {str(k): v for k, v in data.items()}


def scenario_questions(
    scenario: Scenario, ask_in: AskIn, translations: Mapping[str, str] | None = None
) -> tuple[list[str], list[str]]:
    """The questions and unrelated questions to ask, in the language `ask_in` chooses.

    In the other language, a question's `q_other` (an unrelated question's
    `unrelated_questions_other`) comes first, then `translations`; a question with
    neither raises `InvalidInputError` naming it.
    """
    questions = [q.q for q in scenario.questions]
    unrelated = list(scenario.unrelated_questions)
    if ask_in == "same":
        return questions, unrelated
    table = translations or {}
    given = scenario.unrelated_questions_other
    others: list[str | None] = list(given) if given is not None else [None] * len(unrelated)

    def translated(question: str, given: str | None) -> str:
        if given is not None:
            return given
        if question in table:
            return table[question]
        raise InvalidInputError(
            f"Scenario {scenario.id!r} gives no translation of the question {question!r}, "
            "and the translation table has none either."
        )

    return (
        [translated(q.q, q.q_other) for q in scenario.questions],
        [translated(u, o) for u, o in zip(unrelated, others, strict=True)],
    )


def evaluate_scenarios(
    memory: Memory,
    scenarios: Sequence[Scenario],
    *,
    baseline: bool = False,
    ask_in: AskIn = "same",
    translations: Mapping[str, str] | None = None,
    progress: Progress | None = None,
) -> ScenarioReport:
    """Evaluate `memory` on the scenarios; see the module's docstring for how.

    Everything is checked before anything is written: every question has its
    translation, no profile the run would make exists yet (use a fresh database),
    and every conversation ended before the memory's now.
    """
    say = progress or (lambda _line: None)
    asked = {s.id: scenario_questions(s, ask_in, translations) for s in scenarios}
    existing = {p.id for p in memory.list_profiles()}
    now = memory.now()
    for scenario in scenarios:
        for name in _profiles(scenario, baseline):
            if name in existing:
                raise InvalidInputError(
                    f"The database already holds the profile {name!r}: evaluate scenarios on a "
                    "fresh database."
                )
        if max(s.last_at for s in scenario.sessions) > now:
            raise InvalidInputError(
                f"Scenario {scenario.id!r} ends after now ({now.isoformat()}): its questions "
                "cannot be asked after its last session."
            )
    results = []
    for scenario in scenarios:
        questions, unrelated = asked[scenario.id]
        profile, *turns = _profiles(scenario, baseline)
        consolidation = _converse(memory, scenario, profile)
        say(
            f"{scenario.id}: {consolidation.sessions} sessions consolidated in "
            f"{consolidation.seconds:.1f} s, {consolidation.facts_added} facts added."
        )
        result = ScenarioResult(
            id=scenario.id,
            language=scenario.language,
            path=scenario.path,
            sessions=len(scenario.sessions),
            memory=_ask(memory, scenario, profile, questions, unrelated),
            baseline=_raw_messages(memory, scenario, turns[0], questions, unrelated)
            if turns
            else None,
            consolidation=consolidation,
        )
        say(f"{scenario.id}: {len(questions) + len(unrelated)} questions asked.")
        results.append(result)
    languages = sorted({r.language for r in results})
    return ScenarioReport(
        ask_in=ask_in,
        llm=memory.llm.name,
        by_language={
            lang: GroupResult.of(_label(lang, ask_in), [r for r in results if r.language == lang])
            for lang in languages
        },
        overall=GroupResult.of("all", results),
        scenarios=results,
    )


def _profiles(scenario: Scenario, baseline: bool) -> list[str]:
    profile = f"scenario-{scenario.id}"
    return [profile, f"{profile}-turns"] if baseline else [profile]


def _label(language: str, ask_in: AskIn) -> str:
    if ask_in == "same":
        return language
    other = "fr" if language == "en" else "en"
    return f"{other} questions over {language} conversations"


def _converse(memory: Memory, scenario: Scenario, profile: str) -> ConsolidationFigures:
    """Add each session, then consolidate it the night after (or before the next one)."""
    memory.create_profile(profile)
    runs: list[Run] = []
    started = time.perf_counter()
    sessions = scenario.sessions
    for index, session in enumerate(sessions):
        memory.add_messages(
            profile,
            session.key,
            [{"role": m.role, "content": m.content, "at": m.at} for m in session.messages],
        )
        night = session.last_at + CONSOLIDATE_AFTER
        if index + 1 < len(sessions):
            night = min(night, min(m.at for m in sessions[index + 1].messages))
        runs.append(memory.consolidate(profile, now=night))
    return ConsolidationFigures.of_runs(memory.llm.name, runs, time.perf_counter() - started)


def _raw_messages(
    memory: Memory, scenario: Scenario, profile: str, questions: list[str], unrelated: list[str]
) -> ProfileResult:
    """The baseline: every client message stored as it was said, then the same questions."""
    memory.create_profile(profile)
    for session in scenario.sessions:
        for message in session.messages:
            if message.role == "user":
                for text in _as_facts(message.content):
                    memory.add_fact(profile, text, valid_from=message.at)
    return _ask(memory, scenario, profile, questions, unrelated)


def _as_facts(content: str) -> list[str]:
    """A message as one fact where a fact may hold it whole, else one fact per sentence
    (cut between words where a sentence is longer than a fact may be); a piece with no
    word, such as a lone "!", holds nothing to recall and is left out."""
    try:
        return [check_fact_text(content)]
    except ValueError:
        pieces = [
            chunk
            for sentence in _SENTENCE_END.split(content)
            for chunk in textwrap.wrap(sentence, MAX_FACT_CHARS)
        ]
        return [piece for piece in pieces if is_fact_text(piece)]


def _ask(
    memory: Memory, scenario: Scenario, profile: str, questions: list[str], unrelated: list[str]
) -> ProfileResult:
    """What `profile` holds, then each question's context block, one question at a time."""
    active = _active(memory, profile)
    pairs = [
        (pair.fact_a.text, pair.fact_b.text)
        for status in (ConflictStatus.OPEN, ConflictStatus.DEFERRED)
        for pair in memory.conflicts(profile, status)
    ]
    standing = frozenset(
        f.text for f in memory.list_facts(profile, type=FactType.INSTRUCTION, limit=_PAGE)
    )

    def block(question: str) -> Asked:
        text = memory.context(profile, question)
        memory.flush()  # this question's reinforcement lands before the next question
        return Asked(question, block_facts(text, HEADER))

    observed = Observed(
        active=active,
        conflicts=pairs,
        questions=[block(q) for q in questions],
        unrelated=[block(q) for q in unrelated],
        client_messages=scenario.client_messages,
        standing=standing,
    )
    return score_scenario(scenario, profile, observed)


def _active(memory: Memory, profile: str) -> list[str]:
    texts: list[str] = []
    while True:
        page = memory.list_facts(profile, limit=_PAGE, offset=len(texts))
        texts += [f.text for f in page]
        if len(page) < _PAGE:
            return texts
