"""`somna ingest FILE…`: import existing chat histories (JSON Lines, LoCoMo) as sessions.

Every file is read and checked before anything is written: one bad line stops
the whole import with the file and line named, and the database is untouched.
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

from somna.errors import InvalidInputError
from somna.interfaces.cli import render
from somna.interfaces.cli.context import DbOption, JsonOption, open_memory, reported
from somna.memory import Ingested
from somna.model import Profile, utcnow
from somna.sources import Conversation, read_jsonl, read_locomo

__all__ = ["Format", "detect_format", "ingest", "read_conversations"]

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


def _report(found: int, files: int, done: Ingested) -> str:
    read = f"Read {render.plural(found, 'conversation')} from {render.plural(files, 'file')}"
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
            "for LoCoMo, instead of locomo-<file name>. Created if needed.",
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
            {"files": [str(f) for f in files], "conversations": len(conversations), **vars(done)}
        )
    else:
        render.say(_report(len(conversations), len(files), done))
