"""The app's own cost of a REST recall and of an MCP `recall`, in process, with no socket.

Seeds a temporary database as `http_bench.py` does (1,000 facts and a key), then calls
the ASGI app of `somna serve` directly: the same middleware, routing, key check, thread
hop and serialisation, without uvicorn, the network or a load generator on the same
cores. Each call's reinforcement of the recalled facts is written before the next, as a
lone client's would be. Prints the CPU per call of each kind, `--rounds` times
alternately.

    .venv/bin/python bench/asgi_bench.py [--calls 400] [--rounds 3] [--only rest|mcp]
        [--db FILE] [--instructions]

CPU time on a shared machine moves with its load, by half within minutes here;
instructions do not. `--instructions` runs each kind once under valgrind's callgrind
(`valgrind` and `callgrind_control` must be installed), counting only the measured calls,
not the start-up and warm-up, and prints the instructions per call: the same figure to
within about 1% from run to run, in about two minutes a kind for the default 100 calls.
Compare two versions of the code with it, on the same `--db` file.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
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


async def _warm(client: _Client, memory: Memory) -> None:
    for kind in KINDS.values():
        for i in range(_WARM_UP):
            await client.post(kind(i))
    memory.flush()


async def _call(client: _Client, memory: Memory, kind: str, calls: int) -> None:
    for i in range(calls):
        await client.post(KINDS[kind](i))
        memory.flush()


async def _measure(
    client: _Client, memory: Memory, kinds: list[str], calls: int, rounds: int
) -> None:
    await _warm(client, memory)
    spent: dict[str, list[float]] = {name: [] for name in kinds}
    for _ in range(rounds):
        for name in kinds:
            started = time.process_time()
            await _call(client, memory, name, calls)
            spent[name].append(time.process_time() - started)
    if calls:
        for name, seconds in spent.items():
            per_call = " / ".join(f"{1000 * s / calls:.2f}" for s in seconds)
            print(f"{name:>4} recall: {per_call} CPU-ms a call ({calls} calls a round)")


async def _counted(client: _Client, memory: Memory, kind: str, calls: int) -> None:
    """Under callgrind: say "ready" once warm, run the calls on "go", say "done", wait."""
    await _warm(client, memory)
    print("ready", flush=True)
    sys.stdin.readline()
    await _call(client, memory, kind, calls)
    print("done", flush=True)
    sys.stdin.readline()


def _instructions(db: Path, kind: str, calls: int) -> float:
    """Instructions per call of `kind`, counted by callgrind over the calls alone."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        *("--db", str(db), "--only", kind, "--calls", str(calls), "--counted"),
    ]
    child = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    assert child.stdin is not None and child.stdout is not None
    for said, instrument in (("ready", "on"), ("done", "off")):
        line = child.stdout.readline().strip()
        if line != said:
            child.kill()
            raise SystemExit(f"The counted run stopped early: {child.communicate()[1][-2000:]}")
        subprocess.run(
            ["callgrind_control", "-i", instrument, str(child.pid)], check=True, capture_output=True
        )
        child.stdin.write("\n")
        child.stdin.flush()
    _, err = child.communicate()
    collected = re.search(r"Collected : (\d+)", err)
    if child.returncode != 0 or collected is None:
        raise SystemExit(f"callgrind gave no count: {err[-2000:]}")
    return int(collected[1]) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--calls", type=int, help="calls per kind and round (400, or 100 counted)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, kinds alternating")
    parser.add_argument("--only", choices=sorted(KINDS), help="measure one kind only")
    parser.add_argument("--db", type=Path, help="seeded on first use and kept (default: temporary)")
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions under callgrind"
    )
    parser.add_argument("--counted", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    kinds = [args.only] if args.only else list(KINDS)
    calls = args.calls if args.calls is not None else 100 if args.instructions else 400
    if args.instructions and not all(map(shutil.which, ("valgrind", "callgrind_control"))):
        raise SystemExit("--instructions needs valgrind and callgrind_control on the PATH.")

    with tempfile.TemporaryDirectory() as folder:
        db = args.db or Path(folder) / "bench.db"
        if not db.exists():
            http_bench._seed(db, 1000)
        if args.instructions:
            for kind in kinds:
                millions = _instructions(db, kind, calls) / 1e6
                print(
                    f"{kind:>4} recall: {millions:.2f} million instructions a call ({calls} calls)"
                )
            return
        with Memory(settings=Settings(db=str(db))) as memory:
            _, secret = memory.keys.create(profiles=[http_bench.PROFILE], name="asgi_bench")
            app = create_app(memory, auth=True)

            async def run() -> None:
                async with app.router.lifespan_context(app):
                    client = _Client(app, secret)
                    if args.counted:
                        await _counted(client, memory, kinds[0], calls)
                    else:
                        await _measure(client, memory, kinds, calls, args.rounds)

            asyncio.run(run())


if __name__ == "__main__":
    main()
