"""`somna facts …`: add, resolve, list, show, history, edit and delete facts of a profile."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Group, RenderableType

from somna.errors import InvalidInputError
from somna.interfaces.cli import render
from somna.interfaces.cli.options import (
    AsOfOption,
    DbOption,
    JsonOption,
    ProfileArg,
    open_memory,
    parse_when,
    read_memory,
    reported,
)
from somna.memory import History
from somna.model import Fact, FactStatus, FactType, Verdict

__all__ = ["facts"]

facts = typer.Typer(name="facts", no_args_is_help=True)

_T = TypeVar("_T")

_PAGE = 10_000
"""Facts read at once by `facts list --all` (the most one read may return)."""

FactIdArg = Annotated[str, typer.Argument(metavar="ID", help="The fact's id (fct_…).")]
TypeOption = Annotated[
    FactType | None, typer.Option("--type", help="The kind of fact.", show_default=False)
]
CategoryOption = Annotated[
    str | None, typer.Option(help="A free label such as preference, decision or client_info.")
]
SubjectOption = Annotated[
    str | None, typer.Option(help="Who or what the fact is about (default: the user).")
]


def _print(found: _T, as_json: bool, table: Callable[[_T], RenderableType]) -> None:
    """Print what a read found: JSON when asked, else its table (`render.show_list` for one)."""
    if as_json:
        render.print_json(found)
    else:
        render.show(table(found))


@facts.callback()
def facts_group() -> None:
    """Add, judge, list, inspect, correct and retire facts.

    A fact is one sentence about a profile's user, with a type, a category,
    a valid time and a status; changes never erase it, they add history.

    Example:

        somna facts add alice "Prefers tea to coffee." --category preference
        somna facts list alice
    """


@facts.command("add")
def add_fact(
    ctx: typer.Context,
    profile: ProfileArg,
    text: Annotated[str, typer.Argument(metavar="TEXT", help="One self-contained sentence.")],
    type_: TypeOption = None,
    category: CategoryOption = None,
    subject: SubjectOption = None,
    confidence: Annotated[
        float, typer.Option(min=0.0, max=1.0, help="How sure the source is, 0 to 1.")
    ] = 0.7,
    verified: Annotated[
        bool, typer.Option("--verified", help="Store it as verified by a person.")
    ] = False,
    valid_from: Annotated[
        datetime | None,
        typer.Option(
            parser=parse_when, metavar="DATE", help="Since when it is true (default: now)."
        ),
    ] = None,
    valid_to: Annotated[
        datetime | None,
        typer.Option(
            parser=parse_when, metavar="DATE", help="Until when it is true (default: open)."
        ),
    ] = None,
    quote: Annotated[
        str | None, typer.Option(help="The words it comes from, kept as evidence.")
    ] = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Store a fact, or reinforce it when the same text is already known.

    Prints the stored fact's id, whether it is new or was reinforced, and the
    active facts that are similar to it: judge each pair with `somna facts resolve`.

    Example:

        somna facts add alice "Prefers tea to coffee." --category preference
        somna facts add alice "Lives in Berlin." --valid-from 2025-03-01 --quote "I moved to Berlin"
    """
    with open_memory(ctx, db) as memory:
        added = memory.add_fact(
            profile,
            text,
            type=type_ or FactType.FACT,
            category=category,
            subject=subject,
            confidence=confidence,
            verified=verified,
            valid_from=valid_from,
            valid_to=valid_to,
            quote=quote,
        )
    if as_json:
        render.print_json(added)
        return
    fact = added.fact
    if added.created:
        render.say(f"Stored new fact {fact.id}.")
    else:
        render.say(f"Reinforced known fact {fact.id} (confidence now {fact.confidence:.2f}).")
    if added.similar:
        render.show(render.similar_table(added.similar, title="Similar active facts"))
    if added.candidates:
        render.show(
            render.similar_table(
                added.candidates, title="Facts of the same subject it may contradict"
            )
        )
    if added.similar or added.candidates:
        render.say(
            f"Judge each pair with: somna facts resolve {profile} {fact.id} <id> "
            "duplicate|supersedes|contradicts|distinct",
            style="dim",
        )


