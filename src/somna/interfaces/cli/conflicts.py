"""`somna conflicts …`: the pairs of facts that disagree, and how a person settles them."""

from __future__ import annotations

from typing import Annotated

import typer

from somna.interfaces.cli import render
from somna.interfaces.cli.options import DbOption, JsonOption, ProfileArg, open_memory, read_memory
from somna.model import ConflictStatus, Resolution

__all__ = ["Resolution", "conflicts"]

conflicts = typer.Typer(name="conflicts", no_args_is_help=True)

ConflictIdArg = Annotated[str, typer.Argument(metavar="CONFLICT_ID", help="The cfl_… id.")]
ResolutionArg = Annotated[
    Resolution, typer.Argument(metavar="RESOLUTION", help="Which side is true, or defer.")
]
CorrectionOption = Annotated[
    str | None, typer.Option(help="The true sentence; required with `corrected`.")
]


@conflicts.callback()
def conflicts_group() -> None:
    """List the facts that contradict each other, and settle them.

    A conflict opens when `somna facts resolve` judges two facts contradictory;
    both stay out of recall until a person decides.

    Example:

        somna conflicts list alice
        somna conflicts resolve alice cfl_01HZX3Q8T4V6 b_true
    """


@conflicts.command("list")
def list_conflicts(
    ctx: typer.Context,
    profile: ProfileArg,
    status: Annotated[
        ConflictStatus, typer.Option(help="open also shows deferred ones whose delay is over.")
    ] = ConflictStatus.OPEN,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """List conflicts with both facts side by side: open ones by default.

    Under each conflict id: its status, date, and the ids of facts a and b (and c, the
    correction, once one is stored).

    Example:

        somna conflicts list alice
        somna conflicts list alice --status resolved --json
    """
    with read_memory(ctx, db) as memory:
        pairs = memory.conflicts(profile, status)
    render.show_list(pairs, as_json, render.conflicts_table, f"No {status.value} conflicts.")


@conflicts.command("resolve")
def resolve_conflict(
    ctx: typer.Context,
    profile: ProfileArg,
    conflict_id: ConflictIdArg,
    resolution: ResolutionArg,
    correction: CorrectionOption = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Settle a conflict: a_true, b_true, neither, corrected (with --correction), or defer.

    The losing facts are retired; a winner comes back verified once no other
    conflict holds it. `corrected` retires both and stores --correction as a new
    verified fact. `defer` brings the conflict back after the configured delay.

    Example:

        somna conflicts resolve alice cfl_01HZX3Q8T4V6 a_true
        somna conflicts resolve alice cfl_01HZX3Q8T4V6 corrected --correction "Eats fish."
    """
    with open_memory(ctx, db) as memory:
        pair = memory.resolve_conflict(
            profile, conflict_id, resolution.value, correction=correction
        )
    if as_json:
        render.print_json(pair)
        return
    conflict = pair.conflict
    if resolution is Resolution.DEFER and conflict.deferred_until is not None:
        render.say(f"Conflict {conflict.id} deferred until {conflict.deferred_until:%Y-%m-%d}.")
    else:
        render.say(f"Conflict {conflict.id} resolved as {resolution.value}.")
    facts = [pair.fact_a, pair.fact_b, *([pair.correction] if pair.correction else [])]
    render.show(render.facts_table(facts))
