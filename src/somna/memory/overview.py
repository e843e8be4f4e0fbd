"""What each profile holds and waits for, read in counts: the morning review's first page.

A person who looks after a bot's memory starts from here: how many facts of
each status, the conflicts and rules waiting for them, the conversations still
open, and how the last consolidation of the profile went.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict

from somna.memory.inputs import as_enum, as_list, checked
from somna.model import (
    ConflictStatus,
    FactStatus,
    FactType,
    Profile,
    Run,
    RunStatus,
    SessionStatus,
    utc,
)
from somna.store import FactFilter, Store

__all__ = ["FactQuery", "ProfileOverview", "fact_filter", "overview"]

_UNSETTLED = [ConflictStatus.OPEN, ConflictStatus.DEFERRED]
_TROUBLED = frozenset({RunStatus.FAILED, RunStatus.PARTIAL, RunStatus.ABANDONED})
_SESSIONS_READ = 10_000
"""Open conversations are counted among the profile's latest this many."""


@dataclass(frozen=True)
class ProfileOverview:
    """One profile in counts, with its last consolidation run (its own or one over all)."""

    profile: Profile
    facts: dict[FactStatus, int]
    open_conflicts: int
    pending_rules: int
    open_sessions: int
    last_run: Run | None
    failed_runs: int
    """Among the latest runs that covered the profile, those that failed or left sessions."""

    @property
    def active_facts(self) -> int:
        return self.facts[FactStatus.UNVERIFIED] + self.facts[FactStatus.VERIFIED]


class FactQuery(TypedDict, total=False):
    """The filters of `Memory.list_facts` and `Memory.count_facts`, declared once for both."""

    type: FactType | str | Sequence[FactType | str] | None
    status: FactStatus | str | Sequence[FactStatus | str] | None
    category: str | None
    subject: str | None
    text: str | None
    as_of: datetime | None


def fact_filter(query: FactQuery, *, limit: int = 100, offset: int = 0) -> FactFilter:
    """The store's filter for `Memory.list_facts` and `Memory.count_facts`, checked."""
    unknown = query.keys() - FactQuery.__optional_keys__
    if unknown:  # as a call with an unexpected keyword argument would say
        raise TypeError(f"Unexpected fact filter: {', '.join(sorted(unknown))}.")
    type, status, as_of = query.get("type"), query.get("status"), query.get("as_of")
    return checked(
        lambda: FactFilter(
            types=None
            if type is None
            else [as_enum(FactType, t, "fact type") for t in as_list(type)],
            statuses=None
            if status is None
            else [as_enum(FactStatus, s, "fact status") for s in as_list(status)],
            category=query.get("category"),
            subject=query.get("subject"),
            text=query.get("text"),
            as_of=None if as_of is None else utc(as_of),
            limit=limit,
            offset=offset,
        )
    )


def overview(store: Store, profile: Profile, runs: Sequence[Run], now: datetime) -> ProfileOverview:
    """`profile` in counts; `runs` are the latest runs, newest first, of every profile."""
    with store.read(profile.id) as tx:
        facts = {s: tx.count_facts(FactFilter(statuses=[s]), now) for s in FactStatus}
        pending = tx.count_facts(
            FactFilter(types=[FactType.INSTRUCTION], statuses=[FactStatus.UNVERIFIED]), now
        )
        conflicts = [
            c
            for c in tx.list_conflicts(_UNSETTLED)
            if c.status is ConflictStatus.OPEN
            or (c.deferred_until is not None and c.deferred_until <= now)
        ]
        opened = [s for s in tx.sessions(limit=_SESSIONS_READ) if s.status is SessionStatus.OPEN]
    covering = [r for r in runs if r.profile_id in (None, profile.id) and not r.dry_run]
    return ProfileOverview(
        profile=profile,
        facts=facts,
        open_conflicts=len(conflicts),
        pending_rules=pending,
        open_sessions=len(opened),
        last_run=covering[0] if covering else None,
        failed_runs=sum(r.status in _TROUBLED for r in covering),
    )
