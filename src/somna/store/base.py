"""The one persistence port. A backend implements `Store`; nothing else touches a database.

Every operation after profile management goes through a scope bound to one
profile (`Store.read(profile_id)` or `Store.write(profile_id)`), so no query can
forget to filter by profile (DESIGN invariant 7). A write scope is one
transaction: all of it lands, or none of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

import numpy as np
from pydantic import BaseModel, Field

from somna.model import (
    ACTIVE_STATUSES,
    ApiKey,
    Conflict,
    ConflictStatus,
    Evidence,
    Fact,
    FactEvent,
    FactStatus,
    FactType,
    Message,
    Profile,
    Role,
    Run,
    Session,
    Summary,
    SummaryKind,
    Wording,
)
from somna.model.lifecycle import Change
from somna.store.embedders import EmbedderLedger

__all__ = [
    "Candidate",
    "Eligibility",
    "FactFilter",
    "Finished",
    "NewMessage",
    "Reader",
    "SourceCursor",
    "Store",
    "ThreadState",
    "Writer",
    "active_of",
    "latest_gone",
]

_GONE = frozenset({FactStatus.RETIRED, FactStatus.EXPIRED})


def active_of(worded: Iterable[Fact]) -> Fact | None:
    """The active fact among facts of one wording (a profile has at most one)."""
    return next((f for f in worded if f.is_active), None)


def latest_gone(worded: Iterable[Fact]) -> Fact | None:
    """The most recently recorded retired or expired fact among facts of one wording
    (the lowest id first where two were recorded at once): the one said again comes back."""
    gone = sorted((f for f in worded if f.status in _GONE), key=lambda f: f.id)
    return max(gone, key=lambda f: f.recorded_at, default=None)


@dataclass(frozen=True, slots=True)
class Candidate:
    """What recall weighs a candidate fact by, read without loading the whole fact: recall
    weighs four times as many candidates as it returns, and loads only those it returns."""

    id: str
    type: FactType
    text: str
    confidence: float
    strength: float
    valid_from: datetime
    recorded_at: datetime


@dataclass(frozen=True)
class Eligibility:
    """Which facts a search may return: by status now, and by valid time at `at`.

    When `include_superseded` is set (an explicit as-of question), a superseded
    fact whose valid time covers `at` counts: it was the truth then.
    """

    at: datetime
    now: datetime
    include_superseded: bool = False
    replaced: bool = False
    """Only the facts superseded since, whatever their valid time: the older values a
    question may still be worded in, each standing for what replaced it (full text only)."""

    @property
    def statuses(self) -> frozenset[FactStatus]:
        if self.replaced:
            return frozenset({FactStatus.SUPERSEDED})
        if self.include_superseded:
            return ACTIVE_STATUSES | {FactStatus.SUPERSEDED}
        return ACTIVE_STATUSES


class FactFilter(BaseModel):
    """The filters of `Memory.list`; `statuses=None` means the active ones."""

    types: list[FactType] | None = None
    statuses: list[FactStatus] | None = None
    category: str | None = None
    subject: str | None = None
    text: str | None = None
    as_of: datetime | None = None
    limit: int = Field(default=100, ge=1, le=10_000)
    offset: int = Field(default=0, ge=0)


@dataclass(frozen=True)
class NewMessage:
    role: Role
    content: str
    created_at: datetime
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Finished:
    """A leased session the night has consolidated: who held it, when it ended, how far it
    was read (`through_seq`: later messages start a new live session) and when its
    archived messages are purged."""

    session_id: str
    owner: str
    at: datetime
    through_seq: int
    purge_after: datetime


@dataclass(frozen=True)
class SourceCursor:
    """How far Somna has read one conversation of an external chat table, and where it went.

    One cursor per segment: rows `after_row_id < id <= last_row_id` of the source's
    conversation `key` became the Somna session `session_key` of `profile_id`.
    `last_change_seen_at` is when Somna first saw the segment's newest row;
    `purged_at`, when its rows were deleted from the source. See `somna.sources.n8n`.
    """

    source: str
    key: str
    segment: int
    profile_id: str
    session_key: str
    after_row_id: int
    last_row_id: int
    last_change_seen_at: datetime
    purged_at: datetime | None = None


@dataclass(frozen=True)
class ThreadState:
    """The running summary of a live conversation: its turns up to `folded_seq` are told in
    `summary`, so the thread fits a budget; the turns themselves stay for the nightly job."""

    session_id: str
    folded_seq: int
    summary: str
    updated_at: datetime


class Reader(Protocol):
    """Reads within one profile."""

    @property
    def profile_id(self) -> str: ...

    def get_fact(self, fact_id: str) -> Fact | None: ...

    def get_facts(self, fact_ids: Sequence[str]) -> list[Fact]:
        """These facts of this profile, in the order asked; unknown ids are left out."""
        ...

    def candidates(self, fact_ids: Sequence[str]) -> list[Candidate]:
        """What recall weighs these facts of this profile by, in the order asked; unknown ids
        are left out."""
        ...

    def find_active(self, type: FactType, subject: str, text_hash: str) -> Fact | None: ...

    def find_gone(self, type: FactType, subject: str, text_hash: str) -> Fact | None:
        """The most recently recorded retired or expired fact of this wording."""
        ...

    def worded_like(self, wordings: Iterable[Wording]) -> list[Fact]:
        """Every fact of these wordings, whatever its status, in no particular order."""
        ...

    def list_facts(self, flt: FactFilter, now: datetime) -> list[Fact]: ...

    def count_facts(self, flt: FactFilter, now: datetime) -> int:
        """How many facts `list_facts` finds, leaving out its limit and offset."""
        ...

    def predecessors(self, fact_id: str) -> list[Fact]:
        """Facts that this one superseded or corrected."""
        ...

    def evidence(self, fact_ids: Sequence[str]) -> list[Evidence]: ...

    def events(self, fact_ids: Sequence[str]) -> list[FactEvent]: ...

    def get_conflict(self, conflict_id: str) -> Conflict | None: ...

    def list_conflicts(
        self, statuses: Sequence[ConflictStatus], fact_id: str | None = None
    ) -> list[Conflict]: ...

    def text_search(self, query: str, eligible: Eligibility, limit: int) -> list[tuple[str, float]]:
        """Full-text candidates, best first, as (fact id, relevance; higher is better)."""
        ...

    def word_search(self, query: str, eligible: Eligibility, limit: int) -> list[tuple[str, float]]:
        """`text_search` in the main index only, without the French stems: for comparing
        wordings, where two texts share the very words they are compared on."""
        ...

    def vector_search(
        self, vector: np.ndarray, eligible: Eligibility, limit: int
    ) -> list[tuple[str, float]]:
        """Nearest facts by cosine similarity, best first, as (fact id, cosine)."""
        ...

    def vector_search_many(
        self, vectors: np.ndarray, eligible: Eligibility, limit: int
    ) -> list[list[tuple[str, float]]]:
        """`vector_search` for each row of `vectors`: a batch's neighbours, read at once."""
        ...

    def summary_text_search(
        self, query: str, kinds: Sequence[SummaryKind], at: datetime, limit: int
    ) -> list[tuple[str, float]]:
        """Full-text candidates among summaries that began by `at`, as (summary id, relevance)."""
        ...

    def summary_vector_search(
        self, vector: np.ndarray, kinds: Sequence[SummaryKind], at: datetime, limit: int
    ) -> list[tuple[str, float]]:
        """Nearest summaries that began by `at`, as (summary id, cosine)."""
        ...

    def get_summaries(self, summary_ids: Sequence[str]) -> list[Summary]: ...

    def messages_by_id(self, message_ids: Sequence[str]) -> list[Message]:
        """Messages by id, from the hot table or the archive (not yet purged)."""
        ...

    def latest_session(self, key: str) -> Session | None: ...

    def sessions(self, limit: int = 100) -> list[Session]:
        """The profile's sessions, newest first."""
        ...

    def window(self, key: str, n: int) -> list[Message]:
        """The last `n` messages under this session key, oldest first."""
        ...

    def due_sessions(self, *, idle_before: datetime, now: datetime, limit: int) -> list[Session]:
        """Sessions quiet since `idle_before`, not consolidated and not leased, oldest first."""
        ...

    def held_sessions(self, *, idle_before: datetime, now: datetime) -> list[Session]:
        """Sessions that would be due but another worker's lease still holds."""
        ...

    def lease_owners(self, *, now: datetime) -> list[str]:
        """The workers holding a lease on one of the profile's live sessions at `now`."""
        ...

    def session_messages(self, session_id: str) -> list[Message]:
        """A session's messages still in the hot table, in order."""
        ...

    def summaries(
        self, kind: SummaryKind, *, limit: int = 100, since: datetime | None = None
    ) -> list[Summary]:
        """Summaries of one kind, newest period first."""
        ...

    def session_transcript(self, session_id: str) -> list[Message]:
        """A session's messages, hot or archived (not yet purged), in order."""
        ...

    def thread_state(self, session_id: str) -> ThreadState | None:
        """The running summary of a live session, if its thread was ever folded."""
        ...


