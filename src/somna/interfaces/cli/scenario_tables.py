"""The tables of `somna eval scenarios`, laid out to be read whole on an 80-column terminal.

Measures are rows and groups are columns in the summary, so the measures keep their full
names; the per-scenario table puts the baseline's figures on a row of their own under
each scenario's, so neither table widens with `--baseline`.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from somna.evaluation import ScenarioFigures, ScenarioReport
from somna.interfaces.cli.eval_tables import figures_table, spaced

__all__ = ["scenario_lines", "scenario_tables"]

_Measure = Callable[[ScenarioFigures], str]


def _share(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


_MEASURES: list[tuple[str, str, _Measure]] = [
    ("fact recall", "fact\nrecall", lambda f: _share(f.fact_recall)),
    ("outdated still active", "outdated\nactive", lambda f: _share(f.outdated_still_active)),
    ("conflicts flagged", "conflicts\nflagged", lambda f: _share(f.conflicts_flagged)),
    ("answer in context", "answer\nin block", lambda f: _share(f.answer_in_context)),
    ("stale in context", "stale\nin block", lambda f: _share(f.stale_in_context)),
    ("unrelated left empty", "unrelated\nempty", lambda f: _share(f.unrelated_left_empty)),
    ("facts per block", "facts/\nblock", lambda f: _ratio(f.facts_per_block)),
    ("items per message", "items/\nmessage", lambda f: _ratio(f.items_per_message)),
]


def _table(title: str, first: str, gap: int) -> Table:
    table = figures_table(title, gap)
    table.add_column(first, overflow="fold")
    return table


def _short(language: str, ask_in: str) -> str:
    """A group's column name: its language, or with questions in the other, the direction."""
    if ask_in == "same" or language == "all":
        return language
    return f"{'fr' if language == 'en' else 'en'} on {language}"


def scenario_tables(report: ScenarioReport) -> list[RenderableType]:
    """The figures per language and overall, then per scenario, a blank line after each."""
    groups = [*report.by_language.items(), ("all", report.overall)]
    baseline = report.overall.baseline is not None
    title = "Client memory by language"
    if report.ask_in == "other":
        title += ", questions in the other language"
    summary = _table(title, "measure", gap=2)
    columns: list[ScenarioFigures] = []
    for language, group in groups:
        name = _short(language, report.ask_in)
        summary.add_column(
            f"{name}\nmemory" if baseline else name, justify="right", overflow="fold"
        )
        columns.append(group.memory)
        if group.baseline is not None:
            summary.add_column(f"{name}\nturns", justify="right", overflow="fold")
            columns.append(group.baseline)
    summary.add_row("scenarios", *(str(f.scenarios) for f in columns))
    summary.add_row("questions", *(str(f.questions) for f in columns), end_section=True)
    for name, _, measure in _MEASURES:
        summary.add_row(name, *(measure(f) for f in columns))
    by_scenario = _table("By scenario", "scenario", gap=1)
    for _, header, _measure in _MEASURES:
        by_scenario.add_column(header, justify="right", overflow="fold")
    for result in report.scenarios:
        by_scenario.add_row(Text(result.id), *(m(result.memory.figures) for *_, m in _MEASURES))
        if result.baseline is not None:
            by_scenario.add_row(
                Text("  turns", style="dim"),
                *(m(result.baseline.figures) for *_, m in _MEASURES),
                style="dim",
            )
    return spaced(summary, by_scenario)


def scenario_lines(report: ScenarioReport) -> list[str]:
    """How the memory was made and what the measures mean."""
    runs = [r.consolidation for r in report.scenarios]
    overall = report.overall.memory
    lines = [
        f"{overall.scenarios} scenarios, {overall.questions} questions, {overall.unrelated} "
        f"unrelated questions; consolidated by {report.llm}: {sum(r.sessions for r in runs)} "
        f"sessions in {sum(r.seconds for r in runs):.1f} s, {sum(r.facts_added for r in runs)} "
        f"facts added, {sum(r.facts_superseded for r in runs)} superseded, "
        f"{sum(r.facts_disputed for r in runs)} disputed.",
        "fact recall: gold facts matched by an active fact; outdated still active: replaced "
        "values still matched by one; conflicts flagged: unsettled contradictions whose two "
        "sides are facts in an open conflict; answer in context: questions whose context "
        "block holds the answer; stale in context: questions (with a stale value) whose block "
        "holds it; unrelated left empty: unrelated questions whose block holds no fact "
        "(standing instructions aside); facts per block: facts a question brought; items per "
        "message: active facts per client message.",
    ]
    if report.overall.baseline is not None:
        lines.append(
            "turns: the same questions over a profile holding every client message as it was "
            "said, nothing consolidated."
        )
    if report.ask_in == "other":
        lines.append(
            "Questions were asked in the other language: 'fr on en' is French questions over "
            "English conversations, 'en on fr' English questions over French ones."
        )
    return lines
