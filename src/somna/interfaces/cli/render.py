"""How results look: Rich tables for people, JSON for scripts.

Fact texts and other stored strings are wrapped in `rich.text.Text`, never
parsed as markup, so a fact such as "Uses [bold] tags." prints as written.
Text columns wrap; id columns do not, so an id can always be copied whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields, is_dataclass
from datetime import datetime
from typing import Any, TypeVar

import typer
from pydantic import BaseModel
from rich import box
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from somna.memory import ConflictPair, Recalled, SearchHit, Similar
from somna.model import Evidence, Fact, FactEvent, Profile, Run, Summary

__all__ = [
    "EXPIRED_WHY",
    "conflicts_table",
    "events_table",
    "evidence_table",
    "fact_table",
    "facts_table",
    "plural",
    "print_json",
    "profiles_table",
    "quoted_facts_table",
    "run_data",
    "run_table",
    "runs_table",
    "say",
    "search_table",
    "show",
    "show_list",
    "similar_table",
    "summaries_table",
    "to_data",
    "versions_table",
]

_T = TypeVar("_T")


# -- JSON ----------------------------------------------------------------------------


def to_data(value: Any) -> Any:
    """Plain JSON data: entities through `model_dump(mode="json")`, result dataclasses by field."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, list | tuple):
        return [to_data(item) for item in value]
    if isinstance(value, dict):
        return {str(key): to_data(item) for key, item in value.items()}
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def print_json(value: Any) -> None:
    """Print `value` as indented JSON on stdout, and nothing else."""
    typer.echo(json.dumps(to_data(value), indent=2, ensure_ascii=False))


def run_data(run: Run) -> dict[str, Any]:
    """A run as JSON data, with its `duration_s` (a property the model does not dump)."""
    data: dict[str, Any] = to_data(run)
    data["duration_s"] = run.duration_s
    return data


# -- text ----------------------------------------------------------------------------


def _console() -> Console:
    # Built per call so that it writes to whatever sys.stdout is now (tests swap it).
    return Console(highlight=False)


def show(*renderables: RenderableType) -> None:
    """Print tables or texts on stdout."""
    console = _console()
    for renderable in renderables:
        console.print(renderable)


def say(message: str, style: str = "") -> None:
    """One line of narration, printed as written: no markup, no hard wrapping."""
    _console().print(Text(message, style=style), soft_wrap=True)


def show_list(
    found: Sequence[_T],
    as_json: bool,
    table: Callable[[Sequence[_T]], RenderableType],
    empty: str,
) -> None:
    """Print what a list command found: JSON when asked, else its table, or the `empty` line
    (dim) so that nothing found never looks like nothing printed."""
    if as_json:
        print_json(found)
    elif found:
        show(table(found))
    else:
        say(empty, style="dim")


def degraded(notes: Sequence[str]) -> None:
    """One line on stderr per part that was down and done without (stdout stays the answer,
    JSON included)."""
    for note in notes:
        typer.echo(f"Degraded: {note}", err=True)


def plural(count: int, word: str, many: str | None = None) -> str:
    """ "1 session", "2 sessions", "0 facts"."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def _date(value: datetime | None) -> str:
    return "" if value is None else value.date().isoformat()


def _time(value: datetime | None) -> str:
    return "" if value is None else value.strftime("%Y-%m-%d %H:%M")


def _score(value: float | None, digits: int = 3) -> str:
    return "" if value is None else f"{value:.{digits}f}"


_WIDE = 120
_IDS = {"id"}
_PROSE = {"text", "quote", "fact a", "fact b", "before → after", "evidence", "facts"}


def _table(title: str | None, *columns: str) -> Table:
    """A compact table: ids never wrap, prose columns take the spare width and wrap."""
    table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    for name in columns:
        if name in _IDS:
            table.add_column(name, no_wrap=True)
        elif name in _PROSE:
            table.add_column(name, overflow="fold", ratio=1)
        else:
            table.add_column(name, overflow="fold")
    return table


def _wide() -> bool:
    """Room for one column per field; narrower terminals get the details under the text."""
    return _console().width >= _WIDE


def _text_with(fact: Fact, *details: str) -> Text:
    """The fact's text, then its details on a dim second line."""
    cell = Text(fact.text)
    cell.append("\n" + " · ".join(d for d in details if d), style="dim")
    return cell


