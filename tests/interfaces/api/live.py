"""A real HTTP server for the interface tests: uvicorn in a thread, on a free port of 127.0.0.1."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI

from somna.config import Settings
from somna.embed import Embedder
from somna.interfaces.api import create_app
from somna.memory import Memory
from somna.store.sqlite import SQLiteStore


@contextmanager
def serving(app: FastAPI) -> Iterator[str]:
    """Run `app` until the block ends; yields its base URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app, log_level="warning", ws="none", lifespan="on", timeout_graceful_shutdown=2
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 15
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("The test server did not start.")
            time.sleep(0.01)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(15)
        sock.close()


@dataclass
class Live:
    """A running server over `memory`, with an admin key and a key for profile `alice`."""

    url: str
    memory: Memory
    app: FastAPI
    admin: str
    alice: str

    def client(self, secret: str | None = None, **kwargs: Any) -> httpx.Client:
        headers = {} if secret is None else {"Authorization": f"Bearer {secret}"}
        return httpx.Client(base_url=self.url, headers=headers, timeout=60, **kwargs)


def new_memory(folder: Path, embedder: Embedder) -> Memory:
    return Memory(store=SQLiteStore(folder / "somna.db"), embedder=embedder, settings=Settings())


@contextmanager
def live_server(folder: Path, embedder: Embedder, *, auth: bool = True) -> Iterator[Live]:
    memory = new_memory(folder, embedder)
    memory.create_profile("alice", name="Alice")
    memory.create_profile("bob", name="Bob")
    _, admin = memory.keys.create(admin=True, name="admin")
    _, alice = memory.keys.create(profiles=["alice"], name="alice")
    app = create_app(memory, auth=auth)
    try:
        with serving(app) as url:
            yield Live(url, memory, app, admin, alice)
    finally:
        memory.flush()
        memory.close()


def api_routes(app: FastAPI) -> list[tuple[str, str]]:
    """Every (method, path template) the app serves, from its OpenAPI document.

    The document lists every REST route (none is hidden from it); the routers
    themselves are included lazily and are not all visible in `app.routes`.
    """
    paths = app.openapi()["paths"]
    return sorted(
        (method.upper(), path) for path, operations in paths.items() for method in operations
    )


def route_pattern(path: str) -> re.Pattern[str]:
    """`/v1/runs/{run_id}` -> a regex matching `/v1/runs/run_01…`."""
    return re.compile("^" + re.sub(r"\{[^/]+\}", "[^/]+", path) + "$")