@facts.command("resolve")
def resolve(
    ctx: typer.Context,
    profile: ProfileArg,
    new_id: Annotated[str, typer.Argument(metavar="NEW_ID", help="The newer fact.")],
    existing_id: Annotated[
        str, typer.Argument(metavar="EXISTING_ID", help="The fact it is judged against.")
    ],
    verdict: Annotated[
        Verdict, typer.Argument(metavar="VERDICT", help="How NEW_ID relates to EXISTING_ID.")
    ],
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Judge how a new fact relates to an existing one, and apply the verdict.

    duplicate: NEW_ID is retired and EXISTING_ID reinforced.
    supersedes: EXISTING_ID stays true until NEW_ID's valid-from, then NEW_ID replaces it.
    contradicts: both are disputed and a conflict opens (see `somna conflicts`).
    distinct: nothing changes.

    Example:

        somna facts resolve alice fct_01NEW fct_01OLD supersedes
    """
    with open_memory(ctx, db) as memory:
        outcome = memory.resolve(profile, new_id, existing_id, verdict)
    if as_json:
        render.print_json(outcome)
        return
    messages = {
        Verdict.DUPLICATE: f"{new_id} is a duplicate: retired, and {existing_id} reinforced.",
        Verdict.SUPERSEDES: f"{new_id} supersedes {existing_id}, which stays in history.",
        Verdict.CONTRADICTS: f"{new_id} and {existing_id} contradict each other: both disputed.",
        Verdict.DISTINCT: "The facts are distinct: nothing changed.",
    }
    render.say(messages[verdict])
    render.show(render.facts_table(outcome.facts))
    if outcome.conflict is not None:
        render.say(
            f"Conflict {outcome.conflict.id} is open. Settle it with: somna conflicts resolve "
            f"{profile} {outcome.conflict.id} a_true|b_true|neither|corrected|defer",
            style="dim",
        )


@facts.command("list")
def list_facts(
    ctx: typer.Context,
    profile: ProfileArg,
    type_: Annotated[
        list[FactType] | None,
        typer.Option("--type", help="Only these types (repeat the option for several)."),
    ] = None,
    status: Annotated[
        list[FactStatus] | None,
        typer.Option(help="Only these statuses (repeatable; default: the active ones)."),
    ] = None,
    category: CategoryOption = None,
    subject: SubjectOption = None,
    text: Annotated[str | None, typer.Option(help="Only facts whose text contains this.")] = None,
    as_of: AsOfOption = None,
    limit: Annotated[
        int, typer.Option(min=1, max=_PAGE, help="At most this many facts, newest first.")
    ] = 100,
    all_: Annotated[
        bool, typer.Option("--all", help="Every matching fact, whatever --limit.")
    ] = False,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """List a profile's facts, newest first: by default the active ones.

    Options combine; --status and --type can be repeated. --as-of lists the facts
    that were true at that moment, including those superseded since. When more
    facts match than --limit, a line on stderr says how many and how to see them.

    Example:

        somna facts list alice
        somna facts list alice --status disputed --status retired
        somna facts list alice --category preference --as-of 2025-01-01 --json
        somna facts list alice --all --json > facts.json
    """
    filters: dict[str, Any] = {
        "type": type_ or None,
        "status": status or None,
        "category": category,
        "subject": subject,
        "text": text,
        "as_of": as_of,
    }
    with read_memory(ctx, db) as memory:
        total = memory.count_facts(profile, **filters)
        found: list[Fact] = []
        while len(found) < (total if all_ else min(limit, total)):
            found += memory.list_facts(
                profile, **filters, limit=limit if not all_ else _PAGE, offset=len(found)
            )
            if not all_:
                break
    if len(found) < total:
        more = f"--limit {total} or --all" if total <= _PAGE else "--all"
        typer.echo(
            f"Showing the {len(found)} newest of {total} matching facts; add {more} to see "
            "every one.",
            err=True,
        )
    render.show_list(found, as_json, render.facts_table, "No facts match.")


@facts.command("show")
def show(
    ctx: typer.Context,
    profile: ProfileArg,
    fact_id: FactIdArg,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Show every field of one fact.

    Its versions, events and evidence are in `somna facts history`.

    Example:

        somna facts show alice fct_01HZX3Q8T4V6
    """
    with read_memory(ctx, db) as memory:
        fact = memory.get(profile, fact_id)
    _print(fact, as_json, render.fact_table)


@facts.command("history")
def history(
    ctx: typer.Context,
    profile: ProfileArg,
    fact_id: FactIdArg,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Show a fact's versions, oldest first, then every event and piece of evidence.

    Works from any version's id: the whole chain is shown.

    Example:

        somna facts history alice fct_01HZX3Q8T4V6
    """
    with read_memory(ctx, db) as memory:
        found = memory.history(profile, fact_id)
    _print(found, as_json, _history_tables)


def _history_tables(found: History) -> Group:
    """A chain's versions and events, then its evidence when it has any."""
    tables: list[RenderableType] = [
        render.versions_table(found.versions, title="Versions"),
        render.events_table(found.events, found.versions, title="Events"),
    ]
    if found.evidence:
        tables.append(render.evidence_table(found.evidence, found.versions, title="Evidence"))
    return Group(*tables)


@facts.command("edit")
def edit(
    ctx: typer.Context,
    profile: ProfileArg,
    fact_id: FactIdArg,
    text: Annotated[str | None, typer.Option(help="The corrected sentence.")] = None,
    category: CategoryOption = None,
    type_: TypeOption = None,
    subject: SubjectOption = None,
    confidence: Annotated[float | None, typer.Option(min=0.0, max=1.0)] = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Correct a fact: a new verified version replaces it, the old one stays in history.

    Give at least one of the options; the rest is copied from the current version.

    Example:

        somna facts edit alice fct_01HZX3Q8T4V6 --text "Prefers green tea to coffee."
    """
    changes: dict[str, Any] = {
        "text": text,
        "type": type_,
        "category": category,
        "subject": subject,
        "confidence": confidence,
    }
    with reported():
        if all(value is None for value in changes.values()):
            raise InvalidInputError(
                "Nothing to change: give --text, --category, --type, --subject or --confidence."
            )
    with open_memory(ctx, db) as memory:
        fact = memory.update(profile, fact_id, **changes)
    if as_json:
        render.print_json(fact)
        return
    render.say(f"Fact {fact_id} is replaced by its new version {fact.id}.")
    render.show(render.facts_table([fact]))


@facts.command("delete")
def delete(
    ctx: typer.Context,
    profile: ProfileArg,
    fact_id: FactIdArg,
    reason: Annotated[str, typer.Option(help="Why, kept in the history.")] = "deleted",
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Retire a fact: it leaves recall and lists, and stays in its history.

    Nothing is destroyed; `somna facts history` still shows it.

    Example:

        somna facts delete alice fct_01HZX3Q8T4V6 --reason "user asked"
    """
    with open_memory(ctx, db) as memory:
        fact = memory.delete(profile, fact_id, reason=reason)
    if as_json:
        render.print_json(fact)
    else:
        render.say(f"Retired fact {fact.id}: {fact.text}")
