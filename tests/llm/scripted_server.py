"""A scripted OpenAI-compatible chat server on 127.0.0.1, for tests of anything that calls an LLM.

Real HTTP, standard library only: the official ``openai`` client talks to it end to end.
Each POST to ``/v1/chat/completions`` takes the next answer from a queue and records the
request (body and headers), so a test asserts both what came back and what was sent.

An answer is ``Script(status, body, delay)``:

- ``body`` a ``str``: the assistant's message content, wrapped in a chat completion
  (with ``usage``); with a non-200 status, the message of an OpenAI-style error instead;
- ``body`` a ``str`` starting with ``"json:"``: the rest is sent verbatim as the HTTP body;
- ``body`` a ``dict``: sent as the JSON body, as is.

``delay`` seconds pass before the answer (a client timeout shorter than that sees a
timeout). When the queue is empty, ``responder`` (a function of the request body that
returns a `Script`) answers, so a test can play a whole server's behaviour (see
`tests.llm.local_servers`); without one, HTTP 418 "the script is exhausted", which no
client retries. ``GET /v1/models`` lists ``models``. Other test packages reuse it with::

    from tests.llm.scripted_server import ScriptedChatServer, serve

    @pytest.fixture
    def chat_server() -> Iterator[ScriptedChatServer]:
        yield from serve()
"""

from __future__ import annotations

import itertools
import json
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["Script", "ScriptedChatServer", "completion", "serve"]


def completion(
    content: str | None,
    *,
    prompt_tokens: int = 10,
    completion_tokens: int = 5,
    finish_reason: str = "stop",
    refusal: str | None = None,
    model: str = "scripted",
) -> dict[str, Any]:
    """An OpenAI chat completion body whose one choice says ``content``."""
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": refusal},
                "finish_reason": finish_reason,
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


@dataclass(frozen=True)
class Script:
    status: int = 200
    body: str | dict[str, Any] = ""
    delay: float = 0.0


_SERVERS = itertools.count()


class ScriptedChatServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        # A path of its own: the client remembers what a (base URL, model) accepts for
        # the whole process, and a later server may get an earlier one's port.
        self.prefix = f"/scripted-{next(_SERVERS)}"
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._script: deque[Script] = deque()
        self._lock = threading.Lock()
        self.closing = threading.Event()
        self.responder: Callable[[dict[str, Any]], Script] | None = None
        self.models: list[dict[str, Any]] = [
            {"id": "scripted-model", "object": "model", "created": 0, "owned_by": "tests"}
        ]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}{self.prefix}/v1"

    def push(self, *items: Script | tuple[int, str | dict[str, Any], float]) -> None:
        """Queue answers, as `Script` or ``(status, body, delay)`` tuples."""
        with self._lock:
            for item in items:
                self._script.append(item if isinstance(item, Script) else Script(*item))

    def reply(self, content: str, *, delay: float = 0.0, **usage: Any) -> None:
        """Queue one successful answer whose message says ``content``."""
        self.push(Script(200, completion(content, **usage), delay))

    def fail(self, status: int, message: str = "scripted failure", *, delay: float = 0.0) -> None:
        self.push(Script(status, message, delay))

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._script)

    def answer(self, body: dict[str, Any], headers: dict[str, str]) -> tuple[Script, bytes]:
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            item = self._script.popleft() if self._script else None
        if item is None and self.responder is not None:
            item = self.responder(body)
        if item is None:
            item = Script(418, "the script is exhausted")
        if isinstance(item.body, dict):
            raw = json.dumps(item.body)
        elif item.body.startswith("json:"):
            raw = item.body.removeprefix("json:")
        elif item.status == 200:
            raw = json.dumps(completion(item.body))
        else:
            raw = json.dumps({"error": {"message": item.body, "type": "scripted", "code": None}})
        return item, raw.encode("utf-8")


class _Handler(BaseHTTPRequestHandler):
    server: ScriptedChatServer
    protocol_version = "HTTP/1.1"  # keep-alive, as the client's connection pool expects

    def _route(self) -> str:
        """The path without the server's own prefix (URLs built by hand have none)."""
        return self.path.removeprefix(self.server.prefix).rstrip("/")

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])) or b"{}")
        if self._route() not in ("/v1/chat/completions", "/chat/completions"):
            self._send(404, json.dumps({"error": {"message": f"no route {self.path}"}}).encode())
            return
        item, raw = self.server.answer(body, {k.lower(): v for k, v in self.headers.items()})
        if item.delay and self.server.closing.wait(item.delay):
            return
        self._send(item.status, raw)

    def do_GET(self) -> None:
        if self._route() in ("/v1/models", "/models"):
            self._send(200, json.dumps({"object": "list", "data": self.server.models}).encode())
        else:
            self._send(404, json.dumps({"error": {"message": f"no route {self.path}"}}).encode())

    def _send(self, status: int, raw: bytes) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test): nobody to answer

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet."""


def serve() -> Iterator[ScriptedChatServer]:
    """Run a server for the duration of a fixture; shut it down and close it afterwards."""
    server = ScriptedChatServer()
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.closing.set()
        server.shutdown()
        server.server_close()
        thread.join()
