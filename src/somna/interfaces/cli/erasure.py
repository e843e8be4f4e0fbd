"""`somna forget` and `somna export`: a person's right to erasure, and to a copy first."""

from __future__ import annotations

import json
import os
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated

import typer

from somna.errors import InvalidInputError, SomnaError
from somna.interfaces.cli import render
from somna.interfaces.cli.options import DbOption, JsonOption, ProfileArg, open_memory, reported
from somna.sources import DEFAULT_TABLE, N8nTable

__all__ = ["export", "forget"]


def _receipt_line(profile: str, receipt: dict[str, int]) -> str:
    gone = [f"{table.replace('_', ' ')} {count}" for table, count in receipt.items() if count]
    return f"Erased profile {profile}, rows per table: " + ", ".join(gone) + "."


def forget(
    ctx: typer.Context,
    profile: ProfileArg,
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Erase without asking for confirmation.")
    ] = False,
    n8n_dsn: Annotated[
        str | None,
        typer.Option(
            "--n8n-dsn",
            metavar="DSN",
            envvar="SOMNA_N8N_DSN",
            help="The Postgres database of the n8n chat table the profile was imported from "
            "(also SOMNA_N8N_DSN): its rows there are deleted too. Without it, or when they "
            "cannot be, a tombstone keeps `somna ingest n8n` from creating the profile again.",
            show_default=False,
        ),
    ] = None,
    n8n_table: Annotated[
        str,
        typer.Option("--n8n-table", metavar="NAME", help="The chat table, NAME or SCHEMA.NAME."),
    ] = DEFAULT_TABLE,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Erase a profile and everything it holds, for good, and print the receipt.

    Facts of every status with their evidence and history, conflicts, summaries,
    sessions and their messages (live and archived), its entries in the run
    reports; API keys stop reaching it. With --n8n-dsn, its rows in the n8n
    chat table go too; otherwise a tombstone (a hash of the id, nothing else)
    makes `somna ingest n8n` skip them (see --allow-forgotten there). Asks first
    unless --yes. The receipt counts what went from each table. Take a copy
    first with `somna export`.

    Example:

        somna export alice -o alice.json
        somna forget alice
        somna forget alice --yes --json --n8n-dsn postgresql://n8n@db.internal/n8n
    """
    with open_memory(ctx, db) as memory, ExitStack() as opened:
        memory.get_profile(profile)  # an unknown profile fails before the question
        if not yes:
            _confirm(profile)
        source = None
        if n8n_dsn:
            try:
                source = opened.enter_context(N8nTable(n8n_dsn, n8n_table))
            except SomnaError as exc:
                typer.echo(f"Warning: {exc} A tombstone is kept instead.", err=True)
        receipt = memory.forget(profile, source=source)
    if n8n_dsn and "tombstones" in receipt and source is not None:
        typer.echo(
            f"Warning: its rows in {source.name} could not be deleted (see the log; the role "
            "may only read them); a tombstone keeps the next import from creating it again.",
            err=True,
        )
    if as_json:
        render.print_json({"profile": profile, "erased": receipt})
    else:
        render.say(_receipt_line(profile, receipt))


def _confirm(profile: str) -> None:
    question = (
        f"Erase profile {profile!r} and everything it holds, for good? "
        f"(A copy first: somna export {profile} -o {profile}.json)"
    )
    try:
        confirmed = typer.confirm(question, default=False, err=True)
    except typer.Abort:  # no answer: stdin closed
        typer.echo(
            "Error: Nothing was erased: no answer; pass --yes to skip the question.", err=True
        )
        raise typer.Exit(1) from None
    if not confirmed:
        typer.echo("Nothing was erased.", err=True)
        raise typer.Exit(1)


def export(
    ctx: typer.Context,
    profile: ProfileArg,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            metavar="FILE",
            help="Write the JSON to FILE (readable by you only) instead of stdout.",
            show_default=False,
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Print everything a profile holds as JSON: what `somna forget` would erase.

    The profile, its facts of every status with evidence and history, conflicts,
    summaries, sessions and their messages, run entries and the API keys that
    reach it (never their secrets).

    Example:

        somna export alice > alice.json
        somna export alice -o alice.json
    """
    with open_memory(ctx, db) as memory:
        data = memory.export(profile)
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if output is None:
        typer.echo(text, nl=False)
        return
    with reported():
        _write_private(output, text)
    counts = ", ".join(
        render.plural(len(data.get(part) or []), word) for part, word in _COUNTED.items()
    )
    render.say(f"Exported profile {profile} to {output} ({counts}).")


_COUNTED = {"facts": "fact", "sessions": "session", "messages": "message"}


def _write_private(path: Path, text: str) -> None:
    """Write the file readable by its owner only: it holds a person's data."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        raise InvalidInputError(f"Cannot write {path}: {exc.strerror or exc}.") from exc
