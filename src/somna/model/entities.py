"""The domain entities: what Somna remembers, and why, and since when.

Every timestamp is timezone-aware UTC. Facts are bitemporal: `valid_from` /
`valid_to` say when a fact is true in the world, `recorded_at`,
`superseded_at` and `retired_at` say when Somna learned or dropped it.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
import unicodedata
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from somna.model.enums import (
    ConflictStatus,
    EventAction,
    FactStatus,
    FactType,
    Resolution,
    Role,
    RunStatus,
    SessionStatus,
    SummaryKind,
)

__all__ = [
    "DEFAULT_SUBJECT",
    "FROM_STORE",
    "MAX_FACT_CHARS",
    "STATEMENT_FIELDS",
    "ApiKey",
    "Conflict",
    "Evidence",
    "Fact",
    "FactEvent",
    "Message",
    "Profile",
    "Run",
    "RunCounts",
    "Session",
    "Summary",
    "Wording",
    "check_fact_text",
    "check_visible_text",
    "fold_text",
    "is_fact_text",
    "new_id",
    "normalize_text",
    "shared_words",
    "text_hash",
    "utc",
    "utcnow",
    "word_overlap",
]

MAX_FACT_CHARS = 500
DEFAULT_SUBJECT = "user"
"""The subject of a fact when none is named: the profile's own user."""

_ASCII_PUNCTUATION = {
    code: " " for code in range(128) if unicodedata.category(chr(code)).startswith("P")
}
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_PROFILE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@:-]{0,127}$")
# A sentence ends at . ! or ? followed by a capitalised word, unless the dot
# closes a common abbreviation ("Dr. Smith", "e.g. Paris"). The lookahead first lets
# every other position fail before the lookbehinds are tried (six times faster).
_SENTENCE_BREAK = re.compile(
    r"(?=[.!?])"
    r"(?<![A-Z])(?<!\.[a-z])(?<!\b(?:Mr|Ms|Dr|St|Jr|Sr|vs|Mt))(?<!\bMrs)(?<!\betc)[.!?]\s+[A-Z]"
)


def utcnow() -> datetime:
    return datetime.now(UTC)


def utc(value: datetime) -> datetime:
    """The same instant in UTC; a naive datetime is taken to be UTC already."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise ValueError(f"{value.isoformat()} is outside the range of dates Somna keeps") from None


def new_id(prefix: str) -> str:
    """A sortable unique id: 48 bits of milliseconds then 80 random bits (ULID layout)."""
    value = (time.time_ns() // 1_000_000) << 80 | int.from_bytes(os.urandom(10), "big")
    chars = []
    for _ in range(26):
        value, digit = divmod(value, 32)
        chars.append(_CROCKFORD[digit])
    return f"{prefix}_{''.join(reversed(chars))}"


def normalize_text(text: str) -> str:
    """Fold case, width, punctuation and whitespace so that trivial variants compare equal."""
    if text.isascii():  # the same folding, without a Unicode lookup per character
        return " ".join(text.lower().translate(_ASCII_PUNCTUATION).split())
    folded = unicodedata.normalize("NFKC", text).casefold()
    kept = "".join(" " if unicodedata.category(ch).startswith("P") else ch for ch in folded)
    return " ".join(kept.split())


def fold_text(text: str) -> str:
    """Case and whitespace folded: how quotes are compared with what was said (invariant 5)."""
    return " ".join(text.split()).casefold()


def word_overlap(a: str, b: str) -> float:
    """Jaccard similarity of two texts' normalized word sets, from 0 (none shared) to 1."""
    left, right = set(normalize_text(a).split()), set(normalize_text(b).split())
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)


_STEM = 5
"""Letters two words share at their start to count as one word inflected ("deliver",
"deliveries")."""