def facts_table(facts: Iterable[Fact], title: str | None = None) -> Table:
    """id, status, type, category, valid from and text; on narrow terminals, id and text."""
    if not _wide():
        table = _table(title, "id", "text")
        for fact in facts:
            details = (fact.status.value, fact.type.value, fact.category or "")
            table.add_row(fact.id, _text_with(fact, *details, f"from {_date(fact.valid_from)}"))
        return table
    table = _table(title, "id", "status", "type", "category", "valid from", "text")
    for fact in facts:
        table.add_row(
            fact.id,
            fact.status.value,
            fact.type.value,
            Text(fact.category or ""),
            _date(fact.valid_from),
            Text(fact.text),
        )
    return table


def fact_table(fact: Fact) -> Table:
    """Every field of one fact, one per row."""
    table = Table(box=box.SIMPLE, show_header=False, pad_edge=False)
    table.add_column("field", style="bold", no_wrap=True)
    table.add_column("value", overflow="fold")
    for name, value in fact.model_dump(mode="json").items():
        table.add_row(name, Text("" if value is None else str(value)))
    return table


def similar_table(similar: Sequence[Similar], title: str | None = None) -> Table:
    table = _table(title, "id", "similarity", "text")
    for near in similar:
        table.add_row(near.fact.id, _score(near.similarity), Text(near.fact.text))
    return table


def search_table(hits: Sequence[SearchHit], title: str | None = None) -> Table:
    """rank, score, text rank, vector rank, similarity, date and text; narrow: rank and text."""
    if not _wide():
        table = _table(title, "rank", "text")
        for rank, hit in enumerate(hits, start=1):
            signals = (
                f"score {_score(hit.score, 4)}",
                "" if hit.text_rank is None else f"text #{hit.text_rank}",
                "" if hit.vector_rank is None else f"vector #{hit.vector_rank}",
                "" if hit.similarity is None else f"similarity {_score(hit.similarity)}",
                _date(hit.fact.valid_from),
            )
            table.add_row(str(rank), _text_with(hit.fact, *signals))
        return table
    table = _table(title, "rank", "score", "text rank", "vector rank", "similarity", "date", "text")
    for rank, hit in enumerate(hits, start=1):
        table.add_row(
            str(rank),
            _score(hit.score, 4),
            "" if hit.text_rank is None else str(hit.text_rank),
            "" if hit.vector_rank is None else str(hit.vector_rank),
            _score(hit.similarity),
            _date(hit.fact.valid_from),
            Text(hit.fact.text),
        )
    return table


def conflicts_table(pairs: Sequence[ConflictPair], title: str | None = None) -> Table:
    """Both facts of each conflict side by side; ids and outcome under the conflict's id."""
    table = _table(title, "conflict", "fact a", "fact b")
    table.columns[0].no_wrap = True  # ids stay whole, to be copied; the correction goes right
    for pair in pairs:
        conflict = pair.conflict
        state = conflict.status.value
        if conflict.resolution is not None:
            state = f"{state}: {conflict.resolution.value}"
        head = Text(conflict.id)
        head.append(
            f"\n{state} · {_date(conflict.resolved_at or conflict.created_at)}"
            f"\na: {conflict.fact_a_id}\nb: {conflict.fact_b_id}",
            style="dim",
        )
        if pair.correction is not None:
            head.append(f"\nc: {pair.correction.id}", style="dim")
        table.add_row(
            head, *(_text_with(fact, fact.status.value) for fact in (pair.fact_a, pair.fact_b))
        )
        if pair.correction is not None:
            table.add_row("", Text("c: ", style="dim") + _text_with(pair.correction, "correction"))
    return table


