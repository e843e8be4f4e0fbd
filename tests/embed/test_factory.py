"""create_embedder: the one place settings turn into an embedder."""

from __future__ import annotations

import pytest

from somna.embed import BundledEmbedder, Embedder, OpenAIEmbedder, create_embedder
from somna.errors import ConfigurationError


def test_default_is_bundled() -> None:
    embedder = create_embedder()
    assert isinstance(embedder, BundledEmbedder)
    assert isinstance(embedder, Embedder)


def test_openai_provider() -> None:
    embedder = create_embedder(
        "openai", model="nomic-embed-text", base_url="http://127.0.0.1:9/v1", dim=768
    )
    assert isinstance(embedder, OpenAIEmbedder)
    assert embedder.name == "openai:nomic-embed-text"
    assert embedder.dim == 768
    embedder.close()


def test_unknown_provider_names_the_accepted_ones() -> None:
    with pytest.raises(ConfigurationError, match=r"'bundled'.*'openai'"):
        create_embedder("sentence-transformers")


def test_openai_needs_a_model() -> None:
    with pytest.raises(ConfigurationError, match="model"):
        create_embedder("openai")


def test_bundled_refuses_contradicting_settings() -> None:
    with pytest.raises(ConfigurationError):
        create_embedder("bundled", model="text-embedding-3-small")
    with pytest.raises(ConfigurationError):
        create_embedder("bundled", dim=768)
