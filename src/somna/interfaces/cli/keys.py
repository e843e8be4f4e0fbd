"""`somna keys …`: the API keys of `somna serve`: create, list and revoke them."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from somna.interfaces.cli import render
from somna.interfaces.cli.options import DbOption, JsonOption, open_memory, read_memory
from somna.model import ApiKey

__all__ = ["keys"]

keys = typer.Typer(name="keys", no_args_is_help=True)


def _key_data(key: ApiKey) -> dict[str, Any]:
    """A key as JSON, without its secret hash."""
    data: dict[str, Any] = key.model_dump(mode="json", exclude={"secret_hash"})
    return data


def _reach(key: ApiKey) -> str:
    """The profiles a key names, then its prefix as `shop-*`."""
    return ", ".join([*key.profiles, *([f"{key.prefix}*"] if key.prefix else [])])


@keys.callback()
def keys_group() -> None:
    """Create, list and revoke the API keys of `somna serve` (REST and MCP).

    A key reaches the profiles it was created for, or every profile under its
    prefix (one key for a bot's many users); an admin key reaches every profile
    and manages profiles and keys over HTTP. The secret is shown once.

    Example:

        somna keys create --profile alice --name "n8n agent"
        somna keys create --prefix chat- --name "n8n chat bot"
        somna keys list
        somna keys revoke key_01J…
    """


@keys.command("create")
def create_key(
    ctx: typer.Context,
    profile: Annotated[
        list[str] | None,
        typer.Option(
            "--profile",
            metavar="PROFILE",
            help="A profile the key may reach; repeat for several.",
            show_default=False,
        ),
    ] = None,
    prefix: Annotated[
        str | None,
        typer.Option(
            "--prefix",
            metavar="PREFIX",
            help="Reach every profile whose id starts with PREFIX, created on first use.",
            show_default=False,
        ),
    ] = None,
    admin: Annotated[
        bool, typer.Option("--admin", help="Reach every profile and manage profiles and keys.")
    ] = False,
    name: Annotated[str, typer.Option("--name", help="A label, e.g. who uses the key.")] = "",
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Create an API key and print its secret, once: it is not stored and cannot be shown again.

    A profile key reaches only the profiles named; a prefix key reaches every profile
    whose id starts with the prefix (one per chat user of a bot), each created by the
    key's first request for it; an admin key reaches all of them.

    Example:

        somna keys create --profile alice --profile bob --name "support bot"
        somna keys create --prefix shop- --name "n8n shop bot"
        somna keys create --admin --name ops --json
    """
    with open_memory(ctx, db) as memory:
        key, secret = memory.keys.create(
            profiles=profile or [], admin=admin, name=name, prefix=prefix
        )
    if as_json:
        render.print_json({"key": _key_data(key), "secret": secret})
        return
    reach = "every profile (admin)" if key.admin else _reach(key)
    render.say(f"Created key {key.id} for {reach}.")
    render.say(secret, style="bold")
    render.say(
        "This secret is shown only this once: store it now. Send it as "
        "'Authorization: Bearer <secret>' or 'X-API-Key: <secret>'.",
        style="yellow",
    )


@keys.command("list")
def list_keys(ctx: typer.Context, as_json: JsonOption = False, db: DbOption = None) -> None:
    """List every API key, revoked ones included; secrets are never shown.

    Each key shows its profiles, whether it is an admin key, and when it was revoked.

    Example:

        somna keys list --json
    """
    with read_memory(ctx, db) as memory:
        found = memory.keys.all()
    if as_json:
        render.print_json([_key_data(k) for k in found])
        return
    if not found:
        render.say("No API keys yet; create one with: somna keys create --admin", style="dim")
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("id", "name", "profiles", "created", "revoked"):
        table.add_column(column, no_wrap=column == "id", overflow="fold")
    for key in found:
        table.add_row(
            key.id,
            Text(key.name),
            Text("* (admin)" if key.admin else _reach(key)),
            key.created_at.strftime("%Y-%m-%d %H:%M"),
            "" if key.revoked_at is None else key.revoked_at.strftime("%Y-%m-%d %H:%M"),
        )
    render.show(table)


@keys.command("revoke")
def revoke_key(
    ctx: typer.Context,
    key_id: Annotated[str, typer.Argument(metavar="ID", help="The key's id (key_…).")],
    db: DbOption = None,
) -> None:
    """Revoke an API key: requests with it are refused from now on.

    The key stays listed, marked revoked; create a new one to replace it.

    Example:

        somna keys revoke key_01J…
    """
    with open_memory(ctx, db) as memory:
        key = memory.keys.revoke(key_id)
    render.say(f"Revoked key {key.id}.")