def _value(value: Any) -> str:
    """A stored value, short: timestamps to the minute."""
    if value is None:
        return "none"
    if isinstance(value, str) and len(value) >= 19 and value[10:11] == "T":
        try:
            return _time(datetime.fromisoformat(value))
        except ValueError:
            return value
    return str(value)


def _changes(event: FactEvent) -> Text:
    """`key: before → after`, one line per changed key (`key: value` when it is new)."""
    before, after = event.before or {}, event.after or {}
    lines = []
    for key in [*before, *(k for k in after if k not in before)]:
        new = _value(after.get(key))
        lines.append(f"{key}: {_value(before[key])} → {new}" if key in before else f"{key}: {new}")
    return Text("\n".join(lines))


def versions_table(versions: Sequence[Fact], title: str | None = None) -> Table:
    """A fact's version chain, oldest first, numbered v1, v2… for the events table."""
    table = _table(title, "version", "id", "text")
    for number, fact in enumerate(versions, start=1):
        valid = f"valid {_date(fact.valid_from)} → {_date(fact.valid_to) or 'now'}"
        table.add_row(f"v{number}", fact.id, _text_with(fact, fact.status.value, valid))
    return table


def _numbers(versions: Sequence[Fact]) -> dict[str, str]:
    return {fact.id: f"v{number}" for number, fact in enumerate(versions, start=1)}


def events_table(
    events: Sequence[FactEvent], versions: Sequence[Fact], title: str | None = None
) -> Table:
    """Every event of the chain; `version` points into `versions_table`."""
    number = _numbers(versions)
    table = _table(title, "at", "action", "actor", "version", "before → after")
    for event in events:
        table.add_row(
            _time(event.at),
            event.action.value,
            Text(event.actor),
            number.get(event.fact_id, event.fact_id),
            _changes(event),
        )
    return table


def evidence_table(
    evidence: Sequence[Evidence], versions: Sequence[Fact], title: str | None = None
) -> Table:
    number = _numbers(versions)
    table = _table(title, "observed", "version", "quote")
    for item in evidence:
        table.add_row(
            _time(item.observed_at), number.get(item.fact_id, item.fact_id), Text(item.quote)
        )
    return table


def profiles_table(profiles: Sequence[Profile], title: str | None = None) -> Table:
    table = _table(title, "id", "name", "created")
    for profile in profiles:
        table.add_row(profile.id, Text(profile.name), _date(profile.created_at))
    return table


def quoted_facts_table(
    facts: Sequence[tuple[Fact, Sequence[Evidence]]], title: str | None = None
) -> Table:
    """Each fact with its valid time and every quote it comes from, dated."""

    def quotes(evidence: Sequence[Evidence]) -> Text:
        return Text("\n".join(f'{_date(e.observed_at)} "{e.quote}"' for e in evidence))

    def valid(fact: Fact) -> str:
        return f"{_date(fact.valid_from)} → {_date(fact.valid_to)}".rstrip()

    if not _wide():
        table = _table(title, "status", "text")
        for fact, evidence in facts:
            cell = _text_with(fact, fact.type.value, f"valid {valid(fact)}")
            cell.append("\n")
            cell.append_text(quotes(evidence))
            table.add_row(fact.status.value, cell)
        return table
    table = _table(title, "status", "type", "valid", "text", "evidence")
    for fact, evidence in facts:
        table.add_row(
            fact.status.value, fact.type.value, valid(fact), Text(fact.text), quotes(evidence)
        )
    return table


EXPIRED_WHY = (
    "Expired facts: a category's time to live (ttl_days) counts from when a fact was last "
    "said, not from when it was imported, so facts from old conversations imported today "
    "can expire the same night. Raise ttl_days (somna.toml, or a profile's Settings page) "
    "to keep them longer."
)


def _duration(seconds: float | None) -> str:
    return "" if seconds is None else f"{seconds:.1f} s"


