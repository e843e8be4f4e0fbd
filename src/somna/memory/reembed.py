"""One embedder per database: checked on open and before a first vector, changed by `reembed`.

Vectors of two models (or of two dimensions) are not comparable, so a database
records the embedder that made its vectors (`somna.store.embedders`) and Somna
refuses to run another one on it. The configured embedder's name is checked when
a `Memory` opens the database; any embedder, configured or passed in, is checked
by `CheckedEmbedder` before the first vector it makes is used, and a database
with no embedder recorded yet takes that one. `reembed` moves a database to another
embedder: every fact and summary embedded again, in batches, resumable.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from somna.config import Settings
from somna.embed import Embedder, create_embedder
from somna.embed.base import EmbedderWrapper, Vectors
from somna.errors import ConfigurationError, EmbeddingError
from somna.store import Store, open_store
from somna.store.embedders import EmbedderRecord, EmbedderState

__all__ = ["CheckedEmbedder", "Reembedded", "check_configured", "reembed", "reembed_database"]

BATCH = 64
"""Texts embedded and written per transaction: an interruption loses at most one batch."""

Progress = Callable[[int, int], None]
"""Told (rows done, rows in all) after each batch."""


def _refusal(state: EmbedderState, name: str) -> str:
    if state.target is not None:
        return (
            f"A re-embedding of this database to {state.target} was interrupted; "
            "finish it with `somna reembed` (with that embedder configured) before using it."
        )
    return (
        f"This database's vectors come from the embedder {state.current}, "
        f"not {name}; configure that embedder again, or run `somna reembed` to "
        f"embed every fact and summary again with {name}."
    )


def check_configured(store: Store, name: str) -> None:
    """ConfigurationError unless the database may be used with the embedder named `name`."""
    state = store.embedders().state()
    if state is None or (state.current is None and state.target is None):
        return
    if state.target is not None or (state.current is not None and state.current.name != name):
        raise ConfigurationError(_refusal(state, name))


class CheckedEmbedder(EmbedderWrapper):
    """`inner`, whose first vectors are checked against (or recorded as) the database's."""

    def __init__(self, inner: Embedder, store: Store) -> None:
        super().__init__(inner)
        self._store = store
        self._checked = False
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> Vectors:
        return self._checked_rows(self.inner.embed(texts))

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        return self._checked_rows(self._embed_queries(texts))

    def _checked_rows(self, rows: Vectors) -> Vectors:
        if not self._checked and len(rows):
            with self._lock:
                if not self._checked:
                    self._check(EmbedderRecord(self.inner.name, int(rows.shape[1])))
                    self._checked = True
        return rows

    def _check(self, mine: EmbedderRecord) -> None:
        ledger = self._store.embedders()
        state = ledger.state()
        if state is None or (state.current is None and state.target is None):
            state = ledger.claim(mine)
        if state.target is not None or state.current != mine:
            raise ConfigurationError(_refusal(state, str(mine)))


@dataclass(frozen=True)
class Reembedded:
    """What `reembed` did: the embedder before and after, and the rows embedded again."""

    before: EmbedderRecord | None
    after: EmbedderRecord
    rows: int


def reembed(
    store: Store, embedder: Embedder, *, batch: int = BATCH, progress: Progress | None = None
) -> Reembedded:
    """Embed every fact and summary of `store` again with `embedder`, and record it.

    Each batch is written in one transaction with the place it reached, so a run
    that stops (a crash, Ctrl-C) goes on from there when started again with the
    same embedder; started with another, it starts over. A database already on
    `embedder` is left alone.
    """
    ledger = store.embedders()
    state = ledger.state()
    before = None if state is None else state.current
    target = EmbedderRecord(embedder.name, embedder.dim)
    if state is not None and state.target is None and state.current == target:
        return Reembedded(before, target, 0)
    ledger.start(target)
    done, total = ledger.counts()
    if progress is not None:
        progress(done, total)
    rows = 0
    while pending := ledger.pending(batch):
        vectors = np.asarray(embedder.embed([row.text for row in pending]), dtype=np.float32)
        if vectors.shape != (len(pending), target.dim):
            raise EmbeddingError(
                f"The embedder {embedder.name} returned vectors of shape {vectors.shape} "
                f"for {len(pending)} texts, not {target.dim} dimensions; nothing more was written."
            )
        ledger.save(list(zip(pending, vectors, strict=True)))
        rows += len(pending)
        done += len(pending)
        if progress is not None:
            progress(done, total)
    after = ledger.finish().current
    assert after is not None
    return Reembedded(before, after, rows)


def reembed_database(settings: Settings, *, progress: Progress | None = None) -> Reembedded:
    """`reembed` on the database and with the embedder that `settings` name."""
    embedder = create_embedder(
        settings.embedder,
        model=settings.embed_model,
        base_url=settings.embed_base_url,
        api_key=settings.embed_api_key,
    )
    store = open_store(settings.db)
    try:
        return reembed(store, embedder, progress=progress)
    finally:
        store.close()
