"""`somna sessions …`: a profile's conversations across devices, and the thread of one.

`somna metrics PROFILE` reads the same conversations as figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from somna.interfaces.cli import render
from somna.interfaces.cli.options import DbOption, JsonOption, ProfileArg, open_memory, read_memory
from somna.memory.metrics import ProfileMetrics
from somna.memory.sessions import SessionInfo
from somna.memory.thread import Thread
from somna.model import SessionStatus

__all__ = ["metrics", "sessions"]

sessions = typer.Typer(name="sessions", no_args_is_help=True)


@sessions.callback()
def sessions_group() -> None:
    """A profile's conversations across devices: list, resume, merge, and the thread of one.

    A message may name the device it was typed on; a session shows its latest.

    Example:

        somna sessions list alice
        somna sessions merge alice phone-chat laptop-chat
    """


SessionKeyArg = Annotated[str, typer.Argument(metavar="SESSION", help="A session key.")]


def _sessions_table(infos: Sequence[SessionInfo]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("key", "status", "device", "last message", "turns"):
        table.add_column(name, overflow="fold")
    table.add_column("summary (or last message)", overflow="fold", ratio=1)
    for info in infos:
        table.add_row(
            Text(info.session.key),
            info.status.value,
            Text(info.device or ""),
            info.session.last_message_at.strftime("%Y-%m-%d %H:%M"),
            str(info.messages),
            Text(info.summary or info.last_message or ""),
        )
    return table


@sessions.command("list")
def list_sessions(
    ctx: typer.Context,
    profile: ProfileArg,
    limit: Annotated[int, typer.Option("--limit", min=1, help="How many sessions.")] = 20,
    status: Annotated[
        SessionStatus | None, typer.Option("--status", help="Only sessions in this state.")
    ] = None,
    device: Annotated[
        str | None, typer.Option("--device", help="Only sessions last used on this device.")
    ] = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """List a profile's conversations, the latest message first.

    Each shows its status (open, closed once quiet for idle_hours, archived once
    consolidated), the device of its latest message, and its summary.

    Example:

        somna sessions list alice --status open --json
    """
    with read_memory(ctx, db) as memory:
        found = memory.list_sessions(profile, limit=limit, status=status, device=device)
    render.show_list(found, as_json, _sessions_table, f"Profile {profile} has no sessions yet.")


@sessions.command("resume")
def resume(
    ctx: typer.Context, profile: ProfileArg, as_json: JsonOption = False, db: DbOption = None
) -> None:
    """Show the open session with the latest message, to go on with it from another device.

    Send the next messages to its key (with your device id) to continue it.

    Example:

        somna sessions resume alice --json
    """
    with read_memory(ctx, db) as memory:
        info = memory.resume(profile)
        thread = memory.thread(profile, info.session.key)
    if as_json:
        render.print_json({**render.to_data(info), "thread": thread_data(thread)})
        return
    render.say(
        f"Resume session {info.session.key} (last used on {info.device or 'an unnamed device'})."
    )
    render.say(thread.text)


@sessions.command("merge")
def merge(
    ctx: typer.Context,
    profile: ProfileArg,
    into: Annotated[str, typer.Argument(metavar="INTO", help="The session key that stays.")],
    other: Annotated[str, typer.Argument(metavar="OTHER", help="The session key merged in.")],
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Merge session OTHER into session INTO: one conversation, turns interleaved by time.

    Both must still be live: a session already consolidated is refused.

    Example:

        somna sessions merge alice phone-chat laptop-chat
    """
    with open_memory(ctx, db) as memory:
        info = memory.merge_sessions(profile, into, other)
    if as_json:
        render.print_json(info)
    else:
        render.say(f"Merged {other} into {into}: {render.plural(info.messages, 'message')}.")


@sessions.command("thread")
def thread(
    ctx: typer.Context,
    profile: ProfileArg,
    session: SessionKeyArg,
    budget: Annotated[
        int | None,
        typer.Option("--budget", min=50, help="Token budget (default: thread_budget_tokens)."),
    ] = None,
    keep: Annotated[
        int | None,
        typer.Option("--keep", min=1, help="Last turns shown word for word (default: setting)."),
    ] = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Print the thread of a live conversation within a token budget.

    Past the budget, older turns are told in a running summary ("Earlier in this
    conversation: …") and the last turns follow word for word.

    Example:

        somna sessions thread alice chat-42 --budget 800
    """
    with read_memory(ctx, db) as memory:
        found = memory.thread(profile, session, budget_tokens=budget, keep_turns=keep)
    if as_json:
        render.print_json(thread_data(found))
    elif found.text:
        render.say(found.text)
    else:
        render.say(f"Session {session} has no live thread.", style="dim")


def thread_data(thread: Thread) -> dict[str, Any]:
    """A thread as JSON: its summary, its last turns, the block and its token count."""
    return {
        "session_id": None if thread.session is None else thread.session.id,
        "summary": thread.summary,
        "summarised_by": thread.summarised_by,
        "folded": thread.folded,
        "turns": render.to_data(thread.turns),
        "text": thread.text,
        "tokens": thread.tokens,
    }


def metrics(
    ctx: typer.Context,
    profile: ProfileArg,
    session: Annotated[str | None, typer.Option("--session", help="Only this session key.")] = None,
    limit: Annotated[
        int, typer.Option("--limit", min=1, help="The latest sessions to measure.")
    ] = 50,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Conversation metrics of a profile: per session and in total.

    Turns, mean user and assistant message lengths, time to close, clarification
    questions asked by the assistant, topic shifts between consecutive user turns,
    and the recalled facts answers used (when callers report `meta.facts_used`).

    Example:

        somna metrics alice --limit 20 --json
    """
    with read_memory(ctx, db) as memory:
        found = memory.metrics(profile, limit=limit, session_key=session)
    if as_json:
        render.print_json(found)
        return
    render.show(_metrics_table(found))


def _figure(value: float | None, unit: str = "") -> str:
    return "" if value is None else f"{value:.1f}{unit}"


def _used(used: int, reported: int) -> str:
    return f"{used} ({reported})" if reported else ""


def _metrics_table(found: ProfileMetrics) -> Table:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=f"Conversations of {found.profile}",
                  title_justify="left")  # fmt: skip
    for name in ("session", "turns", "user chars", "asst chars", "to close", "clarify",
                 "shifts", "facts used (turns)"):  # fmt: skip
        table.add_column(name, overflow="fold")
    for s in found.per_session:
        table.add_row(
            Text(s.key), str(s.turns), _figure(s.user_chars_mean),
            _figure(s.assistant_chars_mean), _figure(s.time_to_close_s, " s"),
            str(s.clarifications), str(s.topic_shifts),
            _used(s.facts_used, s.facts_used_reported),
        )  # fmt: skip
    table.add_row(
        Text(f"all {found.sessions}", style="bold"), str(found.turns),
        _figure(found.user_chars_mean), _figure(found.assistant_chars_mean),
        _figure(found.time_to_close_s_mean, " s"), str(found.clarifications),
        str(found.topic_shifts),
        _used(found.facts_used, found.facts_used_reported),
    )  # fmt: skip
    return table
