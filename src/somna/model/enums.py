"""Closed vocabularies of the domain: every enum of the data model."""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "ACTIVE_STATUSES",
    "ConflictStatus",
    "EventAction",
    "FactStatus",
    "FactType",
    "RecalledKind",
    "Resolution",
    "Role",
    "RunStatus",
    "SessionStatus",
    "SummaryKind",
    "Verdict",
]


class FactType(StrEnum):
    """What a fact holds: something true of the person, an entity, a term of theirs, an
    instruction to the agent, or a trait of the persona."""

    FACT = "fact"
    ENTITY = "entity"
    GLOSSARY = "glossary"
    INSTRUCTION = "instruction"
    PERSONA = "persona"
    OTHER = "other"


class FactStatus(StrEnum):
    """Where a fact stands in its life: only `unverified` and `verified` are active."""

    UNVERIFIED = "unverified"
    VERIFIED = "verified"
    DISPUTED = "disputed"
    SUPERSEDED = "superseded"
    RETIRED = "retired"
    EXPIRED = "expired"

    @property
    def is_active(self) -> bool:
        """Active facts are the ones recall may put into a prompt."""
        return self in ACTIVE_STATUSES


ACTIVE_STATUSES: frozenset[FactStatus] = frozenset({FactStatus.UNVERIFIED, FactStatus.VERIFIED})


class SessionStatus(StrEnum):
    """Where a conversation stands: written while `open`, quiet then `closed`, read by the
    night (`consolidated`), its messages moved to the archive (`archived`)."""

    OPEN = "open"
    CLOSED = "closed"
    CONSOLIDATED = "consolidated"
    ARCHIVED = "archived"


class Role(StrEnum):
    """Who said a message: the client (`user`), the agent (`assistant`), its set-up or a tool."""

    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    TOOL = "tool"


class EventAction(StrEnum):
    """What happened to a fact, as its history records it."""

    CREATED = "created"
    VERIFIED = "verified"
    REINFORCED = "reinforced"
    UPDATED = "updated"
    SUPERSEDED = "superseded"
    DISPUTED = "disputed"
    RESOLVED = "resolved"
    RETIRED = "retired"
    EXPIRED = "expired"
    RESTORED = "restored"


class RunStatus(StrEnum):
    """Where a consolidation run stands: `running` until it ends one of the other ways."""

    RUNNING = "running"
    SUCCEEDED = "succeeded"
    PARTIAL = "partial"
    """Finished, but some sessions failed and stay due for the next run."""
    INTERRUPTED = "interrupted"
    FAILED = "failed"
    ABANDONED = "abandoned"
    """Its process died; a later run found it still `running` and closed it."""


class RecalledKind(StrEnum):
    """What a recalled item is: one fact, or a summary of a session, a day or a person."""

    FACT = "fact"
    SUMMARY = "summary"


class ConflictStatus(StrEnum):
    """Where a contradiction put to a person stands: `open` and `deferred` still wait."""

    OPEN = "open"
    DEFERRED = "deferred"
    RESOLVED = "resolved"


class Resolution(StrEnum):
    """What a person decides about a conflict; `DEFER` settles nothing: it postpones."""

    A_TRUE = "a_true"
    B_TRUE = "b_true"
    NEITHER = "neither"
    CORRECTED = "corrected"
    DEFER = "defer"


class Verdict(StrEnum):
    """How a new fact relates to an existing neighbor."""

    DUPLICATE = "duplicate"
    """Says what the neighbor says: the neighbor is reinforced with the new evidence."""
    SUPERSEDES = "supersedes"
    """A new value of what the neighbor says: its valid time ends where the new one's starts."""
    CONTRADICTS = "contradicts"
    """Both cannot hold and nothing said settles which: both disputed, a conflict opened."""
    DISTINCT = "distinct"
    """Says something else: both stand."""


class SummaryKind(StrEnum):
    """What a summary covers: one session, one day, or the person as a whole."""

    SESSION = "session"
    DAY = "day"
    PORTRAIT = "portrait"
