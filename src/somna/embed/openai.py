"""Embeddings from any OpenAI-compatible ``/embeddings`` endpoint (OpenAI, Ollama, vLLM…).

Rows are L2-normalized here because not every server normalizes, and Somna scores
by dot product. The ``openai`` package is imported on first construction, not with
``somna.embed``: it costs about 0.4 s of start-up that users of the bundled model skip.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Self

import numpy as np

from somna.embed.base import Vectors, l2_normalize
from somna.errors import EmbeddingError, InvalidInputError
from somna.redact import redact

if TYPE_CHECKING:
    import openai

__all__ = ["OpenAIEmbedder"]

BATCH_SIZE = 256  # inputs per request; well under the 2048 OpenAI allows
_PROBE_TEXT = "dimension probe"


class OpenAIEmbedder:
    """An embedder backed by a remote or local server speaking the OpenAI embeddings API.

    ``api_key`` defaults to ``OPENAI_API_KEY`` when talking to OpenAI itself (no
    ``base_url``), and to the placeholder "unused" for a self-hosted server, so a key
    meant for OpenAI is never sent elsewhere. ``dim``, if not given, is learnt from the
    first answer.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        dim: int | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        batch_size: int = BATCH_SIZE,
    ) -> None:
        if not model:
            raise InvalidInputError("OpenAIEmbedder needs a model name.")
        if dim is not None and dim <= 0:
            raise InvalidInputError(f"The embedding dimension must be positive, not {dim}.")
        if batch_size <= 0:
            raise InvalidInputError(f"The batch size must be positive, not {batch_size}.")
        if api_key is None:
            api_key = (os.environ.get("OPENAI_API_KEY") if base_url is None else None) or "unused"
        import openai

        self._model = model
        self._dim = dim
        self._batch_size = batch_size
        self._lock = threading.Lock()
        self._client: openai.OpenAI = openai.OpenAI(
            base_url=base_url, api_key=api_key, timeout=timeout, max_retries=max_retries
        )
        self._api_key = api_key
        self._base_url = redact(str(self._client.base_url).rstrip("/"), api_key)

    @property
    def name(self) -> str:
        return f"openai:{self._model}"

    @property
    def dim(self) -> int:
        """The vector length; asks the server once (a probe text) if nothing said it yet."""
        if self._dim is None:
            with self._lock:
                if self._dim is None:
                    self._request([_PROBE_TEXT])
        assert self._dim is not None
        return self._dim

    def embed(self, texts: Sequence[str]) -> Vectors:
        if isinstance(texts, str):
            raise InvalidInputError("embed() takes a list of texts, not one string; wrap it.")
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = [
            self._request(texts[start : start + self._batch_size])
            for start in range(0, len(texts), self._batch_size)
        ]
        return l2_normalize(np.concatenate(parts))

    def close(self) -> None:
        """Release the HTTP connection pool."""
        self._client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _request(self, batch: list[str]) -> Vectors:
        """One call to the server: raw (unnormalized) rows in input order."""
        import openai

        try:
            response = self._client.embeddings.create(
                model=self._model, input=batch, encoding_format="float"
            )
        except openai.APIStatusError as exc:
            raise EmbeddingError(
                f"The embedding server at {self._base_url} answered HTTP {exc.status_code} "
                f"for model {self._model!r}: {redact(exc.message, self._api_key)}"
            ) from exc
        except openai.OpenAIError as exc:
            cause = exc.__cause__ or exc
            said = redact(str(cause), self._api_key)
            raise EmbeddingError(
                f"Could not get embeddings from {self._base_url}: {type(cause).__name__}: {said}"
            ) from exc
        except ValueError as exc:  # a 200 whose body is not JSON (json.JSONDecodeError)
            raise EmbeddingError(
                f"The embedding server at {self._base_url} answered with a body that is not "
                f"JSON ({exc})."
            ) from exc
        try:
            items = sorted(response.data, key=lambda item: item.index)
            if [item.index for item in items] != list(range(len(batch))):
                raise ValueError(f"{len(items)} embeddings for {len(batch)} inputs")
            rows = np.array([item.embedding for item in items], dtype=np.float32)
            if rows.ndim != 2 or rows.shape[1] == 0:
                raise ValueError("the embeddings are not equal-length lists of numbers")
        except (AttributeError, TypeError, ValueError) as exc:
            raise EmbeddingError(
                f"The embedding server at {self._base_url} answered out of shape: {exc}"
            ) from exc
        if self._dim is None:
            self._dim = int(rows.shape[1])
        elif rows.shape[1] != self._dim:
            raise EmbeddingError(
                f"The embedding server at {self._base_url} returned {rows.shape[1]}-dimensional "
                f"vectors for model {self._model!r}, expected {self._dim}."
            )
        return rows
