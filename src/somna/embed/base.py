"""The one shape every embedder has, so the rest of Somna never cares which one runs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

__all__ = [
    "Embedder",
    "EmbedderWrapper",
    "Vectors",
    "crosses_languages",
    "l2_normalize",
    "languages_read",
]

#: A block of embeddings: shape (n, dim), float32, one L2-normalized row per text.
Vectors = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit vectors; cosine similarity is then a dot product.

    Mind that on Python 3.11 ``isinstance(x, Embedder)`` reads ``x.dim``, which for an
    OpenAIEmbedder not yet told its dimension asks the server (and can raise
    EmbeddingError); type statically rather than checking at run time.
    """

    @property
    def name(self) -> str:
        """Model identity, stored beside the vectors so a model change is detectable."""
        ...

    @property
    def dim(self) -> int:
        """Length of every vector this embedder returns."""
        ...

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Shape (len(texts), dim), float32, rows L2-normalized; no texts gives (0, dim)."""
        ...


class EmbedderWrapper:
    """An embedder around `inner` that answers to its name and dimension: a wrapper adds a
    cache or a check, never other vectors, so the stored vectors stay `inner`'s."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self._embed_queries: Callable[[Sequence[str]], Vectors] = getattr(
            inner, "embed_queries", inner.embed
        )

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    @property
    def across_languages(self) -> bool:
        return crosses_languages(self.inner)

    @property
    def languages(self) -> frozenset[str] | None:
        return languages_read(self.inner)


def crosses_languages(embedder: Embedder) -> bool:
    """Whether `embedder` puts a sentence near its translation: an optional attribute
    ``across_languages``, False where an embedder lacks it. An English model matches two
    languages by the subwords they share, which is no sign of meaning."""
    return bool(getattr(embedder, "across_languages", False))


def languages_read(embedder: Embedder) -> frozenset[str] | None:
    """The languages `embedder` was trained on (codes: "en"), whose closeness means
    something: an optional attribute ``languages``, None (any language) where an embedder
    lacks it. In another language an English model reads subwords, and its cosines tell
    little apart."""
    languages: frozenset[str] | None = getattr(embedder, "languages", None)
    return languages


def l2_normalize(rows: npt.NDArray[np.floating]) -> Vectors:
    """Rows scaled to unit length as float32; an all-zero row stays zero instead of NaN."""
    out: Vectors = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    out = out / np.maximum(norms, np.float32(1e-12))
    return out
