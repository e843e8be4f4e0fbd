"""`somna ingest FILE…` and `somna ingest n8n`: import existing chat histories as sessions.

Files (JSON Lines, LoCoMo): every file is read and checked before anything is
written; one bad line stops the whole import with the file and line named, and
the database is untouched.

n8n: the new rows of an n8n / LangChain Postgres chat table, incrementally
(`somna.sources.n8n`); malformed rows are skipped and counted.

`ingest_app` is the `ingest` group: a first argument that is not a subcommand
(`n8n`) is a file, so `somna ingest chats.jsonl` still reads files.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError
from typer.core import TyperGroup

from somna.errors import InvalidInputError
from somna.interfaces.cli import render
from somna.interfaces.cli.options import (
    DbOption,
    JsonOption,
    open_memory,
    reported,
    setting_option,
)
from somna.memory import Ingested
from somna.model import Profile, utcnow
from somna.sources import (
    DEFAULT_TABLE,
    Conversation,
    N8nReport,
    N8nTable,
    ProfileFrom,
    read_jsonl,
    read_locomo,
)

__all__ = [
    "Format",
    "detect_format",
    "ingest",
    "ingest_app",
    "ingest_n8n",
    "n8n_line",
    "read_conversations",
]

_JSONL_SUFFIXES = {".jsonl", ".ndjson"}


class Format(StrEnum):
    """How a file of chat history is laid out."""

    AUTO = "auto"
    JSONL = "jsonl"
    LOCOMO = "locomo"


def detect_format(path: Path) -> Format:
    """jsonl for a `.jsonl` file or JSON objects one per line; locomo for one object with speaker_a.

    Raises `InvalidInputError` when the file cannot be read or is neither.
    """
    if path.suffix.lower() in _JSONL_SUFFIXES:
        return Format.JSONL
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"Cannot read {path}: {_why(exc)}.") from exc
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data" and text.lstrip().startswith("{"):
            return Format.JSONL  # several objects: one message per line
        raise InvalidInputError(
            f"{path}, line {exc.lineno}: not valid JSON ({exc.msg}); ingest reads JSON Lines "
            "(one message per line) or LoCoMo files, see --format."
        ) from exc
    if isinstance(data, dict) and "speaker_a" in data:
        return Format.LOCOMO
    if isinstance(data, dict) and "session" in data:
        return Format.JSONL  # a JSON Lines file of one message
    if (
        isinstance(data, list)
        and data
        and all(isinstance(item, dict) and "conversation" in item for item in data)
    ):
        raise InvalidInputError(
            f"{path} holds {len(data)} LoCoMo samples (the locomo10.json layout); give each "
            "sample's 'conversation' object its own file, then ingest those files."
        )
    raise InvalidInputError(
        f"Cannot tell the format of {path}: it is neither JSON Lines (one message per line) "
        "nor a LoCoMo conversation (an object with speaker_a); pass --format."
    )


def _why(exc: Exception) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)


def _read(path: Path, fmt: Format, profile: str | None, now: datetime) -> list[Conversation]:
    if not path.is_file():
        what = "a folder" if path.is_dir() else "no such file"
        raise InvalidInputError(f"Cannot read {path}: {what}.")
    chosen = detect_format(path) if fmt is Format.AUTO else fmt
    try:
        if chosen is Format.JSONL:
            return read_jsonl(path, profile=profile, now=now)
        return read_locomo(path, profile=profile)
    except InvalidInputError as exc:
        if str(path) in str(exc):
            raise
        raise InvalidInputError(f"{path}: {exc}") from exc


def _check_profiles(conversations: Sequence[Conversation], path: Path) -> None:
    """Refuse a malformed profile id now, before `Memory.ingest` writes the files before it."""
    for name in sorted({c.profile for c in conversations}):
        try:
            Profile(id=name, name=name)
        except ValidationError as exc:
            problem = exc.errors()[0]
            reason = str(problem.get("ctx", {}).get("error") or problem["msg"])
            raise InvalidInputError(f"{path}: {reason.rstrip('.')}.") from exc


def read_conversations(
    paths: Sequence[Path], fmt: Format, profile: str | None, now: datetime
) -> list[Conversation]:
    """Every conversation of every file, in order; raises `InvalidInputError` on the first flaw.

    Messages without a time are stamped `now`.
    """
    conversations: list[Conversation] = []
    for path in paths:
        read = _read(path, fmt, profile, now)
        _check_profiles(read, path)
        conversations += read
    return conversations


def _report(found: Sequence[Conversation], files: int, done: Ingested) -> str:
    profiles = len({c.profile for c in found})
    read = (
        f"Read {render.plural(len(found), 'session')} of {render.plural(profiles, 'profile')} "
        f"from {render.plural(files, 'file')}"
    )
    created = f"created {render.plural(done.profiles, 'profile')}"
    added = (
        f"added {render.plural(done.sessions, 'session')} "
        f"({render.plural(done.messages, 'message')})"
    )
    skipped = f"skipped {render.plural(done.skipped, 'session')} already imported"
    return f"{read}: {created}, {added}, {skipped}."


def ingest(
    ctx: typer.Context,
    files: Annotated[
        list[Path],
        typer.Argument(metavar="FILE", help="JSON Lines or LoCoMo files.", show_default=False),
    ],
    fmt: Annotated[
        Format,
        typer.Option("--format", help="How the files are laid out; auto looks at each file."),
    ] = Format.AUTO,
    profile: Annotated[
        str | None,
        typer.Option(
            "--profile",
            metavar="NAME",
            help="The profile to import into: for JSON Lines, lines without a 'profile' field; "
            "for LoCoMo, instead of one named after the file (26.json: locomo-26). "
            "Created if needed.",
            show_default=False,
        ),
    ] = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Import chat histories as sessions to consolidate; a session already imported is skipped.

    JSON Lines: one message per line, {"session", "role", "content", "at", "profile"}
    ("at" defaults to now, "profile" to --profile). LoCoMo: one conversation
    object per file, one profile per file. Every file is checked before anything
    is written. Then run `somna consolidate`.

    Example:

        somna ingest chats.jsonl --profile alice
        somna ingest conv-26.json --format locomo --json
    """
    with reported():
        conversations = read_conversations(files, fmt, profile, utcnow())
    with open_memory(ctx, db) as memory:
        done = memory.ingest(conversations)
    if as_json:
        render.print_json(
            {"files": [str(f) for f in files], "sessions_read": len(conversations), **vars(done)}
        )
    else:
        render.say(_report(conversations, len(files), done))


