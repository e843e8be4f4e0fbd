"""OpenAIEmbedder through the real ``openai`` client against a local fake server."""

from __future__ import annotations

import socket

import numpy as np
import numpy.typing as npt
import pytest

from somna.embed import Embedder, OpenAIEmbedder
from somna.errors import EmbeddingError

from .conftest import FAKE_DIM, FakeEmbeddingServer, fake_vector


def _unit(rows: list[list[float]]) -> npt.NDArray[np.float64]:
    array = np.array(rows, dtype=np.float64)
    unit: npt.NDArray[np.float64] = array / np.linalg.norm(array, axis=1, keepdims=True)
    return unit


def test_rows_are_normalized_float32_in_input_order(
    embedding_server: FakeEmbeddingServer,
) -> None:
    texts = ["alpha", "beta", "gamma", "alpha"]
    with OpenAIEmbedder("fake-embed", base_url=embedding_server.url) as embedder:
        vectors = embedder.embed(texts)
        assert embedder.name == "openai:fake-embed"
        assert embedder.dim == FAKE_DIM
        # After the first answer: on 3.11 isinstance() reads `dim`, which would else probe.
        assert isinstance(embedder, Embedder)
    assert vectors.dtype == np.float32
    assert vectors.shape == (len(texts), FAKE_DIM)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    np.testing.assert_allclose(vectors, _unit([fake_vector(t) for t in texts]), atol=1e-6)
    (request,) = embedding_server.requests
    assert request["model"] == "fake-embed"
    assert request["input"] == texts


def test_batches_of_256(embedding_server: FakeEmbeddingServer) -> None:
    texts = [f"memory number {i}" for i in range(600)]
    with OpenAIEmbedder("fake-embed", base_url=embedding_server.url) as embedder:
        vectors = embedder.embed(texts)
    assert [len(r["input"]) for r in embedding_server.requests] == [256, 256, 88]
    np.testing.assert_allclose(vectors, _unit([fake_vector(t) for t in texts]), atol=1e-6)


def test_dim_probe_happens_once(embedding_server: FakeEmbeddingServer) -> None:
    with OpenAIEmbedder("fake-embed", base_url=embedding_server.url) as embedder:
        assert embedder.dim == FAKE_DIM
        assert embedder.dim == FAKE_DIM
        assert embedder.embed([]).shape == (0, FAKE_DIM)
    assert [r["input"] for r in embedding_server.requests] == [["dimension probe"]]


def test_given_dim_needs_no_request(embedding_server: FakeEmbeddingServer) -> None:
    with OpenAIEmbedder("fake-embed", base_url=embedding_server.url, dim=FAKE_DIM) as embedder:
        assert embedder.dim == FAKE_DIM
        assert embedder.embed([]).shape == (0, FAKE_DIM)
    assert embedding_server.requests == []


def test_wrong_dim_raises(embedding_server: FakeEmbeddingServer) -> None:
    with (
        OpenAIEmbedder("fake-embed", base_url=embedding_server.url, dim=3) as embedder,
        pytest.raises(EmbeddingError, match="expected 3"),
    ):
        embedder.embed(["hello"])


def test_server_error_raises(failing_server: FakeEmbeddingServer) -> None:
    with (
        OpenAIEmbedder("fake-embed", base_url=failing_server.url, max_retries=1) as embedder,
        pytest.raises(EmbeddingError, match="HTTP 500") as caught,
    ):
        embedder.embed(["hello"])
    assert failing_server.url in str(caught.value)
    assert len(failing_server.requests) == 2  # the first try and one retry


def test_closed_port_raises() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    with (
        OpenAIEmbedder("fake-embed", base_url=url, max_retries=0, timeout=5) as embedder,
        pytest.raises(EmbeddingError, match=f"127.0.0.1:{port}"),
    ):
        embedder.embed(["hello"])
