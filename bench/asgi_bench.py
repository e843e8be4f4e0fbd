"""The app's own cost of a REST recall and of an MCP `recall`, in process, with no socket.

Seeds a temporary database as `http_bench.py` does (1,000 facts and a key), then calls
the ASGI app of `somna serve` directly: the same middleware, routing, key check, thread
hop and serialisation, without uvicorn, the network or a load generator on the same
cores. Prints the CPU per call of each kind, `--rounds` times alternately.

    .venv/bin/python bench/asgi_bench.py [--calls 400] [--rounds 3] [--only rest|mcp]
        [--db FILE]

CPU time on a shared machine moves with its load; instructions do not. For a count
that repeats to a fraction of a percent, seed a database once (`--db FILE` keeps it),
run one kind under callgrind with `--calls 0` and with `--calls 200` on that file,
and divide the difference of the two totals by 200:

    .venv/bin/python bench/asgi_bench.py --db /tmp/asgi.db --calls 0
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python bench/asgi_bench.py --db /tmp/asgi.db --only mcp --rounds 1 --calls 200
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import http_bench
from http_bench import Request
from starlette.types import Message, Scope

from somna.config import Settings
from somna.interfaces.api import create_app
from somna.memory import Memory

_WARM_UP = 30
KINDS: dict[str, Callable[[int], Request]] = {
    "rest": http_bench.recall_request,
    "mcp": http_bench.mcp_recall_request,
}


class _Client:
    """Calls an ASGI app as uvicorn would, one request at a time."""

    def __init__(self, app: Any, secret: str) -> None:
        self._app = app
        self._headers = [
            (b"host", b"127.0.0.1"),
            (b"authorization", f"Bearer {secret}".encode()),
            (b"content-type", b"application/json"),
        ]

    async def post(self, request: Request) -> None:
        path, body, headers = request
        scope: Scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [
                *self._headers,
                *((name.lower().encode(), value.encode()) for name, value in headers.items()),
            ],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8420),
            "state": {},
        }
        pending = [{"type": "http.request", "body": json.dumps(body).encode()}]
        sent: list[Message] = []

        async def receive() -> Message:
            if pending:
                return pending.pop()
            await asyncio.Event().wait()  # the client never disconnects
            raise AssertionError("unreachable")

        async def send(message: Message) -> None:
            sent.append(message)

        await self._app(scope, receive, send)
        status = sent[0]["status"]
        answer = b"".join(m.get("body", b"") for m in sent[1:])
        if not (http_bench.mcp_answered(status, answer) if path == "/mcp" else status == 200):
            raise RuntimeError(f"{path} answered {status}: {answer[:500]!r}")


async def _measure(client: _Client, kinds: list[str], calls: int, rounds: int) -> None:
    for kind in KINDS.values():
        for i in range(_WARM_UP):
            await client.post(kind(i))
    spent: dict[str, list[float]] = {name: [] for name in kinds}
    for _ in range(rounds):
        for name in kinds:
            started = time.process_time()
            for i in range(calls):
                await client.post(KINDS[name](i))
            spent[name].append(time.process_time() - started)
    if calls:
        for name, seconds in spent.items():
            per_call = " / ".join(f"{1000 * s / calls:.2f}" for s in seconds)
            print(f"{name:>4} recall: {per_call} CPU-ms a call ({calls} calls a round)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--calls", type=int, default=400, help="calls per kind and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, kinds alternating")
    parser.add_argument("--only", choices=sorted(KINDS), help="measure one kind only")
    parser.add_argument("--db", type=Path, help="seeded on first use and kept (default: temporary)")
    args = parser.parse_args()
    kinds = [args.only] if args.only else list(KINDS)

    with tempfile.TemporaryDirectory() as folder:
        db = args.db or Path(folder) / "bench.db"
        if not db.exists():
            http_bench._seed(db, 1000)
        with Memory(settings=Settings(db=str(db))) as memory:
            _, secret = memory.keys.create(profiles=[http_bench.PROFILE], name="asgi_bench")
            app = create_app(memory, auth=True)

            async def run() -> None:
                async with app.router.lifespan_context(app):
                    await _measure(_Client(app, secret), kinds, args.calls, args.rounds)

            asyncio.run(run())


if __name__ == "__main__":
    main()
