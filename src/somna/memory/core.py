"""What every part of `Memory` shares: its store, embedder, model, settings and clock.

`Memory` is one class for its users, built from a part per idea (profiles,
conversations, facts, recall, the nightly job); each part reaches these
collaborators through this base, so none of them builds its own.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Self

import numpy as np

from somna.config import Settings
from somna.embed import Embedder, create_embedder
from somna.embed.cache import CachedEmbedder
from somna.errors import InvalidInputError
from somna.memory.facts import FactWrites
from somna.memory.keys import Keys
from somna.memory.multiquery import Rephrasings
from somna.memory.reembed import CheckedEmbedder, check_configured
from somna.memory.results import StoreInfo
from somna.memory.retrieval import Retrieval
from somna.memory.usage import UsageRecorder
from somna.model import utc, utcnow
from somna.store import Store, open_store

if TYPE_CHECKING:
    from somna.llm import LLM

__all__ = ["MemoryCore"]


class MemoryCore:
    """The collaborators of `Memory`, injected, with defaults from `Settings.load()`: the
    store named by `SOMNA_DB` and the configured embedder. `clock` gives "now"."""

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

    def __enter__(self) -> Self:
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

    def flush(self) -> None:
        """Wait for background writes (recall reinforcement) to land."""
        self._usage.flush()

    @staticmethod
    def _check_query(query: str, k: int) -> None:
        if not query or not query.strip():
            raise InvalidInputError("The search query must not be empty.")
        if k < 1:
            raise InvalidInputError("k must be at least 1.")

    def _embed(self, text: str) -> np.ndarray:
        vector: np.ndarray = self.embedder.embed([text])[0]
        return vector