def shared_words(asked: Iterable[str], words: Iterable[str]) -> int:
    """How many of the `asked` words `words` holds, as written or inflected: a crude stem,
    the first five letters, where no stemmer of the language is at hand.

    >>> shared_words(["deliver", "day"], ["deliveries", "come", "tuesdays"])
    1
    """
    written = set(words)
    stems = {w[:_STEM] for w in written if len(w) >= _STEM}
    return sum(1 for w in set(asked) if w in written or (len(w) >= _STEM and w[:_STEM] in stems))


def text_hash(text: str) -> str:
    return hashlib.sha256(normalize_text(text).encode()).hexdigest()[:32]


Wording = tuple[FactType, str, str]
"""What makes two facts the same saying: type, subject and `text_hash`; at most one active
fact of a profile has a wording."""


def check_visible_text(text: str, what: str = "The text") -> str:
    """Text a person can read: no NUL (which Postgres cannot store, so both stores refuse it)
    and at least one character that is not a control, format (zero-width) or space."""
    if "\x00" in text:
        raise ValueError(f"{what} must not contain NUL characters.")
    if not any(unicodedata.category(ch)[0] not in "CZ" for ch in text):
        raise ValueError(f"{what} must contain visible characters, not only spaces or controls.")
    return text


def check_fact_text(text: str) -> str:
    """A fact is one self-contained sentence: not empty, one line, bounded, one sentence."""
    stripped = text.strip()
    if not stripped:
        raise ValueError("A fact's text must not be empty.")
    check_visible_text(text, "A fact's text")
    if "\n" in stripped or "\r" in stripped:
        raise ValueError("A fact's text must be one sentence on one line.")
    cleaned = " ".join(stripped.split())
    if len(cleaned) > MAX_FACT_CHARS:
        raise ValueError(
            f"A fact's text must be at most {MAX_FACT_CHARS} characters; this one has "
            f"{len(cleaned)}. Split it into several facts."
        )
    if not _has_word(cleaned):
        raise ValueError("A fact's text must contain words, not only punctuation.")
    if _SENTENCE_BREAK.search(cleaned):
        raise ValueError(
            "A fact's text must be a single sentence; store each sentence as its own fact."
        )
    return cleaned


def is_fact_text(text: str) -> bool:
    """Whether `check_fact_text` accepts `text`: for code that leaves a piece out rather than
    refuse it."""
    try:
        check_fact_text(text)
    except ValueError:
        return False
    return True


FROM_STORE = {"from_store": True}
"""The validation context of a fact read back from a store, whose text was checked when it
was written: `Fact.model_validate(row, context=FROM_STORE)` skips that check (it took half
the time of loading a fact)."""


def _fact_text(text: str, info: ValidationInfo) -> str:
    if info.context is not None and info.context.get("from_store"):
        return text
    return check_fact_text(text)


def _has_word(text: str) -> bool:
    """Whether `normalize_text(text)` would keep anything: a character neither punctuation nor
    space. It stops at the first such character, so a stored fact loads without folding."""
    folded = unicodedata.normalize("NFKC", text)
    return any(not ch.isspace() and unicodedata.category(ch)[0] != "P" for ch in folded)


def _aware(value: datetime | None) -> datetime | None:
    return None if value is None else utc(value)


AwareDatetime = Annotated[datetime, AfterValidator(utc)]
OptionalAwareDatetime = Annotated[datetime | None, AfterValidator(_aware)]


class _Entity(BaseModel):
    model_config = ConfigDict(validate_assignment=True, extra="forbid")


class Profile(_Entity):
    """The isolation unit: facts of one profile are never visible from another."""

    id: str
    name: str = ""
    settings: dict[str, Any] = Field(default_factory=dict)
    created_at: AwareDatetime = Field(default_factory=utcnow)

    @field_validator("id")
    @classmethod
    def _check_id(cls, value: str) -> str:
        if not _PROFILE_ID.match(value):
            raise ValueError(
                f"{value!r} is not a valid profile id: use 1 to 128 letters, digits "
                "or _ . @ : - and start with a letter or digit."
            )
        return value


