"""`somna eval …`: measure how well recall finds what answers a benchmark's questions."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import BaseModel
from rich.console import Console, RenderableType
from rich.text import Text

from somna.evaluation import (
    CATEGORY_NAMES,
    ConversationFigures,
    GroupFigures,
    LocomoReport,
    evaluate_locomo,
    evaluate_scenarios,
    read_scenarios,
    read_translations,
)
from somna.interfaces.cli import render
from somna.interfaces.cli.eval_tables import Column, fitted, spaced
from somna.interfaces.cli.options import DbOption, open_memory, reported
from somna.interfaces.cli.scenario_tables import scenario_lines, scenario_tables

__all__ = ["app", "locomo", "report_lines", "report_tables", "scenarios"]

app = typer.Typer(name="eval", no_args_is_help=True)

_STDOUT = "-"


def _report_option(holds: str) -> Any:
    """The --json PATH of a report (see `_print_report`), whose JSON adds `holds` to what the
    tables show."""
    return typer.Option(
        "--json",
        metavar="PATH",
        dir_okay=False,
        help=f"Write the full report, {holds} included, as JSON to PATH ('{_STDOUT}' prints it "
        "on stdout instead of the tables).",
    )


def _benchmark_files(metavar: str, text: str, *, folders: bool) -> Any:
    """The benchmark files an evaluation reads (with `folders`, folders of them too), checked
    to exist and be readable before it writes anything to the database."""
    return typer.Argument(
        metavar=metavar,
        exists=True,
        dir_okay=folders,
        readable=True,
        show_default=False,
        help=text,
    )


@app.callback()
def eval_group() -> None:
    """Measure memory on benchmarks: does what it recalls answer the questions?

    Each benchmark file is ingested into the database, consolidated with the
    configured LLM, and its questions are put to recall. Use a fresh database
    file: recall reinforces the facts it returns, so a second run on the same
    database measures another state.

    Example:

        somna eval locomo 26.json 30.json --db /tmp/locomo.db
        somna eval scenarios scenarios/ --baseline turns --db /tmp/scenarios.db
    """


@app.command("locomo")
def locomo(
    ctx: typer.Context,
    files: Annotated[
        list[Path],
        _benchmark_files(
            "FILE",
            "LoCoMo conversation files (JSON); each becomes the profile locomo-<name>.",
            folders=False,
        ),
    ],
    k: Annotated[
        list[int] | None,
        typer.Option(
            "--k", "-k", min=1, help="A cut-off for recall@k; repeat it (default: 5 and 10)."
        ),
    ] = None,
    category: Annotated[
        list[int] | None,
        typer.Option(
            "--category",
            "-c",
            min=1,
            max=5,
            help="A question category to ask (1 multi-hop, 2 temporal, 3 open-domain, "
            "4 single-hop, 5 adversarial); repeat it (default: 1 to 4).",
        ),
    ] = None,
    json_path: Annotated[Path | None, _report_option("every question's recall")] = None,
    consolidate: Annotated[
        bool,
        typer.Option(
            "--consolidate/--no-consolidate",
            help="Consolidate the ingested sessions first; --no-consolidate evaluates a "
            "database consolidated beforehand (say, with another LLM).",
        ),
    ] = True,
    baseline: Annotated[
        str | None,
        typer.Option(
            "--baseline",
            metavar="turns",
            help="Also index every raw turn (full text and the configured embedder, fused by "
            "rank) and print its evidence recall beside memory's: 'turns' is the one baseline.",
        ),
    ] = None,
    multi_query: Annotated[
        bool,
        typer.Option(
            "--multi-query",
            help="Recall each question with 2-3 rephrasings from the configured LLM too, fused "
            "by rank (the multi_query setting), to measure what it adds.",
        ),
    ] = False,
    db: DbOption = None,
) -> None:
    """Evaluate recall on LoCoMo conversations: evidence recall@k per question category.

    For every question, recall returns max(k) facts and summaries. Evidence
    recall@k is the share of the question's evidence turns quoted by the facts
    among the first k results; session recall@k, the share of its evidence
    sessions behind any of the first k results (facts, session summaries, day
    digests). Also printed: facts stored per turn, the context block's tokens
    and recall latency. Run it on a fresh database (--db): it writes the
    conversations there, and recall changes the facts' strength.

    Example:

        somna eval locomo 26.json 30.json --baseline turns --db /tmp/locomo.db
        somna eval locomo 26.json --k 1 --k 5 --category 4 --json report.json --db /tmp/l.db
    """
    _check_baseline(baseline)
    _check_json_path(json_path)
    with open_memory(ctx, db) as memory:
        if multi_query:
            memory.settings = memory.settings.model_copy(update={"multi_query": True})
        report = evaluate_locomo(
            memory,
            files,
            k_values=k or (5, 10),
            categories=category or (1, 2, 3, 4),
            consolidate=consolidate,
            baseline=baseline is not None,
            progress=lambda line: typer.echo(line, err=True),
        )
    _print_report(
        report,
        json_path,
        lambda: report_tables(report, Console().width),
        lambda: report_lines(report),
    )


@app.command("scenarios")
def scenarios(
    ctx: typer.Context,
    paths: Annotated[
        list[Path],
        _benchmark_files(
            "FILE_OR_DIR",
            "Scenario files (JSON), or folders whose *.json files are scenarios; each scenario "
            "becomes the profile scenario-<id>.",
            folders=True,
        ),
    ],
    baseline: Annotated[
        str | None,
        typer.Option(
            "--baseline",
            metavar="turns",
            help="Also store every client message as it was said in a second profile "
            "(scenario-<id>-turns, nothing consolidated), ask it the same questions and print "
            "its figures beside memory's: 'turns' is the one baseline.",
        ),
    ] = None,
    ask_in: Annotated[
        str,
        typer.Option(
            "--ask-in",
            metavar="same|other",
            help="Ask each question in its scenario's language ('same'), or in the other one "
            "('other': q_other and unrelated_questions_other, else --translations).",
        ),
    ] = "same",
    translations: Annotated[
        Path | None,
        typer.Option(
            "--translations",
            metavar="FILE",
            exists=True,
            dir_okay=False,
            readable=True,
            help="A JSON object {question: translation} for the questions a scenario gives "
            "no translation of (with --ask-in other).",
        ),
    ] = None,
    json_path: Annotated[Path | None, _report_option("every question's context block")] = None,
    db: DbOption = None,
) -> None:
    """Evaluate client memory on scenarios: what it holds and what reaches the prompt.

    Each scenario's sessions are added in order and consolidated one night after
    their last message with the configured LLM; then each question is put to
    the context block. Printed per language and overall: fact recall (gold facts
    matched by an active fact), outdated values still active, unsettled
    contradictions flagged as conflicts, answers in the context block, stale
    values in it, unrelated questions left with no fact, facts per block and
    active facts per client message. Run it on a fresh database (--db).

    Example:

        somna eval scenarios scenarios/ --baseline turns --db /tmp/s.db
        somna eval scenarios scenarios/ --ask-in other --translations tr.json --db /tmp/o.db
    """
    _check_baseline(baseline)
    if ask_in not in ("same", "other"):
        raise typer.BadParameter(
            f"ask questions in 'same' or 'other', not {ask_in!r}.", param_hint="'--ask-in'"
        )
    if translations is not None and ask_in != "other":
        raise typer.BadParameter(
            "translations are read only with --ask-in other.", param_hint="'--translations'"
        )
    _check_json_path(json_path)
    with reported():
        read = read_scenarios(paths)
        table = None if translations is None else read_translations(translations)
    with open_memory(ctx, db) as memory:
        report = evaluate_scenarios(
            memory,
            read,
            baseline=baseline is not None,
            ask_in="other" if ask_in == "other" else "same",
            translations=table,
            progress=lambda line: typer.echo(line, err=True),
        )
    _print_report(
        report, json_path, lambda: scenario_tables(report), lambda: scenario_lines(report)
    )


def _check_baseline(baseline: str | None) -> None:
    if baseline is not None and baseline != "turns":
        raise typer.BadParameter(
            f"the only baseline is 'turns', not {baseline!r}.", param_hint="'--baseline'"
        )


def _check_json_path(json_path: Path | None) -> None:
    if json_path is not None and str(json_path) != _STDOUT and not json_path.parent.is_dir():
        raise typer.BadParameter(
            f"the folder of {str(json_path)!r} does not exist.", param_hint="'--json'"
        )


def _print_report(
    report: BaseModel,
    json_path: Path | None,
    tables: Callable[[], Iterable[RenderableType]],
    lines: Callable[[], Iterable[str]],
) -> None:
    """Print a report as --json says: JSON alone on stdout, or the tables and lines (and,
    where the JSON went to a file, where); the tables are built only when shown."""
    if json_path is not None:
        text = report.model_dump_json(indent=2)
        if str(json_path) == _STDOUT:
            typer.echo(text)
            return
        try:
            json_path.write_text(text + "\n", encoding="utf-8")
        except OSError as exc:
            typer.echo(f"Error: cannot write {json_path}: {exc.strerror or exc}.", err=True)
            raise typer.Exit(1) from exc
    render.show(*tables())
    for line in lines():
        render.say(line)
    if json_path is not None:
        render.say(f"Full report written to {json_path}.", style="dim")


def _share(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.1f}%"


def _number(value: float | None, unit: str = "") -> str:
    return "n/a" if value is None else f"{value:,.1f}{unit}"


def report_tables(report: LocomoReport, width: int) -> list[RenderableType]:
    """Recall per category and overall, per conversation, what each became, and per rule,
    each in tables no wider than `width`."""
    ks = report.k_values
    baseline = bool(report.overall.baseline_recall)

    def recall_columns(groups: list[GroupFigures]) -> list[Column]:
        def column(header: str, cell: Callable[[GroupFigures], str]) -> Column:
            return Column(header, [cell(g) for g in groups])

        def at_k(
            name: str, recall: Callable[[GroupFigures], dict[int, float | None]]
        ) -> list[Column]:
            return [Column(f"{name}@{k}", [_share(recall(g).get(k)) for g in groups]) for k in ks]

        return [
            column("questions", lambda g: str(g.questions)),
            column("scored", lambda g: str(g.scored)),
            *at_k("evidence", lambda g: g.evidence_recall),
            *(at_k("turns", lambda g: g.baseline_recall) if baseline else []),
            *at_k("session", lambda g: g.session_recall),
            column("coverage", lambda g: _share(g.coverage)),
            column("in context", lambda g: _share(g.context_with_evidence)),
            column("facts/block", lambda g: _number(g.context_facts)),
        ]

    names = [f"{c} {CATEGORY_NAMES[c]}" for c in report.by_category]
    groups = [*report.by_category.values(), report.overall]
    recall = fitted(
        "Recall by question category",
        Column("category", [*names, "all"], left=True, sections=frozenset({len(names) - 1})),
        recall_columns(groups),
        width,
    )
    scored = [c for c in report.conversations if c.figures is not None]
    by_file = fitted(
        "Recall by conversation",
        Column("file", [Text(Path(c.path).name) for c in scored], left=True),
        recall_columns([c.figures for c in scored if c.figures is not None]),
        width,
    )
    items = report.conversations

    def stored_column(header: str, cell: Callable[[ConversationFigures], str]) -> Column:
        return Column(header, [cell(c) for c in items])

    stored = fitted(
        "What memory holds",
        Column("file", [Text(Path(c.path).name) for c in items], left=True),
        [
            stored_column("sessions", lambda c: str(c.sessions)),
            stored_column("turns", lambda c: str(c.turns)),
            stored_column("facts", lambda c: str(c.facts_active)),
            stored_column("expired", lambda c: str(c.facts_expired)),
            stored_column(
                "summaries", lambda c: f"{c.session_summaries} sessions, {c.day_digests} days"
            ),
            stored_column("facts/turn", lambda c: f"{c.facts_per_turn:.3f}"),
            stored_column("items/turn", lambda c: f"{c.items_per_turn:.3f}"),
            stored_column(
                "observations", lambda c: f"{_share(c.observation_recall)} of {c.observations}"
            ),
            stored_column(
                "consolidation",
                lambda c: (
                    "skipped"
                    if c.consolidation is None
                    else f"{c.consolidation.seconds:.1f} s, {c.consolidation.llm_calls} LLM calls"
                ),
            ),
        ],
        width,
    )
    totals: dict[str, tuple[int, int]] = {}
    for item in report.conversations:
        for name, figures in item.rules.items():
            count, on_reference = totals.get(name, (0, 0))
            totals[name] = (count + figures.items, on_reference + figures.on_reference)
    ordered = sorted(totals.items(), key=lambda pair: -pair[1][0])
    rules = fitted(
        "What each extraction rule stored",
        Column("rule", [name for name, _ in ordered], left=True),
        [
            Column("items", [str(n) for _, (n, _) in ordered]),
            Column("on a reference turn", [_share(r / n) for _, (n, r) in ordered]),
        ],
        width,
    )
    return spaced(*recall, *by_file, *stored, *(rules if totals else []))


def report_lines(report: LocomoReport) -> list[str]:
    """The figures that are not per category: latency, context size, warnings."""
    latency, tokens = report.latency_ms, report.context_tokens
    lines = [
        f"Recall latency: p50 {_number(latency.p50, ' ms')}, p95 {_number(latency.p95, ' ms')} "
        f"over {latency.count} questions.",
        f"Context block: mean {_number(tokens.mean)} tokens, p95 {_number(tokens.p95)}.",
        "evidence@k: share of a question's evidence turns quoted by the facts among the first "
        "k results; session@k: share of its sessions behind any of them; coverage: share of "
        "its evidence turns behind any active fact (the ceiling of evidence@k); in context: "
        "share of context blocks holding a fact on an evidence turn; facts/block: mean facts "
        "in a context block.",
        "items/turn: stored facts per turn; observations: share of LoCoMo's reference "
        "observations whose turn is behind a stored fact.",
    ]
    if report.overall.baseline_recall:
        lines.append(
            "turns@k: the same questions put to an index of every raw turn (full text and "
            "the embedder, fused by rank)."
        )
    expired = report.overall.expired
    if expired:
        lines.append(
            f"Category TTLs expired the only facts behind {_share(expired)} of the evidence "
            "turns (see expired_evidence in --json)."
        )
    reused = sum(c.sessions_already_stored for c in report.conversations)
    if reused:
        lines.append(
            f"Warning: {reused} sessions were already in the database; these figures describe "
            "its current state. Use a fresh --db for a clean run."
        )
    return lines
