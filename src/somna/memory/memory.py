"""`Memory`: the public Python API. Every interface (CLI, REST, MCP, dashboard) goes through it.

Every call names its profile first, and a failed call writes nothing: each
operation is one store transaction, built from the pure rules of
`somna.model.lifecycle`. The calls are gathered by idea, one module each:
profiles (`profile_calls`), conversations (`conversation_calls`), facts and
conflicts (`fact_calls`), search, recall and the prompt block (`recall_calls`);
here, the nightly job, erasure and export.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Unpack

from somna.errors import InvalidInputError
from somna.memory import erasure
from somna.memory.inputs import as_enum
from somna.memory.overview import ProfileOverview, overview
from somna.memory.recall_calls import RecallCalls
from somna.model import Run, RunOptions, Summary, SummaryKind
from somna.sources.n8n import N8nTable

__all__ = ["Memory"]


class Memory(RecallCalls):
    """Long-term memory for one or many profiles.

    >>> from somna.store import open_store
    >>> m = Memory(store=open_store(":memory:"))
    >>> _ = m.create_profile("alice")
    >>> m.add_fact("alice", "Prefers tea to coffee.", category="preference").fact.text
    'Prefers tea to coffee.'
    >>> m.search("alice", "what does she drink?", k=1)[0].fact.text
    'Prefers tea to coffee.'

    Collaborators are injected, with defaults from `Settings.load()`: the store
    named by `SOMNA_DB` and the configured embedder. `clock` gives "now".
    """

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

    def consolidate(self, profile: str | None = None, **options: Unpack[RunOptions]) -> Run:
        """The nightly job: turn the conversations quiet for `idle_hours` into facts.

        Each due session (of `profile`, or of every profile) is read by the
        configured LLM once, its facts verified against their quotes, reconciled
        with what the profile already knows, and written in one transaction with
        its summary; its messages move to the archive. The options (`now`,
        `idle_hours`, `limit`, `dry_run`, `progress`, `hygiene`, `concurrency`,
        `should_stop`) are those of `RunOptions`; with several model calls at
        once, the facts are the same as one at a time.
        """
        if profile is not None:
            self.get_profile(profile)
        limit, concurrency = options.get("limit"), options.get("concurrency")
        if limit is not None and limit < 1:
            raise InvalidInputError("The session limit must be at least 1.")
        if concurrency is not None and not 1 <= concurrency <= 256:
            raise InvalidInputError("The concurrency must be between 1 and 256.")
        from somna.consolidate import Consolidator

        consolidator = Consolidator(self.store, self.embedder, self.llm, self.settings, self.now)
        return consolidator.run(profile, **options)

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

    def overview(self, profiles: Sequence[str]) -> list[ProfileOverview]:
        """These profiles in counts (facts by status, open conflicts, pending rules, open
        sessions) with the last consolidation run that covered each."""
        runs = self.runs(limit=200)
        return [overview(self.store, self.get_profile(p), runs, self.now()) for p in profiles]