# -- n8n ------------------------------------------------------------------------------


def n8n_line(report: N8nReport, purged: bool) -> str:
    """One line about an n8n import: what was read, added, skipped and purged."""
    if report.rows == 0:
        line = f"No new rows in {report.source}."
    else:
        kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(report.kinds.items()))
        added = (
            f"added {render.plural(report.messages, 'message')}"
            f"{f' ({kinds})' if kinds else ''} to "
            f"{render.plural(report.sessions, 'session')} ({report.new_sessions} new)"
        )
        created = f"created {render.plural(report.profiles, 'profile')}"
        skipped = f"skipped {render.plural(report.skipped_rows, 'malformed row')}"
        if report.skipped:
            reasons = ", ".join(f"{n} {why}" for why, n in sorted(report.skipped.items()))
            skipped += f" ({reasons})"
        line = (
            f"Read {render.plural(report.rows, 'new row')} of {report.source}: "
            f"{added}, {created}, {skipped}."
        )
    if report.forgotten_rows:
        line += (
            f" Left out {render.plural(report.forgotten_rows, 'row')} of erased profiles "
            "(somna forget); --allow-forgotten imports them again."
        )
    if purged:
        line += (
            f" Purged {render.plural(report.purged_rows, 'row')} of "
            f"{render.plural(report.purged_sessions, 'archived session')} from the source."
        )
    return line


