"""`Memory`: the public Python API. Every interface (CLI, REST, MCP, dashboard) goes through it.

Every call names its profile first, and a failed call writes nothing: each
operation is one store transaction, built from the pure rules of
`somna.model.lifecycle`.
"""

from __future__ import annotations

import builtins
import hashlib
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import numpy as np

from somna.config import Settings
from somna.embed import Embedder, create_embedder
from somna.errors import (
    AuthenticationError,
    ConflictStateError,
    InvalidInputError,
    NotFoundError,
    ProfileNotFoundError,
)
from somna.memory.conflicts import UNSETTLED, settle_conflict
from somna.memory.inputs import as_enum, as_list, checked, parse_message
from somna.memory.lookups import fetch_conflict, fetch_fact
from somna.memory.results import (
    Added,
    ConflictPair,
    History,
    Ingested,
    Outcome,
    Recalled,
    SearchHit,
    Similar,
)
from somna.memory.retrieval import Retrieval
from somna.memory.usage import UsageRecorder
from somna.model import (
    ACTIVE_STATUSES,
    DEFAULT_SUBJECT,
    ApiKey,
    Conflict,
    ConflictStatus,
    Evidence,
    Fact,
    FactStatus,
    FactType,
    Message,
    Profile,
    Resolution,
    Run,
    Session,
    Summary,
    SummaryKind,
    Verdict,
    fold_text,
    lifecycle,
    new_id,
    utc,
    utcnow,
)
from somna.model.lifecycle import Change
from somna.recall import render_context
from somna.sources import Conversation
from somna.sources.n8n import N8nImport, N8nReport, N8nTable, ProfileFrom
from somna.store import Eligibility, FactFilter, Reader, Store, open_store

if TYPE_CHECKING:
    from somna.llm import LLM

__all__ = ["DEFER", "Memory"]

DEFER = "defer"
"""Pass as the resolution of `resolve_conflict` to postpone a conflict."""


