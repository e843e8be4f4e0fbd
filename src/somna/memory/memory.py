"""`Memory`: the public Python API. Every interface (CLI, REST, MCP, dashboard) goes through it.

Every call names its profile first, and a failed call writes nothing: each
operation is one store transaction, built from the pure rules of
`somna.model.lifecycle`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import numpy as np

from somna import tuning
from somna.config import Settings
from somna.embed import Embedder, create_embedder
from somna.embed.cache import CachedEmbedder
from somna.errors import InvalidInputError, ProfileNotFoundError
from somna.memory import erasure
from somna.memory.bulk import add_facts
from somna.memory.capture import Captured, capture, ingest
from somna.memory.conflicts import conflict_pairs, resolve_conflict
from somna.memory.facts import FactWrites
from somna.memory.inputs import as_enum, check_session_key, checked, new_message
from somna.memory.keys import Keys
from somna.memory.lookups import fetch_fact, quotes
from somna.memory.metrics import ProfileMetrics, measure
from somna.memory.multiquery import Rephrasings, multi_recall, rewrite_query
from somna.memory.overview import ProfileOverview, fact_filter, overview
from somna.memory.reembed import CheckedEmbedder, check_configured
from somna.memory.restore import restore_fact
from somna.memory.results import (
    Added,
    Block,
    ConflictPair,
    Found,
    History,
    Ingested,
    Outcome,
    Quote,
    Recalled,
    SearchHit,
    StoreInfo,
)
from somna.memory.retrieval import Retrieval, relevant_facts, standing
from somna.memory.sessions import SessionInfo, Sessions
from somna.memory.thread import Thread, ThreadBuilder
from somna.memory.unsettled import unsettled
from somna.memory.usage import UsageRecorder
from somna.memory.writes import FactChanges, NewFact, fact_changes, new_fact
from somna.model import (
    ConflictStatus,
    Fact,
    FactEvent,
    FactStatus,
    FactType,
    Message,
    Profile,
    Resolution,
    Run,
    Session,
    SessionStatus,
    Summary,
    SummaryKind,
    Verdict,
    utc,
    utcnow,
)
from somna.ranking import render_context
from somna.sources import Conversation, Turn
from somna.sources.n8n import N8nImport, N8nReport, N8nTable, ProfileFrom
from somna.store import Store, open_store

if TYPE_CHECKING:
    from somna.llm import LLM

__all__ = ["Memory"]


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
        if embedder is None:  # the configured one: refused now if the database has another
            check_configured(self.store, self.embedder.name)
        self.embedder = CheckedEmbedder(self.embedder, self.store)
        self._llm = llm
        self._made_llm: LLM | None = None  # made here from the settings: closed here too
        self._clock = clock
        self._usage = UsageRecorder(self.store)
        # Queries repeat (every turn of a thread recalls): their vectors are kept.
        queries = CachedEmbedder(self.embedder)
        self._retrieval = Retrieval(self.store, queries, self.settings, self._usage)
        self._rephrasings = Rephrasings()
        self._facts = FactWrites(self.store, self._embed)
        self.keys = Keys(self.store, self.now)
        """The API keys of the REST and MCP servers: `create`, `authenticate`, `all`, `revoke`."""

    @property
    def llm(self) -> LLM:
        """The configured language model, made on first use: recall never needs one."""
        if self._llm is None:
            # Imported here: the conversation path (recall, search) never loads a model client.
            from somna.llm import llm_from_settings

            self._llm = self._made_llm = llm_from_settings(self.settings)
        return self._llm

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._usage.close()
        self.store.close()
        close_llm = getattr(self._made_llm, "close", None)
        if close_llm is not None:
            close_llm()  # its HTTP connections

    def now(self) -> datetime:
        return utc(self._clock())

    def describe(self) -> StoreInfo:
        """Where the data lives and the schema version, for people."""
        return StoreInfo(self.store.location, self.store.schema_version())

    # -- profiles ---------------------------------------------------------------------

    def create_profile(
        self, profile: str, name: str | None = None, settings: Mapping[str, Any] | None = None
    ) -> Profile:
        """A new profile; `settings["overrides"]`, if given, is checked like `tune_profile`."""
        own = tuning.checked_profile_settings(self.settings, settings or {})
        created = checked(
            lambda: Profile(
                id=profile,
                name=name or profile,
                settings=own,
                created_at=self.now(),
            )
        )
        return self.store.create_profile(created)

    def get_profile(self, profile: str) -> Profile:
        found = self.store.get_profile(profile)
        if found is None:
            raise ProfileNotFoundError(profile)
        return found

    def list_profiles(self) -> list[Profile]:
        return self.store.list_profiles()

    def profile_settings(self, profile: str) -> Settings:
        """The settings in force for `profile`: the global ones with its own overrides on top."""
        return tuning.for_profile(self.settings, self.get_profile(profile))

    def tune_profile(
        self, profile: str, changes: Mapping[str, Any], *, actor: str = "user"
    ) -> Settings:
        """Override some settings for one profile (None restores the global value).

        Only `tuning.TUNABLE` may be overridden; each change is validated, then
        stored with the profile and recorded in its settings history.
        """
        found = self.get_profile(profile)
        stored = tuning.tuned(self.settings, found, changes, actor=actor, at=self.now())
        self.store.save_profile_settings(profile, stored)
        return tuning.for_profile(self.settings, found.model_copy(update={"settings": stored}))

    def settings_history(self, profile: str) -> list[dict[str, Any]]:
        """Every change of the profile's own settings, oldest first: at, actor, before, after."""
        events = self.get_profile(profile).settings.get(tuning.EVENTS) or []
        return [dict(event) for event in events]

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
        check_session_key(session_key)
        now = self.now()
        parsed = [new_message(item, now) for item in messages]
        if not parsed:
            raise InvalidInputError("There are no messages to add.")
        with self.store.write(profile) as tx:
            return tx.add_messages(session_key, parsed)

    def ingest(self, conversations: Iterable[Conversation]) -> Ingested:
        """Import conversations read from a source; profiles are created as needed.

        A conversation whose session key the profile already has is skipped, so
        importing the same file twice imports it once. Every message is checked
        before anything is written, so a bad one leaves the store as it was.
        """
        return ingest(self.store, conversations, self.now(), self.create_profile, self.add_messages)

    def import_n8n(
        self,
        table: N8nTable,
        *,
        idle_hours: float | None = None,
        profile_from: ProfileFrom | None = None,
        source: str | None = None,
        purge: bool = False,
        allow_forgotten: bool = False,
    ) -> N8nReport:
        """Import the new rows of an n8n / LangChain chat table, cut into sessions.

        Rows are stamped when first seen; a burst followed by `idle_hours` of
        silence is one session. With `purge`, the rows of sessions already
        consolidated and archived are deleted from the chat table. The rows of
        a profile erased by `forget` are skipped and counted, unless
        `allow_forgotten` admits such profiles again.
        """
        importer = N8nImport(
            self.store,
            table,
            idle_hours=self.settings.idle_hours if idle_hours is None else idle_hours,
            clock=self.now,
            profile_from=profile_from,
            source=source,
            allow_forgotten=allow_forgotten,
        )
        return importer.run(purge=purge)

    def sessions(self, profile: str, limit: int = 100) -> list[Session]:
        """The profile's conversations, newest first: open ones and consolidated ones."""
        if limit < 1:
            raise InvalidInputError("The session limit must be at least 1.")
        with self.store.read(profile) as tx:
            return tx.sessions(limit=limit)

    def window(self, profile: str, session_key: str, n: int = 15) -> list[Message]:
        """The last `n` messages of the conversation, oldest first: the short thread."""
        if n < 1:
            raise InvalidInputError("The window size must be at least 1.")
        with self.store.read(profile) as tx:
            return tx.window(session_key, n)

    def thread(
        self,
        profile: str,
        session_key: str,
        *,
        budget_tokens: int | None = None,
        keep_turns: int | None = None,
    ) -> Thread:
        """The live conversation within a budget: "Earlier in this conversation: …" (a running
        summary of the older turns, kept with the session) and the last turns word for word.

        Folding calls the configured LLM (the rules provider summarises extractively); the
        folded turns stay in the session for the nightly job.
        """
        budget = self.settings.thread_budget_tokens if budget_tokens is None else budget_tokens
        keep = self.settings.thread_keep_turns if keep_turns is None else keep_turns
        if budget < 50 or keep < 1:
            raise InvalidInputError(
                "A thread needs a budget of at least 50 tokens and at least 1 turn kept."
            )
        self.get_profile(profile)
        builder = ThreadBuilder(self.store, lambda: self.llm, self.now)
        return builder.build(profile, session_key, budget=budget, keep=keep)

    def list_sessions(
        self,
        profile: str,
        *,
        limit: int = 20,
        status: SessionStatus | str | None = None,
        device: str | None = None,
    ) -> list[SessionInfo]:
        """The profile's conversations, latest message first, with device, status and summary."""
        self.get_profile(profile)
        wanted = None if status is None else as_enum(SessionStatus, status, "session status")
        return self._sessions().list(profile, self.now(), limit=limit, status=wanted, device=device)

    def resume(self, profile: str) -> SessionInfo:
        """The live session with the latest message, for another device to go on with."""
        self.get_profile(profile)
        return self._sessions().resume(profile, self.now())

    def merge_sessions(self, profile: str, into_key: str, other_key: str) -> SessionInfo:
        """Join live session `other_key` into `into_key`, turns interleaved by time; refused
        (ConflictStateError) when either was already consolidated."""
        self.get_profile(profile)
        return self._sessions().merge(profile, into_key, other_key, self.now())

    def metrics(
        self, profile: str, *, limit: int = 50, session_key: str | None = None
    ) -> ProfileMetrics:
        """Conversation metrics of the latest `limit` sessions (or of one), and their totals."""
        self.get_profile(profile)
        if limit < 1:
            raise InvalidInputError("The session limit must be at least 1.")
        return measure(
            self.store,
            self.embedder,
            profile,
            self.now(),
            idle_hours=self.settings.idle_hours,
            limit=limit,
            session_key=session_key,
        )

    def capture(
        self,
        profile: str,
        session_key: str,
        turns: Sequence[Turn],
        *,
        device: str | None = None,
    ) -> Captured:
        """Add a transcript's turns said since the last capture of `session_key` (a coding
        assistant's session file is read whole each time); the profile is created if new."""
        if self.store.get_profile(profile) is None:
            self.create_profile(profile)
        return capture(self.store, self.add_messages, profile, session_key, turns, device)

    def _sessions(self) -> Sessions:
        return Sessions(self.store, self.settings.idle_hours)

    # -- facts ------------------------------------------------------------------------

    def add_fact(
        self, profile: str, fact: NewFact | str, *, actor: str = "user", **fields: Any
    ) -> Added:
        """Store a fact, or reinforce the same active fact if it is already known.

        `fact` is a `NewFact`, or its text with the other fields of `NewFact` beside it:
        `add_fact("alice", "Prefers tea.", category="preference")`.

        Returns the stored fact and the active facts whose cosine similarity is at
        least the profile's `neighbor_floor`, for the caller to judge with `resolve`; and,
        apart, the candidates to judge: active facts of the same subject between
        `judge_floor` and `neighbor_floor`, where a changed value usually lies.
        An instruction added by an agent (`api…` or `mcp…` actor) is stored unverified
        whatever `verified` says: it waits for a person's approval (`verify`).
        """
        new = new_fact(fact, fields)
        tuned = self.profile_settings(profile)
        return self._facts.add(profile, new, tuned, now=self.now(), actor=actor)

    def add_facts(
        self, profile: str, facts: Sequence[NewFact], *, actor: str = "user"
    ) -> list[Added]:
        """Store many facts at once: one embedding batch, one transaction.

        Each is reconciled as `add_fact` would, in order (a text given twice is stored
        once and reinforced). A fact that cannot be stored names its index and refuses
        the whole batch: nothing is written. At most `MAX_BATCH` (1,000) facts a call.
        """
        tuned = self.profile_settings(profile)
        return add_facts(
            self.store, self.embedder, profile, facts, tuned, now=self.now(), actor=actor
        )

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
        return self._facts.judge(profile, new, existing, judged, now=self.now(), actor=actor)

    def get(self, profile: str, fact_id: str) -> Fact:
        with self.store.read(profile) as tx:
            return fetch_fact(tx, fact_id)

    def list_facts(
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
    ) -> list[Fact]:
        """Facts of the profile, newest first. Without `status`, the active ones.

        With `as_of`, the facts that were true at that time (valid time), which
        may include facts superseded since.
        """
        flt = fact_filter(
            type=type,
            status=status,
            category=category,
            subject=subject,
            text=text,
            as_of=as_of,
            limit=limit,
            offset=offset,
        )
        with self.store.read(profile) as tx:
            return tx.list_facts(flt, self.now())

    def count_facts(
        self,
        profile: str,
        *,
        type: FactType | str | Sequence[FactType | str] | None = None,
        status: FactStatus | str | Sequence[FactStatus | str] | None = None,
        category: str | None = None,
        subject: str | None = None,
        text: str | None = None,
        as_of: datetime | None = None,
    ) -> int:
        """How many facts `list_facts` finds with these filters, whatever its limit."""
        flt = fact_filter(
            type=type, status=status, category=category, subject=subject, text=text, as_of=as_of
        )
        with self.store.read(profile) as tx:
            return tx.count_facts(flt, self.now())

    def overview(self, profiles: Sequence[str]) -> list[ProfileOverview]:
        """These profiles in counts (facts by status, open conflicts, pending rules, open
        sessions) with the last consolidation run that covered each."""
        runs = self.runs(limit=200)
        return [overview(self.store, self.get_profile(p), runs, self.now()) for p in profiles]

    def update(
        self,
        profile: str,
        fact_id: str,
        changes: FactChanges | None = None,
        *,
        actor: str = "user",
        **fields: Any,
    ) -> Fact:
        """Correct a fact: a new verified version replaces it; the old one stays in history.

        `changes` is a `FactChanges`, or its fields given by name: `update("alice", id,
        text="Lives in Lyon.")`.
        """
        given = fact_changes(changes, fields).given()
        return self._facts.correct(profile, fact_id, given, now=self.now(), actor=actor)

    def delete(
        self, profile: str, fact_id: str, *, actor: str = "user", reason: str = "deleted"
    ) -> Fact:
        """Retire a fact: it leaves recall and lists, and stays in history. Nothing is destroyed."""
        return self._facts.retire(profile, fact_id, now=self.now(), actor=actor, reason=reason)

    def restore(self, profile: str, fact_id: str, *, actor: str = "user") -> Fact:
        """Take back a deletion: a retired or expired fact is active again (unverified)."""
        return restore_fact(self.store, profile, fact_id, now=self.now(), actor=actor)

    def verify(self, profile: str, fact_id: str, *, actor: str = "user") -> Fact:
        """A person confirms an active fact: it becomes verified (approving a proposed rule)."""
        return self._facts.verify(profile, fact_id, now=self.now(), actor=actor)

    def history(self, profile: str, fact_id: str) -> History:
        """The version chain around a fact (what Somna believed when) and all its events."""
        return self._facts.history(profile, fact_id)

    def events(self, profile: str, fact_ids: Sequence[str]) -> list[FactEvent]:
        """Every event of these facts (created, reinforced, superseded, …), oldest first."""
        with self.store.read(profile) as tx:
            return tx.events(fact_ids)

    def evidence(self, profile: str, fact_ids: Sequence[str]) -> list[Quote]:
        """The quotes behind these facts, each with the message it was said in, if known."""
        with self.store.read(profile) as tx:
            return quotes(tx, fact_ids)

    # -- conflicts --------------------------------------------------------------------

    def conflicts(
        self, profile: str, status: ConflictStatus | str = ConflictStatus.OPEN
    ) -> list[ConflictPair]:
        """Conflicts waiting for a person. `open` includes deferred ones whose delay is over."""
        wanted = as_enum(ConflictStatus, status, "conflict status")
        return conflict_pairs(self.store, profile, wanted, self.now())

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
        return resolve_conflict(
            self.store,
            self._embed,
            profile,
            conflict_id,
            as_enum(Resolution, resolution, "resolution"),
            correction,
            now=self.now(),
            defer_for=timedelta(days=self.settings.defer_days),
            actor=actor,
        )

    # -- erasure and export -----------------------------------------------------------

    def forget(self, profile: str, *, source: N8nTable | None = None) -> dict[str, int]:
        """Erase a profile and everything it holds, for good; returns what went from where.

        This is the one hard delete (besides the archive purge): use it for a
        person's right to erasure. `delete` only retires a fact. The rows it
        came from in the n8n table `source` are deleted too; without one, or
        when they cannot be, a tombstone (a hash of the id) keeps `import_n8n`
        from creating the profile again.
        """
        erased = erasure.forget(self.store, profile, self.now(), source)
        self.keys.forgotten(profile)
        return erased

    def export(self, profile: str) -> dict[str, Any]:
        """Everything a profile holds, as JSON-ready data: everything `forget` would erase."""
        return erasure.export(self.store, profile, self.now())

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
        concurrency: int | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> Run:
        """The nightly job: turn the conversations quiet for `idle_hours` into facts.

        Each due session (of `profile`, or of every profile) is read by the
        configured LLM once, its facts verified against their quotes, reconciled
        with what the profile already knows, and written in one transaction with
        its summary; its messages move to the archive. `dry_run` calls the model
        and reports what would change, writing nothing. `hygiene=False` (for a
        worker polling often) tidies only the profiles it consolidated.
        `concurrency` model calls run at once (default: the
        `consolidation_concurrency` setting); the facts are the same as one at a
        time. `should_stop` is asked before each session is taken.
        """
        if profile is not None:
            self.get_profile(profile)
        if limit is not None and limit < 1:
            raise InvalidInputError("The session limit must be at least 1.")
        if concurrency is not None and not 1 <= concurrency <= 256:
            raise InvalidInputError("The concurrency must be between 1 and 256.")
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
            concurrency=concurrency,
            should_stop=should_stop,
        )

    def runs(self, limit: int = 20) -> list[Run]:
        """The latest consolidation runs, newest first."""
        return self.store.list_runs(limit)

    def summaries(
        self, profile: str, kind: SummaryKind | str = SummaryKind.SESSION, limit: int = 20
    ) -> list[Summary]:
        """The profile's summaries of one kind (session, day, portrait), newest first."""
        wanted = as_enum(SummaryKind, kind, "summary kind")
        with self.store.read(profile) as tx:
            return tx.summaries(wanted, limit=limit)

    # -- search and recall -------------------------------------------------------------

    def search(
        self, profile: str, query: str, k: int = 5, *, as_of: datetime | None = None
    ) -> Found[SearchHit]:
        """The `k` active facts most relevant to `query`, valid now or at `as_of`.

        Full-text (BM25) and vector candidates are fused by reciprocal rank. With the
        embedder down, full text alone answers and the result's `degraded` says so.
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
        multi_query: bool | None = None,
    ) -> Found[Recalled]:
        """What the agent should remember now: facts and conversation summaries, best first.

        Candidates from full text and vectors are fused by rank, then weighed by
        recency, confidence and strength (`*_weight` settings). Each result says
        why it came. Recalled facts are reinforced in the background. No model is
        called unless `query_rewrite` (or the setting) asks for it, in which case
        the configured LLM rewrites a follow-up into a standalone query using the
        window of `session_key`. `multi_query` (or the setting) recalls 2-3 rephrasings
        proposed by the LLM too, fused by rank (`somna.memory.multiquery`).

        A part that is down is done without, and the result's `degraded` says so: the
        query as written when rewriting fails, full text alone when the embedder fails.
        """
        return self._recalled(
            profile,
            query,
            k,
            as_of=as_of,
            types=types,
            include_summaries=include_summaries,
            session_key=session_key,
            query_rewrite=query_rewrite,
            multi_query=multi_query,
        )

    def _recalled(
        self,
        profile: str,
        query: str,
        k: int,
        *,
        as_of: datetime | None = None,
        types: Sequence[FactType | str] | None = None,
        include_summaries: bool = True,
        session_key: str | None = None,
        query_rewrite: bool | None = None,
        multi_query: bool | None = None,
        record: bool = True,
    ) -> Found[Recalled]:
        self._check_query(query, k)
        wanted = None if types is None else [as_enum(FactType, t, "fact type") for t in types]
        degraded: list[str] = []
        if query_rewrite if query_rewrite is not None else self.settings.query_rewrite:
            window = [] if session_key is None else self.window(profile, session_key, n=6)
            query = rewrite_query(self.llm, query, window, degraded)
        multi = multi_query if multi_query is not None else self.settings.multi_query
        found = multi_recall(
            self._retrieval,
            self._rephrasings(self.llm, query) if multi else [],
            profile,
            query,
            k,
            as_of=as_of,
            types=wanted,
            include_summaries=include_summaries,
            now=self.now(),
            record=record,
        )
        return Found.of(found, degraded)

    def context(
        self,
        profile: str,
        query: str,
        *,
        session_key: str | None = None,
        budget_tokens: int = 800,
        k: int | None = None,
    ) -> Block:
        """The block for a system prompt: the portrait, then dated facts, within the budget.

        Standing instructions always come first (those an agent proposed only once a
        person approved them); then at most `k` facts (default `context_facts`), each
        bearing on the question (`relevant_facts`: a topic it asks about, or closeness
        above the question's background) and not faded (`context_strength_floor`): an
        unrelated question brings the portrait and the instructions alone. Then both sides
        of the open contradictions the question touches, marked as disputed, so the agent
        asks instead of picking one (`unsettled`). Only the facts in the block are
        reinforced. With the embedder down, facts that share a word with
        the question fill the block and `degraded` says so.

        With `session_key`, the conversation's thread follows (`thread`, within
        `thread_budget_tokens`): a running summary of the older turns, then the last ones.

        >>> print(m.context("alice", "what should I cook tonight?"))  # doctest: +SKIP
        About this user: Is vegetarian. Prefers spicy food.
        Known facts about this user:
        - [2026-05-03] Is allergic to peanuts. (unverified)
        """
        if budget_tokens < 1:
            raise InvalidInputError("The token budget must be at least 1.")
        limit = self.settings.context_facts if k is None else k
        recalled = self._recalled(
            profile, query, limit, include_summaries=False, session_key=session_key, record=False
        )
        portrait, rules = standing(self.store, profile, self.now())
        chosen = [
            f for f in relevant_facts(recalled, self.settings) if f.type is not FactType.INSTRUCTION
        ]
        # Only what reaches the prompt is reinforced: a fact left out, say for fading,
        # is not brought back to strength by the question that left it out.
        self._usage.record(profile, chosen, self.now())
        disputed = unsettled(self.conflicts(profile), query)
        block = render_context(portrait, rules + chosen + disputed, budget_tokens)
        thread = None if session_key is None else self.thread(profile, session_key).text
        text = "\n\n".join(part for part in (block, thread) if part)
        return Block(text, recalled.degraded)

    def recent(self, profile: str, n: int = 10) -> list[Fact]:
        """The `n` most recent active facts, by valid time."""
        return self.list_facts(profile, limit=n)

    def flush(self) -> None:
        """Wait for background writes (recall reinforcement) to land."""
        self._usage.flush()

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
