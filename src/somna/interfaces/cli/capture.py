"""`somna capture …`: a coding assistant's session transcript into a Somna session.

Run at the end of each coding session (a Claude Code `SessionEnd` hook, see
docs/coding-assistants.md), so what was decided there is consolidated that night.
The transcript is read whole each time; only turns said since the last capture of
its session key are added.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from somna.errors import InvalidInputError
from somna.interfaces.cli import render
from somna.interfaces.cli.options import DbOption, JsonOption, open_memory, reported
from somna.memory.capture import Captured
from somna.model import utcnow
from somna.sources.claude_code import read_transcript

__all__ = ["capture"]

capture = typer.Typer(name="capture", no_args_is_help=True)


@capture.callback()
def capture_group() -> None:
    """Read coding assistants' session transcripts into sessions, for the nightly job.

    Only the turns said since the last capture of a session are added.

    Example:

        somna capture claude-code ~/.claude/projects/app/4f1c.jsonl -p alice
        somna capture jsonl chat.jsonl --profile alice --session support-7
    """


TranscriptArg = Annotated[
    Path, typer.Argument(metavar="TRANSCRIPT", help="The session transcript (JSON Lines).")
]
ProfileOption = Annotated[
    str,
    typer.Option("--profile", "-p", help="The profile the session belongs to (created if new)."),
]
DeviceOption = Annotated[
    str | None, typer.Option("--device", help="The machine the session ran on, kept per message.")
]


@capture.command("claude-code")
def claude_code(
    ctx: typer.Context,
    transcript: TranscriptArg,
    profile: ProfileOption,
    session: Annotated[
        str | None,
        typer.Option("--session", help="The session key (default: from the file's session id)."),
    ] = None,
    device: DeviceOption = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Read a Claude Code session transcript into a session of PROFILE.

    Only text is kept: tool calls, tool results, thinking and sub-agent turns are
    skipped. The session key is `claude-code:<session id>` unless --session names one.

    Example:

        somna capture claude-code ~/.claude/projects/app/4f1c.jsonl -p alice
    """
    _capture(ctx, transcript, profile, session, device, "claude-code", as_json, db)


@capture.command("jsonl")
def jsonl(
    ctx: typer.Context,
    transcript: TranscriptArg,
    profile: ProfileOption,
    session: Annotated[str, typer.Option("--session", help="The session key.")],
    device: DeviceOption = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Read any JSON Lines of {"role", "content"} pairs into a session of PROFILE.

    `content` is a text or a list of content blocks (text kept); `at` or `timestamp`
    dates a line (default: now); system and tool lines are skipped.

    Example:

        somna capture jsonl chat.jsonl --profile alice --session support-7
    """
    _capture(ctx, transcript, profile, session, device, "capture", as_json, db)


def _capture(
    ctx: typer.Context,
    path: Path,
    profile: str,
    session: str | None,
    device: str | None,
    prefix: str,
    as_json: bool,
    db: str | None,
) -> None:
    with reported():
        read = read_transcript(path, now=utcnow())
        key = session or (f"{prefix}:{read.session_id}" if read.session_id else None)
        if key is None:
            raise InvalidInputError(f"{path} names no session id; pass --session KEY.")
    with open_memory(ctx, db) as memory:
        done = memory.capture(profile, key, read.turns, device=device)
    if as_json:
        render.print_json(done)
    else:
        render.say(_line(done))


def _line(done: Captured) -> str:
    if not done.added:
        seen = render.plural(done.skipped, "turn")
        return f"Nothing new in session {done.session_key} ({seen} seen before)."
    return (
        f"Captured {render.plural(done.added, 'turn')} into session {done.session_key} of "
        f"{done.profile}; the nightly job will consolidate it."
    )