def run_table(run: Run, title: str | None = None) -> Table:
    """One row per count of a consolidation run, in groups: sessions, facts, messages, model."""
    table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    table.add_column("what", no_wrap=True)
    table.add_column("count", justify="right", no_wrap=True)
    groups = (
        (
            ("sessions seen", run.sessions_seen),
            ("sessions consolidated", run.sessions_consolidated),
            ("sessions failed", run.sessions_failed),
        ),
        (
            ("facts added", run.facts_added),
            ("facts reinforced", run.facts_reinforced),
            ("facts superseded", run.facts_superseded),
            ("facts disputed", run.facts_disputed),
            ("facts rejected", run.facts_rejected),
            ("facts expired", run.facts_expired),
        ),
        (
            ("messages archived", run.messages_archived),
            ("messages purged", run.messages_purged),
        ),
        (
            ("LLM calls", run.llm_calls),
            ("prompt tokens", run.prompt_tokens),
            ("completion tokens", run.completion_tokens),
        ),
    )
    for group in groups:
        for index, (label, count) in enumerate(group):
            table.add_row(label, str(count), end_section=index == len(group) - 1)
    table.add_row("duration", _duration(run.duration_s))
    if run.facts_expired:
        table.caption = EXPIRED_WHY
        table.caption_justify = "left"
    return table


def _run_facts(run: Run) -> str:
    counts = (
        (run.facts_added, "added"),
        (run.facts_reinforced, "reinforced"),
        (run.facts_superseded, "superseded"),
        (run.facts_disputed, "disputed"),
        (run.facts_rejected, "rejected"),
        (run.facts_expired, "expired"),
    )
    return ", ".join(f"{count} {word}" for count, word in counts if count) or "none"


def _sessions(run: Run) -> str:
    failed = f" ({run.sessions_failed} failed)" if run.sessions_failed else ""
    return f"{run.sessions_consolidated}/{run.sessions_seen}{failed}"


_WIDE_RUNS = 140


def runs_table(runs: Sequence[Run], title: str | None = None) -> Table:
    """Recent runs: when, status, scope, sessions consolidated/seen, facts, model calls, time.

    Below 140 columns: the id, and the facts with the rest on a dim second line.
    """
    if _console().width < _WIDE_RUNS:
        table = _table(title, "id", "facts")
        for run in runs:
            cell = Text(_run_facts(run))
            details = (
                _time(run.started_at),
                run.status,
                run.profile_id or "all profiles",
                f"sessions {_sessions(run)}",
                plural(run.llm_calls, "LLM call"),
                _duration(run.duration_s),
            )
            cell.append("\n" + " · ".join(d for d in details if d), style="dim")
            table.add_row(run.id, cell)
        return table
    table = _table(
        title, "id", "started", "status", "profile", "sessions", "facts", "LLM calls", "duration"
    )
    for run in runs:
        table.add_row(
            run.id,
            _time(run.started_at),
            run.status,
            Text(run.profile_id or "all"),
            _sessions(run),
            Text(_run_facts(run)),
            str(run.llm_calls),
            _duration(run.duration_s),
        )
    return table


def summaries_table(summaries: Sequence[Summary], title: str | None = None) -> Table:
    """kind, the period covered and the text, newest first as given."""
    table = _table(title, "kind", "period", "text")
    for summary in summaries:
        start, end = _time(summary.period_start), _time(summary.period_end)
        if start and end and start[:10] == end[:10]:
            end = end[11:]
        period = f"{start} → {end}" if start else f"until {end}" if end else ""
        table.add_row(summary.kind.value, period, Text(summary.text))
    return table


def recalled_table(recalled: Sequence[Recalled], title: str | None = None) -> Table:
    """What recall brought back: kind, date, text, its quote and the signals that found it."""
    table = _table(title, "#", "kind", "date", "text", "why")
    for rank, item in enumerate(recalled, start=1):
        text = Text(item.text)
        if item.quote:
            text.append(f'\n"{item.quote}"', style="dim")
        found = [name.removesuffix("_rank") for name in item.signals if name.endswith("_rank")]
        why = f"{_score(item.score, 4)} via {', '.join(found)}"
        table.add_row(str(rank), item.kind, _date(item.valid_from), text, why)
    return table
