"""`somna keys …`, `somna serve` and `somna mcp`, as a user types them."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import typer
from typer.testing import CliRunner, Result

import somna
from somna.config import Settings
from somna.embed import BundledEmbedder
from somna.interfaces.cli.keys import keys
from somna.interfaces.cli.options import CliState
from somna.interfaces.cli.serve import mcp, serve
from somna.memory import Memory

SRC = str(Path(somna.__file__).resolve().parent.parent)


@pytest.fixture
def db(tmp_path: Path, embedder: BundledEmbedder) -> Path:
    path = tmp_path / "x.db"
    with Memory(settings=Settings(db=str(path)), embedder=embedder) as memory:
        memory.create_profile("alice")
    return path


def invoke(app: typer.Typer, embedder: BundledEmbedder, *args: str) -> Result:
    state = CliState(memory_factory=lambda s: Memory(settings=s, embedder=embedder))
    return CliRunner().invoke(app, list(args), obj=state, env={"COLUMNS": "200"})


def _command(function: Callable[..., None]) -> typer.Typer:
    app = typer.Typer()
    app.command()(function)
    return app


def test_keys_create_prints_the_secret_once_and_says_so(
    db: Path, embedder: BundledEmbedder
) -> None:
    made = invoke(keys, embedder, "create", "--profile", "alice", "--name", "n8n", "--db", str(db))
    assert made.exit_code == 0, made.output
    lines = made.output.splitlines()
    assert lines[0].startswith("Created key key_") and lines[0].endswith(" for alice.")
    secret = lines[1].strip()
    assert secret.startswith("somna_")
    assert "shown only this once" in made.output
    with Memory(settings=Settings(db=str(db)), embedder=embedder) as memory:
        key = memory.keys.authenticate(secret)
    assert (key.name, key.profiles, key.admin) == ("n8n", ["alice"], False)


def test_keys_list_and_revoke(db: Path, embedder: BundledEmbedder) -> None:
    made = invoke(keys, embedder, "create", "--admin", "--json", "--db", str(db))
    created = json.loads(made.output)
    assert created["key"]["admin"] is True and "secret_hash" not in created["key"]
    listed = json.loads(invoke(keys, embedder, "list", "--json", "--db", str(db)).output)
    assert [k["id"] for k in listed] == [created["key"]["id"]]
    assert "secret_hash" not in listed[0] and "secret" not in listed[0]
    table = invoke(keys, embedder, "list", "--db", str(db)).output
    assert created["key"]["id"] in table and "* (admin)" in table
    revoked = invoke(keys, embedder, "revoke", created["key"]["id"], "--db", str(db))
    assert revoked.output == f"Revoked key {created['key']['id']}.\n"
    listed = json.loads(invoke(keys, embedder, "list", "--json", "--db", str(db)).output)
    assert listed[0]["revoked_at"] is not None


def test_a_prefix_key_from_the_command_line(db: Path, embedder: BundledEmbedder) -> None:
    made = invoke(keys, embedder, "create", "--prefix", "shop-", "--json", "--db", str(db))
    created = json.loads(made.output)
    assert (created["key"]["prefix"], created["key"]["profiles"]) == ("shop-", [])
    table = invoke(keys, embedder, "list", "--db", str(db)).output
    assert "shop-*" in table
    said = invoke(keys, embedder, "create", "--prefix", "shop-", "--db", str(db)).output
    assert said.startswith("Created key key_") and " for shop-*." in said
    bad = invoke(keys, embedder, "create", "--prefix", "shop one", "--db", str(db))
    assert bad.exit_code == 2 and "'shop one' is not a profile prefix" in bad.output


def test_keys_refuse_what_makes_no_sense(db: Path, embedder: BundledEmbedder) -> None:
    nowhere = invoke(keys, embedder, "create", "--db", str(db))
    assert nowhere.exit_code == 2
    assert "at least one profile or a profile prefix, or be an admin key" in nowhere.output
    ghost = invoke(keys, embedder, "create", "--profile", "ghost", "--db", str(db))
    assert ghost.exit_code == 2 and "no profile named 'ghost'" in ghost.output
    unknown = invoke(keys, embedder, "revoke", "key_nope", "--db", str(db))
    assert unknown.exit_code == 2 and "key_nope" in unknown.output


def test_serve_without_keys_refuses_a_public_host(embedder: BundledEmbedder) -> None:
    refused = invoke(_command(serve), embedder, "--no-auth", "--host", "0.0.0.0")
    assert refused.exit_code == 2
    assert "listens only on 127.0.0.1, localhost or ::1" in refused.output


def test_mcp_needs_a_profile(embedder: BundledEmbedder) -> None:
    missing = invoke(_command(mcp), embedder)
    assert missing.exit_code == 2 and "--profile" in missing.output


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@contextmanager
def _serving(db: Path, *options: str) -> Iterator[tuple[int, dict[str, str]]]:
    """`somna serve --no-auth` in a subprocess, answering; yields its port, then fills in
    what it printed (`out`, `err`) once stopped with Ctrl-C."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "somna.interfaces.api", "--no-auth", "--port", str(port), *options],
        env={**os.environ, "PYTHONPATH": SRC, "SOMNA_DB": str(db)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    printed: dict[str, str] = {}
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.communicate()
            try:
                httpx.get(f"http://127.0.0.1:{port}/v1/health", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        yield port, printed
    finally:
        server.send_signal(signal.SIGINT)
        printed["out"], printed["err"] = server.communicate(timeout=30)
        printed["status"] = str(server.returncode)


@pytest.mark.slow  # a server in a subprocess
def test_serve_without_keys_warns_and_answers_on_localhost(db: Path) -> None:
    with _serving(db) as (port, printed):
        health = httpx.get(f"http://127.0.0.1:{port}/v1/health", timeout=10)
        assert health.json() == {"status": "ok", "version": somna.__version__, "auth": False}
        profiles = httpx.get(f"http://127.0.0.1:{port}/v1/profiles", timeout=10).json()
        assert [p["id"] for p in profiles] == ["alice"]
    assert "WARNING: AUTHENTICATION IS OFF" in printed["err"]
    assert (
        f"Somna at http://127.0.0.1:{port}: the dashboard at /ui, the REST API at /v1"
        in (printed["out"])
    )
    assert printed["status"] == "0"


@pytest.mark.slow  # servers in subprocesses
def test_the_access_log_has_a_line_per_request_unless_turned_off(db: Path) -> None:
    for options, logged in (((), True), (("--no-access-log",), False)):
        with _serving(db, *options) as (port, printed):
            httpx.get(f"http://127.0.0.1:{port}/v1/profiles", timeout=10).raise_for_status()
        assert ('"GET /v1/profiles HTTP/1.1" 200' in printed["out"]) is logged, printed["out"]
        assert "Application startup complete" in printed["err"]  # the rest is still logged
