"""Fixtures for the embedders: the bundled model (loaded once) and a tiny fake OpenAI server.

The fake server is real HTTP on 127.0.0.1, standard library only, so the tests drive the
official ``openai`` client end to end instead of mocking it. A fake LLM server for the
chat API can follow the same pattern.
"""

from __future__ import annotations

import base64
import hashlib
import json
import struct
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from somna.embed import BundledEmbedder

FAKE_DIM = 8


def fake_vector(text: str, dim: int = FAKE_DIM) -> list[float]:
    """Deterministic, deliberately unnormalized vector for ``text`` (entries in [-4, 4])."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return [(digest[i % len(digest)] - 127.5) / 32 for i in range(dim)]


class FakeEmbeddingServer(ThreadingHTTPServer):
    """Answers POST /v1/embeddings like OpenAI; records every request body it gets.

    ``fail_status`` makes every request fail with that HTTP status instead. Results
    come back in reverse order (with correct ``index``) to check that clients sort them.
    """

    daemon_threads = True

    def __init__(self, dim: int = FAKE_DIM, fail_status: int | None = None) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.dim = dim
        self.fail_status = fail_status
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self._lock:
            self.requests.append(body)
        if self.fail_status is not None:
            error = {"message": "the fake server is told to fail", "type": "server_error"}
            return self.fail_status, {"error": error}
        inputs = body["input"]
        inputs = [inputs] if isinstance(inputs, str) else inputs
        data = []
        for index, text in reversed(list(enumerate(inputs))):
            vector = fake_vector(text, self.dim)
            embedding: Any = vector
            if body.get("encoding_format") == "base64":
                packed = struct.pack(f"<{len(vector)}f", *vector)
                embedding = base64.b64encode(packed).decode("ascii")
            data.append({"object": "embedding", "index": index, "embedding": embedding})
        tokens = sum(len(text.split()) for text in inputs)
        return 200, {
            "object": "list",
            "data": data,
            "model": body["model"],
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }


class _Handler(BaseHTTPRequestHandler):
    server: FakeEmbeddingServer
    protocol_version = "HTTP/1.1"  # keep-alive, as the client's connection pool expects

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path == "/v1/embeddings":
            status, payload = self.server.answer(body)
        else:
            status, payload = 404, {"error": {"message": f"no route {self.path}"}}
        raw = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet."""


def _serve(server: FakeEmbeddingServer) -> Iterator[FakeEmbeddingServer]:
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def embedding_server() -> Iterator[FakeEmbeddingServer]:
    yield from _serve(FakeEmbeddingServer())


@pytest.fixture
def failing_server() -> Iterator[FakeEmbeddingServer]:
    yield from _serve(FakeEmbeddingServer(fail_status=500))


@pytest.fixture(scope="session")
def bundled(embedder: BundledEmbedder) -> BundledEmbedder:
    """The suite's one bundled embedder, so the model loads once."""
    return embedder
