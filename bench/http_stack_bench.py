"""Server CPU per recall with uvicorn's pure-Python stack against its C one, side by side.

Two servers on one seeded database (1,000 facts, as `http_bench.py`): one with h11 and
asyncio, one with httptools and uvloop (what Somna installs, and uvicorn picks by
itself). Bursts of `--requests` recalls from 8 clients alternate between them, so that
both see the same machine (whose speed may drift by half over minutes); prints the
median server CPU per recall and rate of each.

    .venv/bin/python bench/http_stack_bench.py [--rounds 8] [--requests 300]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import http_bench
import psutil

_SERVER = """
import sys, uvicorn
from somna.config import Settings
from somna.interfaces.api import create_app
from somna.memory import Memory
db, port, http, loop = sys.argv[1:]
app = create_app(Memory(settings=Settings(db=db)), auth=True)
uvicorn.run(app, host="127.0.0.1", port=int(port), ws="none", log_level="warning",
            http=http, loop=loop)
"""

STACKS = {"h11 + asyncio": ("h11", "asyncio"), "httptools + uvloop": ("httptools", "uvloop")}


def _start(db: Path, port: int, http: str, loop: str) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [sys.executable, "-c", _SERVER, str(db), str(port), http, loop],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return http_bench.answering(server, port)


def _burst(url: str, secret: str, requests: int, clients: int) -> float:
    """Seconds for `requests` recalls from `clients` connections."""
    numbers = iter(range(requests))
    lock = threading.Lock()
    failed: list[int] = []

    def client() -> None:
        connection = http_bench._Connection(url, secret)
        while True:
            with lock:
                i = next(numbers, None)
            if i is None:
                break
            if (status := http_bench._recall(connection, i)) != 200:
                failed.append(status)
        connection.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failed:
        raise RuntimeError(f"{len(failed)} recalls failed (status {failed[0]}).")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8, help="bursts per server")
    parser.add_argument("--requests", type=int, default=300, help="recalls per burst")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "stacks.db"
        secret = http_bench._seed(db, 1000)
        servers, urls = {}, {}
        try:
            for name, (http, loop) in STACKS.items():
                port = http_bench._free_port()
                servers[name] = _start(db, port, http, loop)
                urls[name] = f"http://127.0.0.1:{port}"
                _burst(urls[name], secret, 100, 8)  # warm: the model, the caches
            cpu: dict[str, list[float]] = {name: [] for name in STACKS}
            rate: dict[str, list[float]] = {name: [] for name in STACKS}
            for round_ in range(args.rounds):
                for name in list(STACKS)[:: 1 if round_ % 2 == 0 else -1]:
                    process = psutil.Process(servers[name].pid)
                    before = sum(process.cpu_times()[:2])
                    seconds = _burst(urls[name], secret, args.requests, 8)
                    spent = sum(process.cpu_times()[:2]) - before
                    cpu[name].append(1000 * spent / args.requests)
                    rate[name].append(args.requests / seconds)
        finally:
            for server in servers.values():
                server.terminate()
                server.wait(10)
    print(f"{args.rounds} bursts of {args.requests} recalls from 8 clients on each server:")
    for name in STACKS:
        print(
            f"  {name:18} server CPU {statistics.median(cpu[name]):.2f} ms a recall "
            f"(median; {min(cpu[name]):.2f}-{max(cpu[name]):.2f}), "
            f"{statistics.median(rate[name]):.0f} recalls/s"
        )


if __name__ == "__main__":
    main()
