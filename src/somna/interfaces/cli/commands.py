"""The root `somna` app: the global `--db`, `init`, `search`, and the other commands and groups.

Imported by `main` once its signal handlers are set (`somna.interfaces.cli`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperArgument, TyperGroup, TyperOption

import somna
from somna.interfaces.cli import render
from somna.interfaces.cli.capture import capture
from somna.interfaces.cli.conflicts import conflicts
from somna.interfaces.cli.consolidation import consolidate, runs, summaries
from somna.interfaces.cli.demo import demo
from somna.interfaces.cli.erasure import export, forget
from somna.interfaces.cli.evaluate import app as evaluate
from somna.interfaces.cli.facts import facts
from somna.interfaces.cli.ingest import ingest_app
from somna.interfaces.cli.keys import keys
from somna.interfaces.cli.llm import llm_app
from somna.interfaces.cli.options import (
    CliState,
    DbOption,
    open_memory,
    usage_error_line,
)
from somna.interfaces.cli.profiles import profiles
from somna.interfaces.cli.recall import context, recall, search
from somna.interfaces.cli.reembed import reembed
from somna.interfaces.cli.schedule import schedule
from somna.interfaces.cli.serve import mcp, serve
from somna.interfaces.cli.sessions import metrics, sessions
from somna.interfaces.cli.worker import worker

__all__ = ["app"]

_ORDER = (
    "init",
    "profiles",
    "ingest",
    "capture",
    "sessions",
    "consolidate",
    "worker",
    "facts",
    "conflicts",
    "search",
    "recall",
    "context",
    "summaries",
    "metrics",
    "runs",
    "schedule",
    "serve",
    "mcp",
    "keys",
    "export",
    "forget",
    "eval",
    "demo",
)


def _list_free(shown: str) -> str:
    """`<list[fact|entity]>` as `<fact|entity>`: the help says an option repeats."""
    inner = shown.strip("<>")
    if inner.startswith("list[") and inner.endswith("]"):
        inner = inner[5:-1]
    return f"<{inner}>"


def _option_type(option: TyperOption, ctx: Any) -> str | None:
    if option.is_flag or option.count:
        return None  # `--json`, not `--json <bool>`
    if option.metavar is not None:
        return option.metavar
    return _list_free(option.display_type(ctx))


def _argument_type(argument: TyperArgument, ctx: Any) -> str | None:
    if argument.metavar is not None:
        return None  # `FILE...` says it all, not `FILE <list[Path]>`
    return _list_free(argument.display_type(ctx))


def _argument_usage(argument: TyperArgument) -> str:
    """`FILE...` for a required argument, `[FILE]...` for an optional one (not `{FILE}...`)."""
    name = argument.display_name_raw if argument.required else f"[{argument.display_name_raw}]"
    return name + ("..." if argument.nargs != 1 else "")


TyperOption.display_type_rich = _option_type  # type: ignore[method-assign,assignment]
TyperArgument.display_type_rich = _argument_type  # type: ignore[method-assign,assignment]
TyperArgument._usage_display_name = _argument_usage  # type: ignore[method-assign,assignment]


class _Root(TyperGroup):
    """Lists the commands in the order of a first session; reports usage errors in one line."""

    def list_commands(self, ctx: object) -> list[str]:
        known = [name for name in _ORDER if name in self.commands]
        return known + sorted(name for name in self.commands if name not in _ORDER)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        run = partial(
            super().main,
            args,
            prog_name,
            complete_var,
            standalone_mode=False,
            windows_expand_args=windows_expand_args,
            **extra,
        )
        if not standalone_mode:
            return run()
        try:
            code = run()
        except typer.TyperException as error:
            if type(error).__name__ != "NoArgsIsHelpError":  # that one has printed the help
                typer.echo(usage_error_line(error), err=True)
            sys.exit(error.exit_code)
        except typer.Abort as error:
            if isinstance(error.__context__, KeyboardInterrupt):  # a signal: `main` says so
                raise error.__context__ from None
            typer.echo("Aborted.", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    name="somna",
    cls=_Root,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
app.add_typer(profiles)
app.add_typer(facts)
app.add_typer(conflicts)
app.add_typer(ingest_app)
app.add_typer(capture)
app.add_typer(sessions)
app.command("metrics")(metrics)
app.command("consolidate")(consolidate)
app.command("worker")(worker)
app.command("runs")(runs)
app.command("summaries")(summaries)
app.command("schedule")(schedule)
app.command("search")(search)
app.command("recall")(recall)
app.command("context")(context)
app.command("serve")(serve)
app.command("mcp")(mcp)
app.add_typer(keys)
app.add_typer(llm_app)
app.command("export")(export)
app.command("forget")(forget)
app.command("reembed")(reembed)
app.add_typer(evaluate)
app.command("demo")(demo)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"somna {somna.__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar="PATH",
            help="The database for every command (overrides SOMNA_DB; default ./somna.db).",
            show_default=False,
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Somna: long-term memory for AI agents.

    Facts are typed, dated sentences kept per profile, with their history,
    their evidence and the conflicts between them. Settings come from SOMNA_*
    variables and ./somna.toml; --db picks the database.

    Example:

        somna init
        somna profiles create alice
        somna facts add alice "Prefers tea to coffee." --category preference
        somna search alice "what does she drink?"
    """
    state = ctx.ensure_object(CliState)
    if db is not None:
        state.db = db


@app.command("init")
def init(ctx: typer.Context, db: DbOption = None) -> None:
    """Create the database, or bring its schema up to date; safe to run again.

    Prints where the database is and its schema version.

    Example:

        somna init --db ~/.local/share/somna/memory.db
    """
    with open_memory(ctx, db) as memory:
        info = memory.describe()
    where = info.location
    if where != ":memory:" and "://" not in where:
        where = str(Path(where).resolve())
    render.say(f"Database ready: {where} (schema version {info.schema_version}).")