class Session(_Entity):
    """One conversation thread of a profile, found by its key (n8n's "Session Key")."""

    id: str = Field(default_factory=lambda: new_id("ses"))
    profile_id: str
    key: str = Field(min_length=1, max_length=256)
    started_at: AwareDatetime
    last_message_at: AwareDatetime
    status: SessionStatus = SessionStatus.OPEN
    consolidated_at: OptionalAwareDatetime = None
    lease_owner: str | None = None
    """The consolidation worker that holds this session, until `lease_until`."""
    lease_until: OptionalAwareDatetime = None
    attempts: int = Field(default=0, ge=0)
    next_attempt_at: OptionalAwareDatetime = None
    """After a failed consolidation, the session is not taken again before this time."""


class Message(_Entity):
    id: str = Field(default_factory=lambda: new_id("msg"))
    session_id: str
    seq: int = Field(ge=0)
    role: Role
    content: str = Field(min_length=1)
    created_at: AwareDatetime
    meta: dict[str, Any] = Field(default_factory=dict)
    """Where the message came from (a source's own ids), kept for tracing evidence."""


STATEMENT_FIELDS = ("type", "category", "subject", "predicate", "object", "text")
"""What a fact says, apart from how far it is trusted and when it holds: the store keeps
them as written, and a correction carries over those it does not change."""


class Fact(_Entity):
    """One self-contained sentence that Somna believes, with its trust and its times."""

    id: str = Field(default_factory=lambda: new_id("fct"))
    profile_id: str
    # what
    type: FactType = FactType.FACT
    category: str | None = Field(default=None, max_length=64)
    subject: str = Field(default=DEFAULT_SUBJECT, min_length=1, max_length=200)
    predicate: str | None = Field(default=None, max_length=200)
    object: str | None = Field(default=None, max_length=500)
    text: Annotated[str, AfterValidator(_fact_text)]
    # trust
    status: FactStatus = FactStatus.UNVERIFIED
    confidence: float = Field(default=0.7, ge=0.0, le=1.0)
    # valid time (the world)
    valid_from: AwareDatetime = Field(default_factory=utcnow)
    valid_to: OptionalAwareDatetime = None
    # record time (the system)
    recorded_at: AwareDatetime = Field(default_factory=utcnow)
    superseded_at: OptionalAwareDatetime = None
    superseded_by: str | None = None
    retired_at: OptionalAwareDatetime = None
    first_observed_at: AwareDatetime = Field(default_factory=utcnow)
    last_verified_at: OptionalAwareDatetime = None
    expires_at: OptionalAwareDatetime = None
    # use
    last_recalled_at: OptionalAwareDatetime = None
    recall_count: int = Field(default=0, ge=0)
    strength: float = Field(default=1.0, ge=0.0, le=1.0)
    # judging
    judged_at: OptionalAwareDatetime = None
    """When the fact was judged against its neighbors of the same subject; None until a
    nightly run has done it for a fact added through the API, MCP or CLI."""

    @property
    def text_hash(self) -> str:
        return text_hash(self.text)

    @property
    def wording(self) -> Wording:
        return (self.type, self.subject, self.text_hash)

    @property
    def is_active(self) -> bool:
        return self.status.is_active

    def is_valid_at(self, moment: datetime) -> bool:
        """True when `moment` falls inside the fact's valid time."""
        moment = utc(moment)
        return self.valid_from <= moment and (self.valid_to is None or moment < self.valid_to)


class Evidence(_Entity):
    """Why a fact exists: a verbatim quote, and where it was said when known."""

    id: str = Field(default_factory=lambda: new_id("evd"))
    fact_id: str
    session_id: str | None = None
    message_id: str | None = None
    quote: Annotated[
        str,
        Field(min_length=1, max_length=4000),
        AfterValidator(lambda quote: check_visible_text(quote, "A quote")),
    ]
    observed_at: AwareDatetime = Field(default_factory=utcnow)


