"""`somna profiles …`: the isolation units. `somna profiles` alone lists them."""

from __future__ import annotations

from typing import Annotated

import typer

from somna.interfaces.cli import render
from somna.interfaces.cli.options import CliState, DbOption, JsonOption, open_memory, read_memory

__all__ = ["profiles"]

profiles = typer.Typer(name="profiles", invoke_without_command=True)


@profiles.callback()
def profiles_group(ctx: typer.Context, as_json: JsonOption = False, db: DbOption = None) -> None:
    """List the profiles (the default), or create one.

    Each profile is one isolated memory: facts of one are never visible from another.

    Example:

        somna profiles
        somna profiles --json
        somna profiles create alice --name "Alice Martin"
    """
    if ctx.invoked_subcommand is None:
        list_profiles(ctx, as_json=as_json, db=db)
    elif db is not None:  # `somna profiles --db x.db create alice` means x.db too
        ctx.ensure_object(CliState).db = db


@profiles.command("list")
def list_profiles(ctx: typer.Context, as_json: JsonOption = False, db: DbOption = None) -> None:
    """List every profile of the database.

    The same as `somna profiles` with no subcommand.

    Example:

        somna profiles list --json
    """
    with read_memory(ctx, db) as memory:
        found = memory.list_profiles()
    render.show_list(
        found,
        as_json,
        render.profiles_table,
        "No profiles yet; create one with: somna profiles create NAME",
    )


@profiles.command("create")
def create_profile(
    ctx: typer.Context,
    profile: Annotated[
        str, typer.Argument(metavar="NAME", help="The profile id: letters, digits, _ . @ : -")
    ],
    name: Annotated[
        str | None, typer.Option("--name", help="A display name (default: NAME).")
    ] = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Create a profile.

    NAME is its id, used by every other command; --name is for display.

    Example:

        somna profiles create alice --name "Alice Martin"
    """
    with open_memory(ctx, db) as memory:
        created = memory.create_profile(profile, name=name)
    if as_json:
        render.print_json(created)
    else:
        render.say(f"Created profile {created.id} ({created.name}).")
