"""HTTP benchmark: requests/s and p50/p95 latency of recall and append-message over the REST API,
and of the MCP `recall` tool over streamable HTTP.

Seeds a temporary database with a profile of ~1,000 facts and an API key, starts
`python -m somna.interfaces.api` (the same as `somna serve`) on 127.0.0.1 in a
separate process, then sends a fixed number of requests per level from 1, 8 and
32 concurrent clients (one thread and one HTTP connection each) and prints a
table with the server's CPU time per request, which moves less with the
machine's load than the rates do. It stops by itself and removes the database.

MCP is measured twice: `mcp recall` sends each `tools/call` as one JSON-RPC POST
from the same light client as the REST rows (MCP 2026-07-28 needs no session), so
that its rate compares with theirs; `mcp recall sdk` goes through the MCP client
library, as an agent would, which takes several times the client CPU per call.

    .venv/bin/python bench/http_bench.py [--facts 1000] [--requests 400] [--workers 1]
        [--no-access-log] [--alternate PAIRS]

The rows run one after another, minutes apart, and a shared machine's speed moves by
half within minutes: `--alternate PAIRS` then runs REST and MCP recall in bursts side
by side, at 8 clients, and prints the ratio of each pair, which that drift spares.

The load generator runs on the same machine as the server, so with few cores
the figures are a floor: both compete for the CPU.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import anyio
import httpx
import httpx2
import psutil
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

import somna
from somna.config import Settings
from somna.memory import Memory

SRC = Path(somna.__file__).resolve().parent.parent

PROFILE = "bench"
LEVELS = (1, 8, 32)
ALTERNATE_CLIENTS = 8

_PEOPLE = ["Alice", "Bruno", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana", "Ivo", "Jun"]
_THINGS = [
    "green tea",
    "espresso",
    "jazz",
    "hiking",
    "chess",
    "sushi",
    "cycling",
    "poetry",
    "sailing",
    "pottery",
    "tennis",
    "opera",
    "gardening",
    "climbing",
    "baking",
    "photography",
    "yoga",
    "astronomy",
    "knitting",
    "surfing",
]
_VERBS = ["likes", "dislikes", "is learning", "used to love", "wants to try"]
_WHEN = ["on weekends", "every morning", "in winter", "after work", "with friends"]
_QUERIES = [
    "What does the user like to drink?",
    "Which sports does Dana practise?",
    "hobbies on weekends",
    "What is Chen learning?",
    "music preferences",
    "What does the user do after work?",
]


def _facts(count: int) -> list[str]:
    combos = itertools.product(_PEOPLE, _VERBS, _THINGS, _WHEN)
    texts = [f"{who} {verb} {thing} {when}." for who, verb, thing, when in combos]
    return texts[:count]


def _seed(db: Path, count: int) -> str:
    """Create the profile, its facts and a key for it; return the key's secret."""
    with Memory(settings=Settings(db=str(db))) as memory:
        memory.create_profile(PROFILE)
        for text in _facts(count):
            memory.add_fact(PROFILE, text, category="hobby")
        _, secret = memory.keys.create(profiles=[PROFILE], name="bench")
        memory.flush()
    return secret


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def _start_server(db: Path, port: int, workers: int, access_log: bool) -> subprocess.Popen[bytes]:
    env = {**os.environ, "SOMNA_DB": str(db), "PYTHONPATH": str(SRC)}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "somna.interfaces.api",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--access-log" if access_log else "--no-access-log",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return answering(server, port)


def answering(server: subprocess.Popen[bytes], port: int) -> subprocess.Popen[bytes]:
    """`server` once its /v1/health answers on `port`; killed if it has not within 60 s."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("The server exited before it answered.")
        try:
            httpx.get(f"http://127.0.0.1:{port}/v1/health", timeout=1).raise_for_status()
            return server
        except httpx.TransportError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("The server did not answer within 60 s.")


@dataclass
class Result:
    operation: str
    clients: int
    requests: int
    errors: int
    seconds: float
    latencies: list[float]
    server_cpu: float
    """Seconds of CPU the server's processes spent on the row's requests."""
    client_cpu: float
    """Seconds of CPU the load generator (this process) spent on them."""

    @property
    def rate(self) -> float:
        """Requests answered per second."""
        return self.requests / self.seconds

    @property
    def server_cpu_ms(self) -> float:
        """Milliseconds of the server's CPU per request."""
        return 1000 * self.server_cpu / self.requests

    @property
    def per_core(self) -> float:
        """Requests a second one core of the server answers: its rate per core."""
        return self.requests / self.server_cpu if self.server_cpu else 0.0

    def row(self) -> str:
        ordered = sorted(self.latencies)
        p50 = statistics.median(ordered) * 1000
        p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000
        return (
            f"| {self.operation:<14} | {self.clients:>7} | {self.requests:>8} | {self.rate:>9.1f} "
            f"| {p50:>8.1f} | {p95:>8.1f} | {self.server_cpu_ms:>17.2f} | {self.per_core:>10.0f} "
            f"| {1000 * self.client_cpu / self.requests:>17.2f} | {self.errors:>6} |"
        )


