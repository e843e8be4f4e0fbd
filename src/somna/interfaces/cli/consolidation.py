"""`somna consolidate`, `somna runs` and `somna summaries`: the nightly job and what it left.

`consolidate` shows a progress bar on stderr while it reads the due sessions,
then the run's counts as a table on stdout, and the facts it rejected and the
sessions that failed below it. Failed sessions are reported, not fatal: the
exit code is 0 unless the run as a whole raised.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from somna.errors import SomnaError
from somna.interfaces.cli import render
from somna.interfaces.cli.interrupt import (
    ConcurrencyOption,
    exit_code,
    interrupted_line,
    signals_interrupt,
)
from somna.interfaces.cli.llm import LlmRetriesOption, LlmTimeoutOption, model_overrides
from somna.interfaces.cli.options import (
    DbOption,
    IdleHoursOption,
    JsonOption,
    ProfileArg,
    ProfileFilterOption,
    open_memory,
)
from somna.model import Run, Session, SummaryKind

__all__ = [
    "SHOWN",
    "OnSession",
    "consolidate",
    "logged_run",
    "report_run",
    "run_line",
    "runs",
    "scope_words",
    "session_progress",
    "summaries",
    "weak_model_advice",
]

SHOWN = 10
"""How many rejections or failures are listed under the run's table; the rest are counted."""

OnSession = Callable[[Session], None]
"""Called once per session the run has finished with."""


@contextmanager
def session_progress(
    enabled: bool = True, console: Console | None = None
) -> Iterator[OnSession | None]:
    """A progress bar on stderr, advanced once per consolidated session; None when disabled.

    Shown only on a terminal: a log or a pipe gets nothing. The number of due
    sessions is not known in advance, so the bar pulses and counts; it
    disappears when the block ends.
    """
    screen = console or Console(stderr=True)
    if not enabled or not screen.is_terminal:
        yield None
        return
    columns = (
        SpinnerColumn(),
        TextColumn("Consolidating"),
        BarColumn(),
        TextColumn("sessions: {task.completed}"),
        TimeElapsedColumn(),
        TextColumn("{task.fields[last]}", style="dim"),
    )
    with Progress(*columns, console=screen, transient=True) as bar:
        task = bar.add_task("consolidate", total=None, last="")

        def advance(session: Session) -> None:
            bar.update(task, advance=1, last=session.key)

        yield advance


def run_line(run: Run) -> str:
    """One line about a run: its status, sessions and what happened to facts."""
    facts = (
        f"{run.facts_added} added, {run.facts_reinforced} reinforced, "
        f"{run.facts_superseded} superseded, {run.facts_disputed} disputed, "
        f"{run.facts_rejected} rejected, {run.facts_expired} expired"
    )
    sessions = f"{render.plural(run.sessions_consolidated, 'session')} consolidated"
    failed = f", {run.sessions_failed} failed" if run.sessions_failed else ""
    took = f" in {run.duration_s:.1f} s" if run.duration_s is not None else ""
    return f"Run {run.id} {run.status}{took}: {sessions}{failed}; facts {facts}."


def logged_run(stamp: str, consolidate: Callable[[], Run]) -> Run | None:
    """Run `consolidate` for a loop that logs one line a run, starting with `stamp`: the
    run's counts on stdout, or its error on stderr, then None (the loop goes on)."""
    try:
        run = consolidate()
    except SomnaError as error:
        typer.echo(f"{stamp} Error: {' '.join(str(error).split())}", err=True)
        return None
    render.say(f"{stamp} {run_line(run)}")
    return run


def scope_words(profile: str | None) -> str:
    """What a loop consolidates, for its first line: one profile or every one."""
    return f'profile "{profile}"' if profile else "every profile"


def weak_model_advice(run: Run) -> str | None:
    """What to change when no session was consolidated and every failure says the model is
    too weak for extraction (its reply cut at the budget, or its summary ungrounded)."""
    errors = [str(f.get("error", "")) for f in run.failures if "profile" not in f]
    if run.sessions_consolidated or not errors:
        return None
    cut = sum("cut at its output limit" in e for e in errors)
    ungrounded = sum("not grounded" in e for e in errors)
    if cut + ungrounded < len(errors):
        return None
    why = []
    if cut:
        why.append(f"{render.plural(cut, 'reply', 'replies')} ran past the output limit")
    if ungrounded:
        summaries = render.plural(ungrounded, "summary", "summaries")
        why.append(f"{summaries} did not match the conversation")
    remedy = "use an instruction-tuned model of 7-8B parameters or more (see docs/llm.md)"
    if cut:
        remedy += ", or raise SOMNA_LLM_MAX_TOKENS_EXTRACT if its replies were nearly done"
    return (
        f"No session was consolidated: {' and '.join(why)}. The model is too weak to "
        f"extract facts: {remedy}."
    )


def _listed(title: str, lines: Sequence[str]) -> None:
    if not lines:
        return
    render.say("")
    render.say(title, style="bold")
    for line in lines[:SHOWN]:
        render.say(f"  - {line}")
    if len(lines) > SHOWN:
        render.say(f"  … and {len(lines) - SHOWN} more")


def _rejection(item: dict[str, Any]) -> str:
    return f"{item.get('text', '?')} ({item.get('reason', 'no reason given')})"