class Writer(Reader, Protocol):
    """Reads and writes within one profile, inside one transaction."""

    def apply(self, change: Change) -> None:
        """Write a lifecycle change; refuses a changed fact without its event (invariant 4)."""
        ...

    def add_messages(self, key: str, messages: Sequence[NewMessage]) -> Session: ...

    def lease_sessions(
        self, *, idle_before: datetime, now: datetime, owner: str, until: datetime, limit: int
    ) -> list[Session]:
        """Take up to `limit` sessions quiet since `idle_before`, not consolidated, not leased.

        A lease held by a worker that died expires at its `until`; the session is
        then taken again.
        """
        ...

    def release_session(self, session_id: str, owner: str, *, retry_at: datetime | None) -> None:
        """Give a leased session back.

        After a failure (`retry_at` set) it counts one more attempt and is not
        due again before `retry_at`; without, the worker merely stops (a signal)
        and the session is due again at once.
        """
        ...

    def renew_lease(self, session_id: str, owner: str, *, until: datetime) -> bool:
        """Hold a leased session until `until`; False when this worker no longer holds it."""
        ...

    def release_leases(self, owner: str) -> int:
        """Give back every session `owner` holds (a worker that died); how many."""
        ...

    def finish_session(self, finished: Finished) -> int:
        """Mark a leased session consolidated and move its messages to the archive.

        Only messages up to `through_seq` (those the consolidation read) are
        archived; any later one moves to a new live session of the same key.
        Returns how many messages were archived. Refuses a session this worker
        does not hold.
        """
        ...

    def add_summary(self, summary: Summary, vector: list[float] | None) -> None: ...

    def save_thread_state(self, state: ThreadState) -> None:
        """Insert or replace the running summary of a session of this profile."""
        ...

    def merge_sessions(self, into_id: str, other_id: str) -> Session:
        """Move every message of `other_id` into `into_id`, renumbered in time order, and
        remove the emptied session; both must be live (open or closed), else
        `ConflictStateError`. The running summaries of both are dropped."""
        ...

    def purge_archive(self, now: datetime) -> int:
        """Delete archived messages past their retention; returns how many."""
        ...

    def record_usage(self, facts: Sequence[Fact]) -> None:
        """Store facts' use counters (strength, recall_count, last_recalled_at).

        Use is not state: these change without a history event.
        """
        ...

    def record_judged(self, fact_ids: Sequence[str], at: datetime) -> None:
        """Mark facts as judged against their neighbors (bookkeeping, no history event)."""
        ...

    def save_source_cursor(self, cursor: SourceCursor, *, expected_last_row_id: int | None) -> None:
        """Record a source cursor of this profile, in this transaction (with what it imported).

        `expected_last_row_id=None` adds a new segment; otherwise the segment is
        updated only while its `last_row_id` is still the one expected. Either way
        a cursor that moved meanwhile (another import of the same source) raises
        `ConflictStateError`, so no source row is ever imported twice.
        """
        ...


