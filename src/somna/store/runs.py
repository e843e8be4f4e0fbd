"""A run's account in two parts: its counters, and the entries that quote a profile.

Rejections and failures hold what a person said (a rejected fact's text, a
session key, an error about their conversation), so a store keeps them apart
from the counters, one entry per row under the profile of its session, and
erases them with that profile. An entry whose session no longer exists is not
written at all: a run still in flight during `forget` cannot bring text back.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from somna.model import Run

__all__ = ["ENTRY_KINDS", "RunEntry", "counters", "entries", "with_entries"]

ENTRY_KINDS = ("rejections", "failures")

RunEntry = tuple[str, int, str, dict[str, Any]]
"""One entry of a run: (kind, position, session id, the entry as the run holds it)."""


def counters(run: Run) -> Run:
    """The run without its entries: what the `runs` table keeps."""
    return run.model_copy(update={kind: [] for kind in ENTRY_KINDS})


def entries(run: Run) -> Iterator[RunEntry]:
    """The run's rejections and failures, each with the session it is about."""
    for kind in ENTRY_KINDS:
        for seq, entry in enumerate(getattr(run, kind)):
            session = entry.get("session")
            if isinstance(session, str):
                yield kind, seq, session, entry


def with_entries(run: Run, found: Iterable[tuple[str, int, dict[str, Any]]]) -> Run:
    """The run with the entries a store still holds for it, in their first order."""
    lists: dict[str, list[tuple[int, dict[str, Any]]]] = {kind: [] for kind in ENTRY_KINDS}
    for kind, seq, entry in found:
        lists[kind].append((seq, entry))
    return run.model_copy(
        update={kind: [entry for _, entry in sorted(items, key=lambda i: i[0])]
                for kind, items in lists.items()}
    )  # fmt: skip
