"""A run's account in two parts: its counters, and the entries that quote a profile.

Rejections and failures hold what a person said (a rejected fact's text, a
session key, an error about their conversation), so a store keeps them apart
from the counters, one entry per row under the profile of its session (or under
the profile it names, when the profile failed as a whole), and erases them with
that profile. An entry whose session or profile no longer exists is not written
at all: a run still in flight during `forget` cannot bring text back.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from somna.model import Run

__all__ = ["ENTRY_KINDS", "RunEntry", "counters", "entries", "with_entries"]

ENTRY_KINDS = ("rejections", "failures")

RunEntry = tuple[str, int, str | None, str | None, dict[str, Any]]
"""One entry of a run: (kind, position, session id, profile id, the entry as the run holds
it); a session's entry has no profile id (its session's profile is the one), a profile's no
session id."""


def counters(run: Run) -> Run:
    """The run without its entries: what the `runs` table keeps."""
    return run.model_copy(update={kind: [] for kind in ENTRY_KINDS})


def entries(run: Run) -> Iterator[RunEntry]:
    """The run's rejections and failures, each with the session or the profile it is about."""
    for kind in ENTRY_KINDS:
        for seq, entry in enumerate(getattr(run, kind)):
            session, profile = entry.get("session"), entry.get("profile")
            if isinstance(session, str):
                yield kind, seq, session, None, entry
            elif isinstance(profile, str):
                yield kind, seq, None, profile, entry


def with_entries(run: Run, found: Iterable[tuple[str, int, dict[str, Any]]]) -> Run:
    """The run with the entries a store still holds for it, in their first order."""
    lists: dict[str, list[tuple[int, dict[str, Any]]]] = {kind: [] for kind in ENTRY_KINDS}
    for kind, seq, entry in found:
        lists[kind].append((seq, entry))
    return run.model_copy(
        update={kind: [entry for _, entry in sorted(items, key=lambda i: i[0])]
                for kind, items in lists.items()}
    )  # fmt: skip
