"""`somna serve --workers N`: several processes on one port and one database."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psutil
import pytest

import somna
from somna.config import Settings
from somna.embed import BundledEmbedder
from somna.interfaces.api.workers import _listen, serve_workers
from somna.interfaces.cli.serve import serve
from somna.memory import Memory
from tests.interfaces.api.test_cli import _command, _free_port, invoke

SRC = str(Path(somna.__file__).resolve().parent.parent)


def test_connections_to_the_shared_socket_have_nagle_off() -> None:
    """Without TCP_NODELAY each keep-alive response waits ~40 ms for a delayed ACK."""

    async def accepted_nodelay() -> int:
        listener = _listen("127.0.0.1", 0)
        seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            sock = writer.get_extra_info("socket")
            seen.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(accepted, sock=listener)
        _, writer = await asyncio.open_connection(*listener.getsockname()[:2])
        try:
            return await asyncio.wait_for(seen, 10)
        finally:
            writer.close()
            server.close()

    assert asyncio.run(accepted_nodelay()) != 0


def _answering(url: str, server: subprocess.Popen[str], deadline_s: float = 90) -> None:
    deadline = time.monotonic() + deadline_s
    while True:
        assert server.poll() is None, server.communicate()
        try:
            httpx.get(f"{url}/v1/health", timeout=2).raise_for_status()
            return
        except httpx.TransportError:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)


def _serving(process: psutil.Process) -> bool:
    try:
        return any("spawn_main" in part for part in process.cmdline())
    except psutil.Error:  # gone, or a zombie not yet reaped by its parent
        return False


def _workers(server: subprocess.Popen[str], count: int) -> list[psutil.Process]:
    """The server's worker processes, once there are `count` of them."""
    deadline = time.monotonic() + 60
    while True:
        workers = [p for p in psutil.Process(server.pid).children() if _serving(p)]
        if len(workers) == count:
            return workers
        assert time.monotonic() < deadline, f"{len(workers)} workers, not {count}"
        time.sleep(0.2)


@pytest.mark.slow  # server processes
def test_workers_share_the_port_and_the_database_and_a_dead_one_is_replaced(
    tmp_path: Path, embedder: BundledEmbedder
) -> None:
    db = tmp_path / "x.db"
    with Memory(settings=Settings(db=str(db)), embedder=embedder) as memory:
        memory.create_profile("alice")
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "somna.interfaces.api",
            "--no-auth",
            "--port",
            str(port),
            "--workers",
            "2",
        ],
        env={**os.environ, "PYTHONPATH": SRC, "SOMNA_DB": str(db)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _answering(url, server)
        first, second = _workers(server, 2)
        with httpx.Client(base_url=url, timeout=30) as client:
            added = client.post("/v1/profiles/alice/facts", json={"text": "Plays the cello."})
            assert added.status_code == 201, added.text
            # Whichever process answers, it reads the same database.
            for _ in range(6):
                with httpx.Client(base_url=url, timeout=30) as fresh:
                    texts = [f["text"] for f in fresh.get("/v1/profiles/alice/facts").json()]
                assert texts == ["Plays the cello."]
        first.kill()
        # SIGKILL lands when the process next runs, and the server reaps it within
        # half a second: until then it is still listed among the children.
        first.wait(timeout=60)
        replaced = _workers(server, 2)
        assert first.pid not in {p.pid for p in replaced} and second in replaced
        assert httpx.get(f"{url}/v1/profiles", timeout=30).status_code == 200
    finally:
        server.send_signal(signal.SIGTERM)
        _, err = server.communicate(timeout=60)
    assert server.returncode == 0, err
    assert "died" in err and "starting another" in err
    assert not _serving(second)  # stopped with the server


def test_workers_need_a_database_every_process_can_open(embedder: BundledEmbedder) -> None:
    refused = invoke(_command(serve), embedder, "--no-auth", "--workers", "2", "--db", ":memory:")
    assert refused.exit_code == 2
    assert refused.output.count("\n") == 1
    assert "--workers needs a database file or PostgreSQL" in refused.output


@pytest.mark.slow  # worker processes
def test_a_worker_that_cannot_start_stops_the_server_with_its_reason(tmp_path: Path) -> None:
    not_a_database = tmp_path / "notes.txt"
    not_a_database.write_text("shopping list: eggs, flour\n")
    said: list[str] = []
    status = serve_workers(
        Settings(db=str(not_a_database)),
        host="127.0.0.1",
        port=_free_port(),
        workers=2,
        auth=True,
        say=said.append,
    )
    assert status == 1
    assert said[0] == "Started 2 worker processes."
    assert said[1].startswith("A worker process exited right after its start")
