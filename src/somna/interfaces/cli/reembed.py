"""`somna reembed`: move a database to the configured embedder, every vector made again."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from somna.config import Settings
from somna.interfaces.cli import render
from somna.interfaces.cli.options import (
    CliState,
    DbOption,
    JsonOption,
    check_database,
    reported,
)
from somna.memory.reembed import Progress as OnBatch
from somna.memory.reembed import reembed_database

__all__ = ["reembed"]


def reembed(ctx: typer.Context, as_json: JsonOption = False, db: DbOption = None) -> None:
    """Embed every fact and summary again with the configured embedder, and keep it.

    A database keeps the embedder its vectors come from, and Somna refuses to open
    it with another; this command is how to change it (SOMNA_EMBEDDER,
    SOMNA_EMBED_MODEL). Stop servers and workers on the database first. Batches are
    written as they go: an interrupted run goes on where it stopped when started
    again, and the database cannot be used until it has finished.

    Example:

        export SOMNA_EMBEDDER=multilingual
        somna reembed
        somna reembed --json
    """
    state = ctx.ensure_object(CliState)
    with reported():
        settings = Settings.load(db=db or state.db)
        check_database(settings.db, must_exist=True)
        with _progress(not as_json) as progress:
            done = reembed_database(settings, progress=progress)
    if as_json:
        render.print_json(
            {
                "before": None if done.before is None else vars(done.before),
                "after": vars(done.after),
                "rows": done.rows,
            }
        )
    elif done.rows == 0 and done.before == done.after:
        render.say(f"The database already uses {done.after}; nothing to do.")
    else:
        came = "" if done.before is None else f"; they came from {done.before}"
        render.say(
            f"Re-embedded {render.plural(done.rows, 'fact or summary', 'facts and summaries')} "
            f"with {done.after}{came}."
        )


@contextmanager
def _progress(enabled: bool) -> Iterator[OnBatch | None]:
    """A bar on stderr, on a terminal only, advanced after each batch written."""
    screen = Console(stderr=True)
    if not enabled or not screen.is_terminal:
        yield None
        return
    columns = (
        TextColumn("Re-embedding"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=screen, transient=True) as bar:
        task = bar.add_task("reembed", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield advance
