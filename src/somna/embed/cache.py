"""Query vectors for the recall path: repeated queries from memory, concurrent ones in one batch.

Agents repeat themselves (the same recall on every turn of a thread, the same
dashboard search), and a query's embedding is most of a recall's time on a
small machine. `CachedEmbedder` wraps any embedder with a least-recently-used
map from text to vector, and runs the queries that arrive while the model is
busy as one batch when it is free: one model run for many concurrent requests
costs less than one run each. Only single texts go through it, the query path.
An embedder that embeds questions apart from stored texts (``embed_queries``, as
E5 models do with their prefixes) has its queries embedded that way here.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future

import numpy as np

from somna.embed.base import Embedder, EmbedderWrapper, Vectors

__all__ = ["CachedEmbedder"]


class CachedEmbedder(EmbedderWrapper):
    """`inner`, with the vectors of the last `size` single texts kept, misses batched."""

    def __init__(self, inner: Embedder, size: int = 1024) -> None:
        super().__init__(inner)
        self.size = size
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._waiting: list[tuple[str, Future[np.ndarray]]] = []
        self._busy = False
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> Vectors:
        if len(texts) != 1 or not isinstance(texts[0], str):
            return self._embed_queries(texts)
        text = texts[0]
        with self._lock:
            known = self._vectors.get(text)
            if known is not None:
                self._vectors.move_to_end(text)
                return known[None, :].copy()
            wanted: Future[np.ndarray] = Future()
            self._waiting.append((text, wanted))
            leads, self._busy = not self._busy, True
        if leads:  # this thread runs the model for everyone waiting, until nobody is
            self._drain()
        return wanted.result()[None, :].copy()

    def _drain(self) -> None:
        while True:
            with self._lock:
                batch, self._waiting = self._waiting, []
                if not batch:
                    self._busy = False
                    return
            unique = list(dict.fromkeys(text for text, _ in batch))
            try:
                vectors = dict(zip(unique, self._embed_queries(unique), strict=True))
            except BaseException as exc:  # each waiting caller gets the model's error
                for _, wanted in batch:
                    wanted.set_exception(exc)
                continue
            with self._lock:
                for text, vector in vectors.items():
                    self._vectors[text] = vector.copy()
                while len(self._vectors) > self.size:
                    self._vectors.popitem(last=False)
            for text, wanted in batch:
                wanted.set_result(vectors[text])
