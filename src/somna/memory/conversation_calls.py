"""The conversations of `Memory`: the short thread of each, imports, and their metrics.

This is the fast path of an agent's turn: appending messages and reading the
window never call a model; only folding a long thread into its running summary
(`thread`) does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from somna.errors import InvalidInputError
from somna.memory.capture import Captured, capture, ingest
from somna.memory.inputs import as_enum, check_session_key, new_message
from somna.memory.metrics import ProfileMetrics, measure
from somna.memory.profile_calls import ProfileCalls
from somna.memory.results import Ingested
from somna.memory.sessions import SessionInfo, Sessions
from somna.memory.thread import Thread, ThreadBuilder
from somna.model import Message, Session, SessionStatus
from somna.sources import Conversation, Turn
from somna.sources.n8n import N8nImport, N8nReport, N8nTable, ProfileFrom

__all__ = ["ConversationCalls"]


class ConversationCalls(ProfileCalls):
    """Append turns, read a conversation back, import and capture transcripts."""

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
