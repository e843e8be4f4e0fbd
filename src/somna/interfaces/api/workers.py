"""`somna serve --workers N`: N server processes answering on one listening socket.

One Python process answers on one core at a time, whatever the machine has. The
parent binds the socket once and starts N processes (spawned, so they share no
state with it); each opens its own `Memory` on the same settings, loads its own
embedding model and serves the socket with uvicorn, and the kernel hands each
new connection to one of them. The parent watches: a worker that dies is
replaced, one that dies before it served stops the whole server (it would
fail the same way again), and Ctrl-C or SIGTERM stops every worker gracefully.

The socket is made with `IPPROTO_TCP` on purpose: asyncio turns Nagle's algorithm
off (`TCP_NODELAY`) only on connections whose listener says so, and without it
every keep-alive response waits for the client's delayed acknowledgement, about
40 ms (uvicorn's own `--workers` binds its socket without it).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
import socket
import sys
import time
from collections.abc import Callable
from multiprocessing.connection import wait
from multiprocessing.process import BaseProcess
from multiprocessing.synchronize import Event
from types import FrameType

from somna.config import Settings

__all__ = ["serve_workers"]

_STOP_S = 30.0
"""How long stopped workers get to finish their requests before they are killed."""


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def serve_workers(
    settings: Settings,
    *,
    host: str,
    port: int,
    workers: int,
    auth: bool,
    access_log: bool = True,
    say: Callable[[str], None] = _stderr,
) -> int:
    """Serve until stopped; the exit status (0, or 1 when a worker could not start)."""
    listener = _listen(host, port)
    context = multiprocessing.get_context("spawn")
    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    started: dict[BaseProcess, Event] = {}  # each worker's "I am serving"

    def start() -> None:
        ready = context.Event()
        process = context.Process(
            target=_serve_one,
            args=(listener, settings, auth, access_log, ready),
            name="somna-worker",
        )
        process.start()
        started[process] = ready

    status = 0
    try:
        for _ in range(workers):
            start()
        say(f"Started {workers} worker processes.")
        while not stopping:
            wait([p.sentinel for p in started], timeout=0.5)
            for process, ready in list(started.items()):
                if process.is_alive() or stopping:
                    continue
                del started[process]
                if not ready.is_set():
                    say(
                        f"A worker process exited right after its start (exit code "
                        f"{process.exitcode}); stopping the server. Its error is above."
                    )
                    stopping, status = True, 1
                    break
                say(
                    f"Worker process {process.pid} died (exit code {process.exitcode}); "
                    "starting another."
                )
                start()
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        _stop_all(list(started))
        listener.close()
    return status


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(2048)
    return listener


def _stop_all(processes: list[BaseProcess]) -> None:
    """SIGTERM each (uvicorn then finishes the requests in flight), kill the late ones."""
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + _STOP_S
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join()


def _serve_one(
    listener: socket.socket, settings: Settings, auth: bool, access_log: bool, ready: Event
) -> None:
    """One worker: its own `Memory` and app, serving the shared socket until SIGTERM;
    `ready` is set once it serves."""
    import uvicorn

    from somna.interfaces.api.app import create_app
    from somna.memory import Memory

    memory = Memory(settings=settings)
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(memory, auth=auth), ws="none", log_level="info", access_log=access_log
        )
    )

    async def serve() -> None:
        serving = asyncio.create_task(server.serve(sockets=[listener]))
        while not (server.started or serving.done()):
            await asyncio.sleep(0.05)
        if server.started:
            ready.set()
        await serving

    try:
        asyncio.run(serve())
    finally:
        memory.close()
