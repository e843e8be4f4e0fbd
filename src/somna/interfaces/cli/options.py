"""What every command shares: the common options, the `Memory` it opens, and the error edge.

A command parses its options, opens the memory with `open_memory`, calls one
`Memory` method and renders the result. A `SomnaError` raised on the way
becomes one line on stderr and an exit code: 2 for bad input, a missing object
or a state that does not allow the operation, 1 for everything else (database,
embedder, configuration). Usage errors (a missing argument, an unknown option)
also exit 2 with one such line (`usage_error_line`, called by the root group).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from somna.config import Settings, bounds, default_of, names_server, variable_of
from somna.errors import ConflictStateError, InvalidInputError, NotFoundError, SomnaError
from somna.memory import Memory
from somna.model import utc

__all__ = [
    "AsOfOption",
    "CliState",
    "DbOption",
    "IdleHoursOption",
    "JsonOption",
    "MemoryFactory",
    "ProfileArg",
    "ProfileFilterOption",
    "QueryArg",
    "check_database",
    "database_file",
    "exit_code",
    "fail",
    "load_memory",
    "open_memory",
    "parse_when",
    "read_memory",
    "reported",
    "setting_option",
    "usage_error_line",
]

MemoryFactory = Callable[[Settings], Memory]
"""Builds the `Memory` a command works on from the loaded settings."""

_BAD_INPUT = (InvalidInputError, NotFoundError, ConflictStateError)


def _default_memory(settings: Settings) -> Memory:
    return Memory(settings=settings)


@dataclass
class CliState:
    """The Click context object: the root `--db`, how to build a `Memory`, and the clock.

    Tests pass their own as `CliRunner().invoke(app, args, obj=CliState(...))`
    to share one loaded embedder between invocations, or to drive `somna schedule`
    with a clock that `sleep` moves instead of waiting.
    """

    db: str | None = None
    memory_factory: MemoryFactory = _default_memory
    local_clock: Callable[[], datetime] = datetime.now
    """The local wall clock, naive: `somna schedule` waits for a time of day on it."""
    sleep: Callable[[float], None] = time.sleep


def parse_when(value: str) -> datetime:
    """An ISO 8601 date or datetime, with or without a zone; a naive one is UTC."""
    try:
        return utc(datetime.fromisoformat(value.strip()))
    except ValueError:
        raise typer.BadParameter(
            f"{value!r} is not a date; use ISO 8601 such as 2026-05-03, 2026-05-03T10:00 "
            "or 2026-05-03T10:00+02:00."
        ) from None


ProfileArg = Annotated[
    str, typer.Argument(metavar="PROFILE", help="The profile (one isolated memory) to work in.")
]
QueryArg = Annotated[str, typer.Argument(metavar="QUERY", help="Words or a question.")]
ProfileFilterOption = Annotated[
    str | None,
    typer.Option("--profile", metavar="NAME", help="Only this profile (default: every profile)."),
]
DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar="PATH",
        help="The database to use (overrides SOMNA_DB and the global --db).",
        show_default=False,
    ),
]


def setting_option(name: str, flag: str, metavar: str, text: str, note: str = "") -> Any:
    """An option that sets the setting `name` for one command: its limits and its default
    come from `somna.config`, its help is `text` and the default, then `note`."""
    low, high = bounds(name)
    return typer.Option(
        flag,
        metavar=metavar,
        min=low,
        max=high,
        help=f"{text} (default: {variable_of(name)}, {default_of(name)}{note}).",
        show_default=False,
    )


IdleHoursOption = Annotated[
    float | None,
    setting_option("idle_hours", "--idle-hours", "H", "A session is due once quiet this long"),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON on stdout instead of tables.")]
AsOfOption = Annotated[
    datetime | None,
    typer.Option(
        "--as-of",
        parser=parse_when,
        metavar="DATE",
        help="Ask about that moment of valid time instead of now (ISO date, naive = UTC).",
    ),
]


def exit_code(error: SomnaError) -> int:
    """2 when the caller can fix the call (input, missing object, state), 1 otherwise."""
    return 2 if isinstance(error, _BAD_INPUT) else 1


def fail(error: SomnaError) -> NoReturn:
    """Write `Error: <message>` as one line on stderr and exit with the error's code."""
    message = " ".join(str(error).split()).replace("Value error, ", "")
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(exit_code(error))


def usage_error_line(error: typer.TyperException) -> str:
    """A usage error (missing argument, bad option) as the one `Error: …` line of any failure."""
    message = " ".join(error.format_message().split()).rstrip(".")
    ctx: Any = getattr(error, "ctx", None)
    if ctx is not None:
        return f"Error: {message}. See '{ctx.command_path} --help'."
    return f"Error: {message}."


@contextmanager
def reported() -> Iterator[None]:
    """Turn a `SomnaError` raised inside the block into one stderr line and an exit code."""
    try:
        yield
    except SomnaError as error:
        fail(error)


def database_file(url: str) -> Path | None:
    """The SQLite file a `db` setting names, read as the store reads it (`sqlite:///rel.db`,
    `sqlite:////abs.db`, a plain path); None for a Postgres server or `:memory:`."""
    if names_server(url) or url == ":memory:":
        return None
    return Path(url.removeprefix("sqlite:///").removeprefix("sqlite://") or "somna.db")


def check_database(url: str, *, must_exist: bool) -> None:
    """Refuse, in one sentence, a database path that cannot be a file, and for a command that
    only reads, one that does not exist yet (rather than create an empty one)."""
    path = database_file(url)
    if path is None:
        return
    if path.is_dir():
        raise InvalidInputError(
            f"The database {str(path)!r} is a folder; name a file in it instead, such as "
            f"--db {path / 'somna.db'} (or SOMNA_DB={path / 'somna.db'})."
        )
    if not path.parent.is_dir():
        raise InvalidInputError(
            f"The folder of the database {str(path)!r} does not exist; create it first "
            f"(mkdir -p {path.parent}) or name another file with --db or SOMNA_DB."
        )
    if must_exist and not path.exists():
        raise NotFoundError(
            f"There is no database at {str(path)!r} yet. Create one with `somna init` (or "
            "`somna demo` for an example), or point --db or SOMNA_DB to an existing one."
        )


def load_memory(ctx: typer.Context, db: str | None = None, **overrides: Any) -> Memory:
    """A new `Memory` for this invocation; raises `SomnaError`, for callers that report it.

    The database is the command's `--db`, else the global `--db`, else the settings
    (`SOMNA_DB`, `somna.toml`, default `./somna.db`).
    """
    state = ctx.ensure_object(CliState)
    settings = Settings.load(db=db or state.db, **overrides)
    check_database(settings.db, must_exist=False)
    return state.memory_factory(settings)


@contextmanager
def read_memory(ctx: typer.Context, db: str | None = None) -> Iterator[Memory]:
    """`open_memory` for a command that only reads: a database that does not exist yet is
    reported, never created empty."""
    with reported():
        state = ctx.ensure_object(CliState)
        check_database(Settings.load(db=db or state.db).db, must_exist=True)
    with open_memory(ctx, db) as memory:
        yield memory


@contextmanager
def open_memory(ctx: typer.Context, db: str | None = None, **overrides: Any) -> Iterator[Memory]:
    """The `Memory` of this invocation (see `load_memory`), closed on the way out.

    Domain errors raised while opening it or inside the block are reported.
    """
    with reported():
        memory = load_memory(ctx, db, **overrides)
        try:
            yield memory
        finally:
            memory.close()