def _failure(item: dict[str, Any]) -> str:
    if "profile" in item:  # the profile failed as a whole; the others went on
        return f"profile {item['profile']}: {item.get('error', '?')}"
    return f"session {item.get('key') or item.get('session', '?')}: {item.get('error', '?')}"


def report_run(run: Run, idle_hours: float) -> None:
    """The run's table, then its rejected facts and failed sessions, at most `SHOWN` of each."""
    took = f" in {run.duration_s:.1f} s" if run.duration_s is not None else ""
    render.say(f"Run {run.id} {run.status}{took}.")
    if run.dry_run:
        render.say(
            "Dry run: nothing was written. Each session was compared with the facts stored "
            "now, not with those found earlier in this run."
        )
    if run.sessions_seen == 0 and run.sessions_held and run.held_until is not None:
        render.say(
            f"No session was taken: {render.plural(run.sessions_held, 'due session')} "
            f"{'is' if run.sessions_held == 1 else 'are'} held by another worker, the last "
            f"until {run.held_until:%Y-%m-%d %H:%M} UTC (SOMNA_LEASE_MINUTES).",
        )
    elif run.sessions_seen == 0:
        render.say(
            f"No session was due (quiet for {idle_hours:g} h and not yet consolidated).",
            style="dim",
        )
    render.show(render.run_table(run))
    _listed(f"Rejected facts ({run.facts_rejected}):", [_rejection(r) for r in run.rejections])
    _listed(
        f"Failed sessions ({run.sessions_failed}), left for the next run:",
        [_failure(f) for f in run.failures],
    )
    advice = weak_model_advice(run)
    if advice is not None:
        render.say("")
        render.say(advice)


def consolidate(
    ctx: typer.Context,
    profile: ProfileFilterOption = None,
    dry_run: Annotated[
        bool,
        typer.Option("--dry-run", help="Call the model and count, but write nothing."),
    ] = False,
    idle_hours: IdleHoursOption = None,
    limit: Annotated[
        int | None,
        typer.Option("--limit", metavar="N", min=1, help="At most this many sessions."),
    ] = None,
    concurrency: ConcurrencyOption = None,
    llm_timeout: LlmTimeoutOption = None,
    llm_retries: LlmRetriesOption = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Consolidate the quiet conversations into facts: the nightly job, run now.

    Each due session is read by the configured LLM once; its facts are checked
    against their quotes, reconciled with what the profile knows (reinforced,
    superseded, disputed) and written with a summary; its messages are archived.
    Prints the run's counts, then the rejected facts and the failed sessions.
    Failed sessions do not change the exit code; they are retried next run.
    Ctrl-C or SIGTERM stops at once: the sessions not written yet are given
    back and the run is recorded as interrupted (exit 130, or 143 on SIGTERM).

    Example:

        somna consolidate
        somna consolidate --profile alice --idle-hours 0 --dry-run
        somna consolidate --limit 50 --json --concurrency 16
    """
    run: Run | None = None
    try:
        model = model_overrides(llm_timeout, llm_retries)
        with signals_interrupt(), open_memory(ctx, db, **model) as memory:
            idle = memory.settings.idle_hours if idle_hours is None else idle_hours
            with session_progress(enabled=not as_json) as progress:
                run = memory.consolidate(
                    profile,
                    idle_hours=idle_hours,
                    limit=limit,
                    dry_run=dry_run,
                    progress=progress,
                    concurrency=concurrency,
                )
    except KeyboardInterrupt as stop:
        if run is None:
            typer.echo(interrupted_line(), err=True)
            raise typer.Exit(exit_code(stop)) from None
        # The run had ended and was recorded: the signal came too late to stop it.
    if as_json:
        render.print_json(render.run_data(run))
    else:
        report_run(run, idle)


def runs(
    ctx: typer.Context,
    limit: Annotated[int, typer.Option("--limit", min=1, help="How many runs to show.")] = 20,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """List the latest consolidation runs, newest first, with what each did.

    `sessions` is consolidated/seen; dry runs are not recorded.

    Example:

        somna runs
        somna runs --limit 5 --json
    """
    with open_memory(ctx, db) as memory:
        found = memory.runs(limit)
    if as_json:
        render.print_json([render.run_data(run) for run in found])
    elif found:
        render.show(render.runs_table(found))
    else:
        render.say("No consolidation runs yet; start one with: somna consolidate", style="dim")


def summaries(
    ctx: typer.Context,
    profile: ProfileArg,
    kind: Annotated[
        SummaryKind,
        typer.Option(
            "--kind", help="session: one per conversation; day: a digest; portrait: the persona."
        ),
    ] = SummaryKind.SESSION,
    limit: Annotated[int, typer.Option("--limit", min=1, help="How many to show.")] = 20,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """List a profile's summaries of one kind, newest first.

    Consolidation writes one per session and day digests, and refreshes the
    portrait when the profile's facts change.

    Example:

        somna summaries alice
        somna summaries alice --kind portrait --limit 1 --json
    """
    with open_memory(ctx, db) as memory:
        found = memory.summaries(profile, kind, limit)
    render.show_list(
        found,
        as_json,
        render.summaries_table,
        f"No {kind.value} summaries yet; `somna consolidate` writes them.",
    )