class FactEvent(_Entity):
    """One line of a fact's append-only history."""

    id: str = Field(default_factory=lambda: new_id("evt"))
    fact_id: str
    at: AwareDatetime = Field(default_factory=utcnow)
    action: EventAction
    actor: str = "system"
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None


class Conflict(_Entity):
    """Two facts that disagree, waiting for a person (or the conversation) to settle them."""

    id: str = Field(default_factory=lambda: new_id("cfl"))
    profile_id: str
    fact_a_id: str
    fact_b_id: str
    status: ConflictStatus = ConflictStatus.OPEN
    resolution: Resolution | None = None
    correction: str | None = None
    correction_fact_id: str | None = None
    created_at: AwareDatetime = Field(default_factory=utcnow)
    deferred_until: OptionalAwareDatetime = None
    resolved_at: OptionalAwareDatetime = None
    resolved_by: str | None = None


class Summary(_Entity):
    """A digest in words: of one session, of one day, or the profile's portrait."""

    id: str = Field(default_factory=lambda: new_id("sum"))
    profile_id: str
    kind: SummaryKind
    text: str = Field(min_length=1)
    period_start: OptionalAwareDatetime = None
    period_end: OptionalAwareDatetime = None
    session_id: str | None = None
    sources: list[str] = Field(default_factory=list)
    created_at: AwareDatetime = Field(default_factory=utcnow)


class ApiKey(_Entity):
    """A key to the REST and MCP servers; the secret itself is shown once and never stored."""

    id: str = Field(default_factory=lambda: new_id("key"))
    name: str = Field(default="", max_length=200)
    secret_hash: str
    profiles: list[str] = Field(default_factory=list)
    prefix: str | None = None
    """Every profile whose id starts with it, created on first use (one key for many users)."""
    admin: bool = False
    created_at: AwareDatetime = Field(default_factory=utcnow)
    revoked_at: OptionalAwareDatetime = None

    def can_reach(self, profile: str) -> bool:
        return self.revoked_at is None and (
            self.admin or profile in self.profiles or self.can_create(profile)
        )

    def can_create(self, profile: str) -> bool:
        """Whether a request with this key may open `profile`: it is under the key's prefix."""
        return (
            self.revoked_at is None and self.prefix is not None and profile.startswith(self.prefix)
        )


class RunCounts(BaseModel):
    """What a consolidation run did to facts and what its model calls cost: the counts a
    report over several runs adds up, named once for the run, its REST body and reports."""

    facts_added: int = 0
    facts_reinforced: int = 0
    facts_superseded: int = 0
    facts_disputed: int = 0
    facts_rejected: int = 0
    facts_expired: int = 0
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


class Run(_Entity, RunCounts):
    """One consolidation run and what it did."""

    id: str = Field(default_factory=lambda: new_id("run"))
    profile_id: str | None = None
    started_at: AwareDatetime = Field(default_factory=utcnow)
    finished_at: OptionalAwareDatetime = None
    status: RunStatus = RunStatus.RUNNING
    sessions_seen: int = 0
    sessions_consolidated: int = 0
    sessions_failed: int = 0
    rejections: list[dict[str, Any]] = Field(default_factory=list)
    failures: list[dict[str, Any]] = Field(default_factory=list)
    messages_archived: int = 0
    messages_purged: int = 0
    dry_run: bool = False
    owner: str | None = None
    """The worker that ran it (host:pid:…), so a later run can tell that its process died."""
    sessions_held: int = 0
    """Due sessions left alone because another worker holds their lease."""
    held_until: OptionalAwareDatetime = None
    """When the last of those leases expires."""

    @property
    def duration_s(self) -> float | None:
        if self.finished_at is None:
            return None
        return (self.finished_at - self.started_at).total_seconds()