def ingest_n8n(
    ctx: typer.Context,
    dsn: Annotated[
        str,
        typer.Option(
            "--dsn",
            metavar="DSN",
            envvar="SOMNA_N8N_DSN",
            help="The Postgres database of the chat table (a URL or key=value string; also "
            "SOMNA_N8N_DSN). It may be another database than Somna's own.",
            show_default=False,
        ),
    ],
    table: Annotated[
        str,
        typer.Option("--table", metavar="NAME", help="The chat table, NAME or SCHEMA.NAME."),
    ] = DEFAULT_TABLE,
    profile_from: Annotated[
        str,
        typer.Option(
            "--profile-from",
            metavar="session|session:full|fixed:NAME",
            help="session: one profile per n8n session id, without the '__Node_Name' suffix "
            "n8n's chat memory adds; session:full: the whole id; fixed:NAME: every session "
            "into the profile NAME. Profiles are created as needed.",
        ),
    ] = "session",
    node_names: Annotated[
        list[str] | None,
        typer.Option(
            "--node-name",
            metavar="NAME",
            help="The name of the workflow's Postgres Chat Memory node, whose suffix n8n adds "
            "to each session id (its characters outside A-Z a-z 0-9 _ - as '_'); only that "
            "suffix is dropped. Repeat it for several nodes; '*' matches any part of a name. "
            "Without it, any suffix n8n could have added is dropped.",
            show_default=False,
        ),
    ] = None,
    idle_hours: Annotated[
        float | None,
        setting_option(
            "idle_hours",
            "--idle-hours",
            "H",
            "Rows after this long without a new one open the next session",
            "; use the value that consolidation uses",
        ),
    ] = None,
    purge_source: Annotated[
        bool,
        typer.Option(
            "--purge-source",
            help="Then delete from the chat table the rows of the sessions Somna has archived "
            "(consolidated), one transaction per session. Off by default: the table is only "
            "read.",
        ),
    ] = False,
    allow_forgotten: Annotated[
        bool,
        typer.Option(
            "--allow-forgotten",
            help="Import the rows of profiles erased by `somna forget` too, creating them "
            "again (their tombstones go). Off by default: those rows are left out and counted.",
        ),
    ] = False,
    source: Annotated[
        str | None,
        typer.Option(
            "--source",
            metavar="NAME",
            help="The table's name in Somna's cursors (default n8n:DATABASE/SCHEMA.TABLE); "
            "give one to each n8n instance when two share database and table names.",
            show_default=False,
        ),
    ] = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Import the new rows of an n8n (or LangChain) Postgres chat table; run it on a schedule.

    Reads the table n8n's Postgres chat memory keeps (id, session_id, message),
    only the rows above what was imported before, and stamps each with the time
    Somna first sees it. The rows of one session id are cut into sessions
    <session_id>#1, #2, …: a burst followed by --idle-hours of silence is one
    session, later rows open the next. Rows are counted by kind (human, ai, tool
    call, tool result, system); tool calls and results are kept but never read
    for facts. Malformed rows are skipped and counted.
    Run it more often than --idle-hours (every few minutes), then consolidate
    (`somna worker` or `somna consolidate`); --purge-source then deletes what
    was consolidated from the chat table.

    Example:

        somna ingest n8n --dsn postgresql://n8n@db.internal/n8n
        somna ingest n8n --dsn "$N8N_DSN" --profile-from fixed:support
        somna ingest n8n --dsn "$N8N_DSN" --node-name "Chat Memory (Postgres)"
        somna ingest n8n --dsn "$N8N_DSN" --purge-source --json
    """
    with reported():
        mapping = ProfileFrom.parse(profile_from, node_names or ())
    with open_memory(ctx, db) as memory, N8nTable(dsn, table) as chat:
        report = memory.import_n8n(
            chat,
            idle_hours=idle_hours,
            profile_from=mapping,
            source=source,
            purge=purge_source,
            allow_forgotten=allow_forgotten,
        )
    if as_json:
        render.print_json({**render.to_data(report), "skipped_rows": report.skipped_rows})
    else:
        render.say(n8n_line(report, purge_source))


# -- the group --------------------------------------------------------------------------


class _IngestGroup(TyperGroup):
    """`ingest n8n …` runs the subcommand; `ingest FILE…` runs the hidden `files` command."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:  # a click Context
        first = args[0] if args else None
        if first not in self.commands and first not in ctx.help_option_names:
            args = ["files", *args]
        return super().parse_args(ctx, args)


ingest_app = typer.Typer(
    name="ingest",
    cls=_IngestGroup,
    subcommand_metavar="FILE... | n8n [OPTIONS]",
    no_args_is_help=False,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
ingest_app.command("files")(ingest)
ingest_app.command("n8n")(ingest_n8n)


@ingest_app.callback()
def ingest_group() -> None:
    """Import chat histories: files (JSON Lines, LoCoMo), or the new rows of an n8n table.

    `somna ingest FILE…` reads files, each checked before anything is written
    (see `somna ingest files --help`); `somna ingest n8n` reads an n8n or
    LangChain Postgres chat table incrementally. Then run `somna consolidate`.

    Example:

        somna ingest chats.jsonl --profile alice
        somna ingest conv-26.json --format locomo --json
        somna ingest n8n --dsn postgresql://n8n@db.internal/n8n
    """