class _Connection:
    """One keep-alive connection of the standard library's `http.client`: the lightest
    Python client there is, so that the load generator takes as little as it can of the
    CPU it shares with the server (httpx spends several times more per request)."""

    def __init__(self, url: str, secret: str) -> None:
        address = urlsplit(url)
        self._http = http.client.HTTPConnection(address.hostname, address.port, timeout=120)
        self._headers = {"Authorization": f"Bearer {secret}", "Content-Type": "application/json"}

    def post(self, path: str, body: object) -> int:
        return self.exchange(path, body)[0]

    def exchange(
        self, path: str, body: object, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        """POST `body` as JSON; the status and the body of the answer."""
        self._http.request("POST", path, json.dumps(body), {**self._headers, **(headers or {})})
        response = self._http.getresponse()
        return response.status, response.read()

    def close(self) -> None:
        self._http.close()


Call = Callable[[_Connection, int], int]


Request = tuple[str, dict[str, Any], dict[str, str]]
"""A POST: its path, its JSON body and the headers it adds to the key's."""


def recall_request(i: int) -> Request:
    """The `i`-th REST recall of the benchmarks."""
    query = _QUERIES[i % len(_QUERIES)]
    return f"/v1/profiles/{PROFILE}/recall", {"query": query, "k": 5}, {}


def _recall(client: _Connection, i: int) -> int:
    return client.post(*recall_request(i)[:2])


_MCP_VERSION = "2026-07-28"
_MCP_HEADERS = {
    "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": _MCP_VERSION,
    "Mcp-Method": "tools/call",
    "Mcp-Name": "recall",
}
_MCP_META = {
    "io.modelcontextprotocol/protocolVersion": _MCP_VERSION,
    "io.modelcontextprotocol/clientInfo": {"name": "http_bench", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def mcp_recall_request(i: int) -> Request:
    """The `i`-th call of the MCP `recall` tool: one JSON-RPC POST, no session."""
    query = _QUERIES[i % len(_QUERIES)]
    arguments = {"profile": PROFILE, "query": query, "k": 5, "format": "full"}
    params = {"name": "recall", "arguments": arguments, "_meta": _MCP_META}
    body = {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params}
    return "/mcp", body, _MCP_HEADERS


def mcp_answered(status: int, body: bytes) -> bool:
    """Whether an MCP POST got a result that is not a tool error."""
    answer = json.loads(body) if status == 200 else {}
    return "result" in answer and not answer["result"].get("isError")


def _mcp_recall(client: _Connection, i: int) -> int:
    """A tool error counts as a failed call."""
    status, body = client.exchange(*mcp_recall_request(i))
    return status if mcp_answered(status, body) or status >= 400 else 500


def _append(client: _Connection, i: int) -> int:
    turns = [{"role": "user", "content": f"Message number {i}: I went sailing with Dana today."}]
    return client.post(
        f"/v1/profiles/{PROFILE}/sessions/chat-{i % 50}/messages", {"messages": turns}
    )


def _load(
    url: str, secret: str, call: Call, clients: int, total: int
) -> tuple[list[float], int, float]:
    counter = itertools.count()
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()

    def worker() -> None:
        nonlocal errors
        client = _Connection(url, secret)
        try:
            while (i := next(counter)) < total:
                started = time.perf_counter()
                status = call(client, i)
                elapsed = time.perf_counter() - started
                with lock:
                    latencies.append(elapsed)
                    errors += status >= 400
        finally:
            client.close()

    started = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        for future in [pool.submit(worker) for _ in range(clients)]:
            future.result()
    return latencies, errors, time.perf_counter() - started


def _mcp_load(url: str, secret: str, clients: int, total: int) -> tuple[list[float], int, float]:
    """The MCP `recall` tool, `clients` sessions at once, each on its own connection."""
    counter = itertools.count()
    latencies: list[float] = []
    errors = 0

    async def worker() -> None:
        nonlocal errors
        async with httpx2.AsyncClient(headers={"X-API-Key": secret}, timeout=120) as http:
            transport = streamable_http_client(f"{url}/mcp", http_client=http)
            async with Client(transport, read_timeout_seconds=120) as client:
                while (i := next(counter)) < total:
                    query = _QUERIES[i % len(_QUERIES)]
                    started = time.perf_counter()
                    result = await client.call_tool(
                        "recall", {"profile": PROFILE, "query": query, "k": 5, "format": "full"}
                    )
                    latencies.append(time.perf_counter() - started)
                    errors += bool(result.is_error)

    async def main() -> float:
        started = time.perf_counter()
        async with anyio.create_task_group() as group:
            for _ in range(clients):
                group.start_soon(worker)
        return time.perf_counter() - started

    seconds = anyio.run(main)
    return latencies, errors, seconds


def _cpu(process: psutil.Process) -> float:
    """CPU seconds of the server and of its worker processes."""
    total = 0.0
    for each in [process, *process.children(recursive=True)]:
        times = each.cpu_times()
        total += times.user + times.system
    return total


def _row(
    url: str,
    secret: str,
    process: psutil.Process,
    name: str,
    call: Call | None,
    clients: int,
    requests: int,
) -> Result:
    """One row: `requests` calls from `clients` clients (`call` None: the MCP client library)."""
    before, own = _cpu(process), time.process_time()
    if call is None:
        latencies, errors, seconds = _mcp_load(url, secret, clients, requests)
    else:
        latencies, errors, seconds = _load(url, secret, call, clients, requests)
    spent = _cpu(process) - before
    return Result(
        name,
        clients,
        len(latencies),
        errors,
        seconds,
        latencies,
        spent,
        time.process_time() - own,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--facts", type=int, default=1000, help="facts to seed (default 1000)")
    parser.add_argument(
        "--requests", type=int, default=400, help="requests per operation and level (default 400)"
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="server processes (somna serve --workers)"
    )
    parser.add_argument(
        "--alternate",
        type=int,
        default=0,
        metavar="PAIRS",
        help=f"then PAIRS bursts of REST and MCP recall side by side ({ALTERNATE_CLIENTS} clients)",
    )
    parser.add_argument(
        "--no-access-log",
        action="store_true",
        help="serve without the line per request (somna serve --no-access-log)",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        started = time.perf_counter()
        secret = _seed(db, args.facts)
        print(f"Seeded {args.facts} facts in {time.perf_counter() - started:.1f} s.")
        port = _free_port()
        server = _start_server(db, port, args.workers, not args.no_access_log)
        url = f"http://127.0.0.1:{port}"
        try:
            _load(url, secret, _recall, 4, 40)  # warm up: model, indexes, connections
            _mcp_load(url, secret, 2, 20)
            process = psutil.Process(server.pid)
            results = []
            for name, call in (
                ("recall", _recall),
                ("append-message", _append),
                ("mcp recall", _mcp_recall),
                ("mcp recall sdk", None),
            ):
                for clients in LEVELS:
                    results.append(_row(url, secret, process, name, call, clients, args.requests))
            # Rows minutes apart see the machine at different speeds; bursts side by side
            # compare the MCP tool with REST at the same speed.
            side_by_side = (ALTERNATE_CLIENTS, args.requests)
            pairs = [
                (
                    _row(url, secret, process, "recall", _recall, *side_by_side),
                    _row(url, secret, process, "mcp recall", _mcp_recall, *side_by_side),
                )
                for _ in range(args.alternate)
            ]
        finally:
            server.terminate()
            server.wait(30)
    cores = os.cpu_count()
    print(
        f"\nSomna HTTP benchmark: {args.facts} facts, {args.requests} requests per row, "
        f"{args.workers} server process(es), server and clients on one machine ({cores} CPUs).\n"
    )
    print(
        "| operation      | clients | requests |     req/s |  p50 ms  |  p95 ms  "
        "| server CPU ms/req | req/core-s | client CPU ms/req | errors |"
    )
    print(
        "|----------------|---------|----------|-----------|----------|----------"
        "|-------------------|------------|-------------------|--------|"
    )
    for result in results:
        print(result.row())
    if pairs:
        print(
            f"\nThe MCP recall tool against REST recall, {len(pairs)} pairs of bursts of "
            f"{args.requests} at {ALTERNATE_CLIENTS} clients side by side:"
        )
        for rest, mcp in pairs:
            print(
                f"- {rest.rate:.1f} and {mcp.rate:.1f} calls/s: {mcp.rate / rest.rate:.2f} "
                f"times REST's rate, {mcp.server_cpu_ms / rest.server_cpu_ms:.2f} times its "
                "server CPU"
            )


if __name__ == "__main__":
    main()