class Store(Protocol):
    @property
    def location(self) -> str:
        """Where the data lives, for people: a file path, or a server without its password."""
        ...

    def schema_version(self) -> int:
        """The number of the last migration applied."""
        ...

    def create_profile(self, profile: Profile) -> Profile: ...

    def get_profile(self, profile_id: str) -> Profile | None: ...

    def list_profiles(self) -> list[Profile]: ...

    def save_profile_settings(self, profile_id: str, settings: dict[str, Any]) -> None:
        """Replace a profile's settings mapping (its per-profile overrides and their history)."""
        ...

    def erase_profile(self, profile_id: str) -> dict[str, int]:
        """Erase a profile and everything it holds (the only hard delete besides the archive
        purge); returns how many rows went from each table."""
        ...

    def save_key(self, key: ApiKey) -> None:
        """Insert or update an API key."""
        ...

    def find_key(self, secret_hash: str) -> ApiKey | None: ...

    def list_keys(self) -> list[ApiKey]: ...

    def save_run(self, run: Run) -> None:
        """Insert or update a consolidation run (runs span profiles)."""
        ...

    def list_runs(self, limit: int = 20) -> list[Run]:
        """The latest runs, newest first."""
        ...

    def source_cursors(self, source: str) -> list[SourceCursor]:
        """The cursors of one source, across profiles, by key then segment: the latest
        segment of every key, and every segment not purged yet."""
        ...

    def add_tombstone(self, profile_hash: str, at: datetime) -> None:
        """Remember that the profile whose id hashes to `profile_hash` was erased (only the
        hash is kept), so that an import does not create it again."""
        ...

    def tombstones(self) -> set[str]:
        """The hashes of every erased profile's id that was not admitted again."""
        ...

    def remove_tombstone(self, profile_hash: str) -> None:
        """Admit the profile again: its rows may be imported."""
        ...

    def end_login(self, login_hash: str, until: datetime, now: datetime) -> None:
        """Refuse from now on, in every process, the dashboard login whose nonce hashes to
        `login_hash`, until it would have expired anyway (`until`); logouts of logins
        expired before `now` are forgotten."""
        ...

    def login_ended(self, login_hash: str) -> bool:
        """Whether the dashboard login whose nonce hashes to `login_hash` was logged out."""
        ...

    def embedders(self) -> EmbedderLedger:
        """The embedder the database's vectors come from, and re-embedding to another."""
        ...

    def read(self, profile_id: str) -> AbstractContextManager[Reader]: ...

    def write(self, profile_id: str) -> AbstractContextManager[Writer]: ...

    def close(self) -> None: ...
