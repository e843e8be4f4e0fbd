"""The query cache: a repeated text is embedded once, the oldest entries go first."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

import numpy as np
import pytest

from somna.embed import BundledEmbedder
from somna.embed.base import Vectors
from somna.embed.cache import CachedEmbedder
from somna.errors import EmbeddingError


class Counting:
    """The real embedder, counting the texts it was asked to embed."""

    def __init__(self, inner: BundledEmbedder) -> None:
        self.inner = inner
        self.texts: list[str] = []
        self.name, self.dim = inner.name, inner.dim

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.texts += list(texts)
        return self.inner.embed(texts)


def test_a_repeated_query_is_embedded_once_with_the_same_vector(
    embedder: BundledEmbedder,
) -> None:
    counting = Counting(embedder)
    cached = CachedEmbedder(counting, size=2)
    first = cached.embed(["where does the user live?"])
    first[0, 0] = 42.0  # a caller's change never reaches the cache
    again = cached.embed(["where does the user live?"])
    assert counting.texts == ["where does the user live?"]
    assert np.allclose(again, embedder.embed(["where does the user live?"]))
    cached.embed(["what does the user drink?"])
    cached.embed(["who is the user's sister?"])  # the first query is now the oldest: it goes
    cached.embed(["where does the user live?"])
    assert counting.texts.count("where does the user live?") == 2


def test_batches_pass_through_uncached(embedder: BundledEmbedder) -> None:
    counting = Counting(embedder)
    cached = CachedEmbedder(counting)
    texts = ["tea", "coffee"]
    assert cached.embed(texts).shape == (2, embedder.dim)
    assert cached.embed(texts).shape == (2, embedder.dim)
    assert counting.texts == texts * 2


class Gated(Counting):
    """Counting, whose first call waits until the test opens the gate."""

    def __init__(self, inner: BundledEmbedder) -> None:
        super().__init__(inner)
        self.calls: list[list[str]] = []
        self.entered = threading.Event()
        self.gate = threading.Event()

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.calls.append(list(texts))
        if len(self.calls) == 1:
            self.entered.set()
            self.gate.wait(10)
        return super().embed(texts)


def test_queries_that_arrive_while_the_model_is_busy_run_as_one_batch(
    embedder: BundledEmbedder,
) -> None:
    gated = Gated(embedder)
    cached = CachedEmbedder(gated)
    queries = ["first", "second", "third", "second"]
    results: dict[int, Vectors] = {}

    def ask(i: int) -> None:
        results[i] = cached.embed([queries[i]])

    first = threading.Thread(target=ask, args=(0,))
    first.start()
    assert gated.entered.wait(10)
    others = [threading.Thread(target=ask, args=(i,)) for i in (1, 2, 3)]
    for thread in others:
        thread.start()
    time.sleep(0.2)  # all three are waiting behind the busy model
    gated.gate.set()
    for thread in [first, *others]:
        thread.join(10)
    assert [sorted(call) for call in gated.calls] == [["first"], ["second", "third"]]
    for i, query in enumerate(queries):
        assert np.allclose(results[i], embedder.embed([query]))


def test_a_model_error_reaches_every_waiting_caller(embedder: BundledEmbedder) -> None:
    class Broken(Counting):
        def embed(self, texts: Sequence[str]) -> Vectors:
            raise EmbeddingError("The embedding server is down.")

    cached = CachedEmbedder(Broken(embedder))
    with pytest.raises(EmbeddingError, match="down"):
        cached.embed(["anything"])
    with pytest.raises(EmbeddingError, match="down"):  # nothing stuck: the next call runs
        cached.embed(["anything"])