class Memory:
    """Long-term memory for one or many profiles.

    >>> m = Memory(store=open_store(":memory:"))
    >>> _ = m.create_profile("alice")
    >>> m.add_fact("alice", "Prefers tea to coffee.", category="preference").fact.text
    'Prefers tea to coffee.'
    >>> m.search("alice", "what does she drink?", k=1)[0].fact.text
    'Prefers tea to coffee.'

    Collaborators are injected, with defaults from `Settings.load()`: the store
    named by `SOMNA_DB` and the configured embedder. `clock` gives "now".
    """

    def __init__(
        self,
        store: Store | None = None,
        embedder: Embedder | None = None,
        llm: LLM | None = None,
        *,
        settings: Settings | None = None,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.settings = settings or Settings.load()
        self.store = store or open_store(self.settings.db)
        self.embedder = embedder or create_embedder(
            self.settings.embedder,
            model=self.settings.embed_model,
            base_url=self.settings.embed_base_url,
            api_key=self.settings.embed_api_key,
        )
        self._llm = llm
        self._clock = clock
        self._usage = UsageRecorder(self.store)
        self._retrieval = Retrieval(self.store, self.embedder, self.settings, self._usage)

    @property
    def llm(self) -> LLM:
        """The configured language model, made on first use: recall never needs one."""
        if self._llm is None:
            # Imported here: the conversation path (recall, search) never loads a model client.
            from somna.llm import create_llm

            self._llm = create_llm(
                self.settings.llm_provider,
                model=self.settings.llm_model,
                base_url=self.settings.llm_base_url,
                api_key=self.settings.llm_api_key,
            )
        return self._llm

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._usage.close()
        self.store.close()

    def now(self) -> datetime:
        return utc(self._clock())

    # -- profiles ---------------------------------------------------------------------

    def create_profile(
        self, profile: str, name: str | None = None, settings: Mapping[str, Any] | None = None
    ) -> Profile:
        created = checked(
            lambda: Profile(
                id=profile,
                name=name or profile,
                settings=dict(settings or {}),
                created_at=self.now(),
            )
        )
        return self.store.create_profile(created)

    def get_profile(self, profile: str) -> Profile:
        found = self.store.get_profile(profile)
        if found is None:
            raise ProfileNotFoundError(profile)
        return found

    def list_profiles(self) -> builtins.list[Profile]:
        return self.store.list_profiles()

    # -- the short thread -------------------------------------------------------------

    def add_messages(
        self,
        profile: str,
        session_key: str,
        messages: Iterable[Mapping[str, Any] | tuple[str, str] | Message],
    ) -> Session:
        """Append turns to the conversation `session_key`; opens the session if needed.

        Each message is a mapping with `role`, `content` and optionally `at`
        (or `created_at`) and `meta`, a `(role, content)` pair, or a `Message`.
        """
        if not session_key or not session_key.strip():
            raise InvalidInputError("A session key must not be empty.")
        if len(session_key) > 256:
            raise InvalidInputError("A session key must be at most 256 characters.")
        now = self.now()
        parsed = [parse_message(item, now) for item in messages]
        if not parsed:
            raise InvalidInputError("There are no messages to add.")
        with self.store.write(profile) as tx:
            return tx.add_messages(session_key, parsed)

    def ingest(self, conversations: Iterable[Conversation]) -> Ingested:
        """Import conversations read from a source; profiles are created as needed.

        A conversation whose session key the profile already has is skipped, so
        importing the same file twice imports it once.
        """
        report = Ingested()
        for conversation in conversations:
            if self.store.get_profile(conversation.profile) is None:
                self.create_profile(
                    conversation.profile,
                    name=conversation.profile_name,
                    settings=conversation.profile_settings,
                )
                report.profiles += 1
            with self.store.read(conversation.profile) as tx:
                seen = tx.latest_session(conversation.session_key) is not None
            if seen or not conversation.turns:
                report.skipped += 1
                continue
            self.add_messages(
                conversation.profile,
                conversation.session_key,
                [turn.as_message() for turn in conversation.turns],
            )
            report.sessions += 1
            report.messages += len(conversation.turns)
        return report

    def import_n8n(
        self,
        table: N8nTable,
        *,
        idle_hours: float | None = None,
        profile_from: ProfileFrom | None = None,
        source: str | None = None,
        purge: bool = False,
    ) -> N8nReport:
        """Import the new rows of an n8n / LangChain chat table, cut into sessions.

        Rows are stamped when first seen; a burst followed by `idle_hours` of
        silence is one session. With `purge`, the rows of sessions already
        consolidated and archived are deleted from the chat table.
        """
        importer = N8nImport(
            self.store,
            table,
            idle_hours=self.settings.idle_hours if idle_hours is None else idle_hours,
            clock=self.now,
            profile_from=profile_from,
            source=source,
        )
        return importer.run(purge=purge)

    def window(self, profile: str, session_key: str, n: int = 15) -> builtins.list[Message]:
        """The last `n` messages of the conversation, oldest first: the short thread."""
        if n < 1:
            raise InvalidInputError("The window size must be at least 1.")
        with self.store.read(profile) as tx:
            return tx.window(session_key, n)

    # -- facts ------------------------------------------------------------------------

    def add_fact(
        self,
        profile: str,
        text: str,
        *,
        type: FactType | str = FactType.FACT,
        category: str | None = None,
        subject: str | None = None,
        predicate: str | None = None,
        object: str | None = None,
        confidence: float = 0.7,
        verified: bool = False,
        valid_from: datetime | None = None,
        valid_to: datetime | None = None,
        expires_at: datetime | None = None,
        quote: str | None = None,
        actor: str = "user",
    ) -> Added:
        """Store a fact, or reinforce the same active fact if it is already known.

        Returns the stored fact and the active facts whose cosine similarity is at
        least `neighbor_floor`, for the caller to judge with `resolve`.
        """
        now = self.now()
        fact = checked(
            lambda: Fact(
                profile_id=profile,
                type=as_enum(FactType, type, "fact type"),
                category=category,
                subject=subject or DEFAULT_SUBJECT,
                predicate=predicate,
                object=object,
                text=text,
                status=FactStatus.VERIFIED if verified else FactStatus.UNVERIFIED,
                confidence=confidence,
                valid_from=valid_from or now,
                valid_to=valid_to,
                recorded_at=now,
                first_observed_at=now,
                last_verified_at=now if verified else None,
                expires_at=expires_at,
            )
        )
        if fact.valid_to is not None and fact.valid_to <= fact.valid_from:
            raise InvalidInputError(
                "The end of a fact's valid time (valid_to) must come after its start."
            )
        evidence = (
            []
            if quote is None
            else [checked(lambda: Evidence(fact_id=fact.id, quote=quote, observed_at=now))]
        )
        vector = self._embed(fact.text)
        with self.store.write(profile) as tx:
            similar = self._similar(tx, vector, now, exclude=())
            known = tx.find_active(fact.type, fact.subject, fact.text_hash)
            if known is not None:
                quotes = {fold_text(e.quote) for e in tx.evidence([known.id])}
                evidence = [e for e in evidence if fold_text(e.quote) not in quotes]
                change = lifecycle.reinforce(known, at=now, actor=actor, evidence=evidence)
                tx.apply(change)
                stored, created = change.fact(known.id), False
            else:
                tx.apply(
                    lifecycle.create(fact, vector=vector.tolist(), actor=actor, evidence=evidence)
                )
                stored, created = fact, True
        return Added(stored, created, [s for s in similar if s.fact.id != stored.id])

    def resolve(
        self, profile: str, new: str, existing: str, verdict: Verdict | str, *, actor: str = "user"
    ) -> Outcome:
        """Judge how fact `new` relates to fact `existing`, and apply the verdict.

        - duplicate: `new` is retired, its evidence merged into `existing`, which is reinforced;
        - supersedes: `existing` ends where `new` begins (valid_to, superseded_at, superseded_by);
        - contradicts: both are disputed and a conflict pair is opened for a person;
        - distinct: nothing changes.
        """
        judged = as_enum(Verdict, verdict, "verdict")
        if new == existing:
            raise InvalidInputError("A fact cannot be judged against itself.")
        now = self.now()
        with self.store.write(profile) as tx:
            fresh, old = fetch_fact(tx, new), fetch_fact(tx, existing)
            if judged is Verdict.DISTINCT:
                return Outcome([fresh, old])
            if judged is Verdict.CONTRADICTS:
                for fact in (fresh, old):
                    self._require(fact, ACTIVE_STATUSES | {FactStatus.DISPUTED}, "dispute")
                pairs = tx.list_conflicts(UNSETTLED, fact_id=fresh.id)
                if any({c.fact_a, c.fact_b} == {fresh.id, old.id} for c in pairs):
                    raise ConflictStateError(
                        f"Facts {fresh.id!r} and {old.id!r} are already in an open conflict."
                    )
                change = lifecycle.dispute(fresh, old, at=now, actor=actor)
            else:
                for fact in (fresh, old):
                    self._require(fact, ACTIVE_STATUSES, judged.value)
                if judged is Verdict.DUPLICATE:
                    copies = [
                        e.model_copy(update={"id": new_id("evd")}) for e in tx.evidence([fresh.id])
                    ]
                    change = lifecycle.retire(
                        fresh, at=now, actor=actor, reason=f"duplicate of {old.id}"
                    ).merge(lifecycle.reinforce(old, at=now, actor=actor, evidence=copies))
                else:
                    change = lifecycle.supersede(old, fresh, at=now, actor=actor)
            tx.apply(change)
        touched = [
            change.fact(i) if i in {f.id for f in change.facts} else f
            for i, f in ((fresh.id, fresh), (old.id, old))
        ]
        return Outcome(touched, change.conflicts[0] if change.conflicts else None)

    def get(self, profile: str, fact_id: str) -> Fact:
        with self.store.read(profile) as tx:
            return fetch_fact(tx, fact_id)

    def list(
        self,
        profile: str,
        *,
        type: FactType | str | Sequence[FactType | str] | None = None,
        status: FactStatus | str | Sequence[FactStatus | str] | None = None,
        category: str | None = None,
        subject: str | None = None,
        text: str | None = None,
        as_of: datetime | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> builtins.list[Fact]:
        """Facts of the profile, newest first. Without `status`, the active ones.

        With `as_of`, the facts that were true at that time (valid time), which
        may include facts superseded since.
        """
        flt = checked(
            lambda: FactFilter(
                types=None
                if type is None
                else [as_enum(FactType, t, "fact type") for t in as_list(type)],
                statuses=None
                if status is None
                else [as_enum(FactStatus, s, "fact status") for s in as_list(status)],
                category=category,
                subject=subject,
                text=text,
                as_of=None if as_of is None else utc(as_of),
                limit=limit,
                offset=offset,
            )
        )
        with self.store.read(profile) as tx:
            return tx.list_facts(flt, self.now())

    def update(
        self,
        profile: str,
        fact_id: str,
        *,
        text: str | None = None,
        type: FactType | str | None = None,
        category: str | None = None,
        subject: str | None = None,
        confidence: float | None = None,
        actor: str = "user",
    ) -> Fact:
        """Correct a fact: a new verified version replaces it; the old one stays in history."""
        changes = {
            "text": text,
            "type": type,
            "category": category,
            "subject": subject,
            "confidence": confidence,
        }
        if all(value is None for value in changes.values()):
            raise InvalidInputError(
                "Nothing to change: give a new text, type, category, subject or confidence."
            )
        now = self.now()
        with self.store.read(profile) as tx:
            old = fetch_fact(tx, fact_id)
        self._require(old, ACTIVE_STATUSES, "correct")
        new = checked(
            lambda: Fact.model_validate(
                {
                    **old.model_dump(
                        include={
                            "profile_id",
                            "type",
                            "category",
                            "subject",
                            "predicate",
                            "object",
                            "text",
                            "confidence",
                            "valid_to",
                            "first_observed_at",
                            "expires_at",
                        }
                    ),
                    **{k: v for k, v in changes.items() if v is not None},
                    "status": FactStatus.VERIFIED,
                    "valid_from": old.valid_from,
                    "recorded_at": now,
                    "last_verified_at": now,
                }
            )
        )
        vector = self._embed(new.text)
        with self.store.write(profile) as tx:
            current = fetch_fact(tx, fact_id)
            self._require(current, ACTIVE_STATUSES, "correct")
            tx.apply(lifecycle.correct(current, new, vector=vector.tolist(), at=now, actor=actor))
            return fetch_fact(tx, new.id)

    def delete(
        self, profile: str, fact_id: str, *, actor: str = "user", reason: str = "deleted"
    ) -> Fact:
        """Retire a fact: it leaves recall and lists, and stays in history. Nothing is destroyed."""
        now = self.now()
        with self.store.write(profile) as tx:
            fact = fetch_fact(tx, fact_id)
            if fact.status is FactStatus.RETIRED:
                raise ConflictStateError(f"Fact {fact_id!r} is already retired.")
            change = lifecycle.retire(fact, at=now, actor=actor, reason=reason)
            tx.apply(change)
        return change.fact(fact_id)

    def history(self, profile: str, fact_id: str) -> History:
        """The version chain around a fact (what Somna believed when) and all its events."""
        with self.store.read(profile) as tx:
            fact = fetch_fact(tx, fact_id)
            chain = [fact]
            while chain[0] is not None:
                before = tx.predecessors(chain[0].id)
                if not before:
                    break
                chain.insert(0, before[0])
            while chain[-1].superseded_by:
                after = tx.get_fact(chain[-1].superseded_by)
                if after is None:
                    break
                chain.append(after)
            ids = [f.id for f in chain]
            return History(fact, chain, tx.events(ids), tx.evidence(ids))

    # -- conflicts --------------------------------------------------------------------

    def conflicts(
        self, profile: str, status: ConflictStatus | str = ConflictStatus.OPEN
    ) -> builtins.list[ConflictPair]:
        """Conflicts waiting for a person. `open` includes deferred ones whose delay is over."""
        wanted = as_enum(ConflictStatus, status, "conflict status")
        now = self.now()
        with self.store.read(profile) as tx:
            if wanted is ConflictStatus.OPEN:
                found = [
                    c
                    for c in tx.list_conflicts(UNSETTLED)
                    if c.status is ConflictStatus.OPEN
                    or (c.deferred_until is not None and c.deferred_until <= now)
                ]
            else:
                found = tx.list_conflicts([wanted])
            return [self._pair(tx, c) for c in found]

    def resolve_conflict(
        self,
        profile: str,
        conflict_id: str,
        resolution: Resolution | str,
        *,
        correction: str | None = None,
        actor: str = "user",
    ) -> ConflictPair:
        """Settle a conflict: a_true, b_true, neither, corrected (with `correction`), or defer.

        The losing facts are retired; a fact that wins comes back verified once no
        other conflict holds it. `corrected` retires both and stores the correction
        as a new verified fact. `defer` keeps both out of recall and brings the
        conflict back after `defer_days`.
        """
        now = self.now()
        choice = (
            DEFER
            if resolution == DEFER
            else as_enum(Resolution, resolution, "resolution (or 'defer')")
        )
        if (choice is Resolution.CORRECTED) != (correction is not None):
            raise InvalidInputError(
                "Give a correction text with the 'corrected' resolution, and only with it."
            )
        with self.store.read(profile) as tx:
            pair = self._pair(tx, fetch_conflict(tx, conflict_id))
        correction_fact, vector = None, None
        if correction is not None:
            a = pair.fact_a
            correction_fact = checked(
                lambda: Fact(
                    profile_id=profile,
                    type=a.type,
                    category=a.category,
                    subject=a.subject,
                    text=correction,
                    status=FactStatus.VERIFIED,
                    confidence=1.0,
                    valid_from=min(a.valid_from, pair.fact_b.valid_from),
                    recorded_at=now,
                    first_observed_at=now,
                    last_verified_at=now,
                )
            )
            vector = self._embed(correction_fact.text)
        with self.store.write(profile) as tx:
            conflict = fetch_conflict(tx, conflict_id)
            if conflict.status is ConflictStatus.RESOLVED:
                raise ConflictStateError(f"Conflict {conflict_id!r} is already resolved.")
            if choice == DEFER:
                change = Change(
                    conflicts=[
                        conflict.model_copy(
                            update={
                                "status": ConflictStatus.DEFERRED,
                                "deferred_until": now + timedelta(days=self.settings.defer_days),
                            }
                        )
                    ]
                )
            else:
                assert isinstance(choice, Resolution)
                change = settle_conflict(
                    tx, conflict, choice, correction_fact, vector, now=now, actor=actor
                )
            tx.apply(change)
            return self._pair(tx, fetch_conflict(tx, conflict_id))

    # -- erasure, export, keys --------------------------------------------------------

    def forget(self, profile: str) -> dict[str, int]:
        """Erase a profile and everything it holds, for good; returns what went from where.

        This is the one hard delete (besides the archive purge): use it for a
        person's right to erasure. `delete` only retires a fact.
        """
        self.get_profile(profile)
        receipt = self.store.erase_profile(profile)
        # A key must not reach a profile created later under the same name.
        for key in self.store.list_keys():
            if profile in key.profiles:
                remaining = [p for p in key.profiles if p != profile]
                revoked = key.revoked_at or (None if remaining or key.admin else self.now())
                self.store.save_key(
                    key.model_copy(update={"profiles": remaining, "revoked_at": revoked})
                )
        return receipt

    def export(self, profile: str) -> dict[str, Any]:
        """Everything a profile holds, as JSON-ready data: facts of every status with their
        evidence and history, conflicts, summaries, sessions and their unarchived messages."""
        found = self.get_profile(profile)
        with self.store.read(profile) as tx:
            facts = tx.list_facts(FactFilter(statuses=list(FactStatus), limit=10_000), self.now())
            ids = [f.id for f in facts]
            sessions = tx.sessions(limit=10_000)
            data = {
                "profile": found.model_dump(mode="json"),
                "facts": [f.model_dump(mode="json") for f in facts],
                "evidence": [e.model_dump(mode="json") for e in tx.evidence(ids)],
                "events": [e.model_dump(mode="json") for e in tx.events(ids)],
                "conflicts": [
                    c.model_dump(mode="json") for c in tx.list_conflicts(list(ConflictStatus))
                ],
                "summaries": [
                    s.model_dump(mode="json")
                    for kind in SummaryKind
                    for s in tx.summaries(kind, limit=10_000)
                ],
                "sessions": [s.model_dump(mode="json") for s in sessions],
                "messages": [
                    m.model_dump(mode="json")
                    for session in sessions
                    for m in tx.session_messages(session.id)
                ],
            }
        return data

    def create_key(
        self, *, profiles: Sequence[str] = (), admin: bool = False, name: str = ""
    ) -> tuple[ApiKey, str]:
        """A new API key for the REST and MCP servers, and its secret, shown only this once."""
        if not admin and not profiles:
            raise InvalidInputError("A key must name at least one profile, or be an admin key.")
        for profile in profiles:
            self.get_profile(profile)
        secret = f"somna_{secrets.token_urlsafe(32)}"
        key = ApiKey(
            name=name,
            secret_hash=_hash_secret(secret),
            profiles=sorted(set(profiles)),
            admin=admin,
            created_at=self.now(),
        )
        self.store.save_key(key)
        return key, secret

    def authenticate(self, secret: str) -> ApiKey:
        """The key behind a secret; an unknown or revoked one is refused."""
        key = self.store.find_key(_hash_secret(secret)) if secret else None
        if key is None or key.revoked_at is not None:
            raise AuthenticationError("This API key is unknown or has been revoked.")
        return key

    def list_keys(self) -> builtins.list[ApiKey]:
        return self.store.list_keys()

    def revoke_key(self, key_id: str) -> ApiKey:
        for key in self.store.list_keys():
            if key.id == key_id:
                revoked = key.model_copy(update={"revoked_at": key.revoked_at or self.now()})
                self.store.save_key(revoked)
                return revoked
        raise NotFoundError(f"There is no API key with id {key_id!r}.")

    # -- consolidation ----------------------------------------------------------------

    def consolidate(
        self,
        profile: str | None = None,
        *,
        now: datetime | None = None,
        idle_hours: float | None = None,
        limit: int | None = None,
        dry_run: bool = False,
        progress: Callable[[Session], None] | None = None,
        hygiene: bool = True,
    ) -> Run:
        """The nightly job: turn the conversations quiet for `idle_hours` into facts.

        Each due session (of `profile`, or of every profile) is read by the
        configured LLM once, its facts verified against their quotes, reconciled
        with what the profile already knows, and written in one transaction with
        its summary; its messages move to the archive. `dry_run` calls the model
        and reports what would change, writing nothing. `hygiene=False` (for a
        worker polling often) tidies only the profiles it consolidated.
        """
        if profile is not None:
            self.get_profile(profile)
        if limit is not None and limit < 1:
            raise InvalidInputError("The session limit must be at least 1.")
        from somna.consolidate import Consolidator

        consolidator = Consolidator(self.store, self.embedder, self.llm, self.settings, self.now)
        return consolidator.run(
            profile,
            now=now,
            idle_hours=idle_hours,
            limit=limit,
            dry_run=dry_run,
            progress=progress,
            hygiene=hygiene,
        )

    def runs(self, limit: int = 20) -> builtins.list[Run]:
        """The latest consolidation runs, newest first."""
        return self.store.list_runs(limit)

    def summaries(
        self, profile: str, kind: SummaryKind | str = SummaryKind.SESSION, limit: int = 20
    ) -> builtins.list[Summary]:
        """The profile's summaries of one kind (session, day, portrait), newest first."""
        wanted = as_enum(SummaryKind, kind, "summary kind")
        with self.store.read(profile) as tx:
            return tx.summaries(wanted, limit=limit)

    # -- search and recall -------------------------------------------------------------

    def search(
        self, profile: str, query: str, k: int = 5, *, as_of: datetime | None = None
    ) -> builtins.list[SearchHit]:
        """The `k` active facts most relevant to `query`, valid now or at `as_of`.

        Full-text (BM25) and vector candidates are fused by reciprocal rank.
        """
        self._check_query(query, k)
        return self._retrieval.search(profile, query, k, as_of, self.now())

    def recall(
        self,
        profile: str,
        query: str,
        k: int = 5,
        *,
        as_of: datetime | None = None,
        types: Sequence[FactType | str] | None = None,
        include_summaries: bool = True,
        session_key: str | None = None,
        query_rewrite: bool | None = None,
    ) -> builtins.list[Recalled]:
        """What the agent should remember now: facts and conversation summaries, best first.

        Candidates from full text and vectors are fused by rank, then weighed by
        recency, confidence and strength (`*_weight` settings). Each result says
        why it came. Recalled facts are reinforced in the background. No model is
        called unless `query_rewrite` (or the setting) asks for it, in which case
        the configured LLM rewrites a follow-up into a standalone query using the
        window of `session_key`.
        """
        self._check_query(query, k)
        wanted = None if types is None else [as_enum(FactType, t, "fact type") for t in types]
        if query_rewrite if query_rewrite is not None else self.settings.query_rewrite:
            query = self._rewrite(profile, query, session_key)
        return self._retrieval.recall(
            profile,
            query,
            k,
            as_of=as_of,
            types=wanted,
            include_summaries=include_summaries,
            now=self.now(),
        )

    def context(
        self,
        profile: str,
        query: str,
        *,
        session_key: str | None = None,
        budget_tokens: int = 800,
        k: int = 20,
    ) -> str:
        """The block for a system prompt: the portrait, then dated facts, within the budget.

        >>> print(m.context("alice", "what should I cook tonight?"))  # doctest: +SKIP
        About this user: Is vegetarian. Prefers spicy food.
        Known facts about this user:
        - [2026-05-03] Is allergic to peanuts. (unverified)
        """
        if budget_tokens < 1:
            raise InvalidInputError("The token budget must be at least 1.")
        recalled = self.recall(profile, query, k, include_summaries=False, session_key=session_key)
        with self.store.read(profile) as tx:
            portraits = tx.summaries(SummaryKind.PORTRAIT, limit=1)
        facts = [r.fact for r in recalled if r.fact is not None]
        return render_context(portraits[0].text if portraits else None, facts, budget_tokens)

    def recent(self, profile: str, n: int = 10) -> builtins.list[Fact]:
        """The `n` most recent active facts, by valid time."""
        return self.list(profile, limit=n)

    def flush(self) -> None:
        """Wait for background writes (recall reinforcement) to land."""
        self._usage.flush()

    def _rewrite(self, profile: str, query: str, session_key: str | None) -> str:
        from somna.llm.tasks import REWRITE, ChatTurn, RewriteRequest

        window = [] if session_key is None else self.window(profile, session_key, n=6)
        request = RewriteRequest(
            query=query, window=[ChatTurn(role=m.role, content=m.content) for m in window]
        )
        rewritten: str = self.llm.structured(REWRITE, request).value.query
        return rewritten.strip() or query

    @staticmethod
    def _check_query(query: str, k: int) -> None:
        if not query or not query.strip():
            raise InvalidInputError("The search query must not be empty.")
        if k < 1:
            raise InvalidInputError("k must be at least 1.")

    # -- helpers ----------------------------------------------------------------------

    def _embed(self, text: str) -> np.ndarray:
        vector: np.ndarray = self.embedder.embed([text])[0]
        return vector

    def _similar(
        self, tx: Reader, vector: np.ndarray, now: datetime, exclude: Iterable[str]
    ) -> builtins.list[Similar]:
        skip = set(exclude)
        near = [
            (i, score)
            for i, score in tx.vector_search(vector, Eligibility(at=now, now=now), 10)
            if score >= self.settings.neighbor_floor and i not in skip
        ]
        facts = {f.id: f for f in tx.get_facts([i for i, _ in near])}
        return [Similar(facts[i], score) for i, score in near if i in facts]

    def _pair(self, tx: Reader, conflict: Conflict) -> ConflictPair:
        correction = None
        if conflict.correction_fact_id:
            correction = tx.get_fact(conflict.correction_fact_id)
        return ConflictPair(
            conflict, fetch_fact(tx, conflict.fact_a), fetch_fact(tx, conflict.fact_b), correction
        )

    @staticmethod
    def _require(fact: Fact, allowed: Iterable[FactStatus], action: str) -> None:
        allowed = set(allowed)
        if fact.status not in allowed:
            names = " or ".join(sorted(s.value for s in allowed))
            raise ConflictStateError(
                f"Cannot {action} fact {fact.id!r}: it is {fact.status.value}, and only "
                f"{names} facts can be."
            )


def _hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()
