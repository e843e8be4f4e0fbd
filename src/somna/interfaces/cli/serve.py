"""`somna serve` (the HTTP server: REST and MCP) and `somna mcp` (the MCP server over stdio)."""

from __future__ import annotations

import errno
import socket
from typing import Annotated

import typer

from somna.interfaces.cli import render
from somna.interfaces.cli.options import DbOption, load_memory, reported

__all__ = ["DEFAULT_PORT", "mcp", "serve"]

DEFAULT_PORT = 8420
_LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def serve(
    ctx: typer.Context,
    host: Annotated[
        str, typer.Option(help="The address to listen on; 0.0.0.0 for every interface.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="The TCP port.")] = DEFAULT_PORT,
    no_auth: Annotated[
        bool,
        typer.Option(
            "--no-auth",
            help="Serve without API keys: every profile open to any local program. "
            "Only on 127.0.0.1, localhost or ::1.",
        ),
    ] = False,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            max=64,
            help="Server processes sharing the port, one per core to use; each loads its "
            "own embedding model and caches.",
        ),
    ] = 1,
    access_log: Annotated[
        bool,
        typer.Option(
            help="Log one line per request on stdout; turn it off behind a proxy that "
            "logs requests itself (it costs a tenth of a recall's server time).",
        ),
    ] = True,
    db: DbOption = None,
) -> None:
    """Serve the REST API (/v1, docs at /docs) and the MCP tools (/mcp) over HTTP.

    Every request needs an API key (`somna keys create`), sent as
    `Authorization: Bearer <key>` or `X-API-Key: <key>`; a key reaches only its
    profiles. --no-auth drops keys for local experiments and refuses any host
    other than the loopback. One process answers on one core; --workers N
    starts N processes on the same port and database. Stop it with Ctrl-C.

    Example:

        somna keys create --profile alice --name n8n
        somna serve --host 0.0.0.0 --port 8420 --workers 4
        somna serve --no-auth
        somna serve --workers 2 --no-access-log
    """
    if no_auth and host not in _LOCAL_HOSTS:
        typer.echo(
            f"Error: --no-auth serves every profile without a key, so it listens only on "
            f"127.0.0.1, localhost or ::1, not on {host!r}. Create a key with "
            "`somna keys create` and drop --no-auth to serve on the network.",
            err=True,
        )
        raise typer.Exit(2)
    _check_port(host, port)
    import uvicorn

    from somna.interfaces.api import create_app
    from somna.interfaces.api.workers import serve_workers

    with reported():
        memory = load_memory(ctx, db)
    if workers > 1 and memory.settings.db == ":memory:":
        memory.close()
        typer.echo(
            "Error: --workers needs a database file or PostgreSQL: each process would "
            "have its own empty in-memory database. Set --db or SOMNA_DB.",
            err=True,
        )
        raise typer.Exit(2)
    try:
        with reported():
            if not no_auth and not any(k.revoked_at is None for k in memory.keys.all()):
                typer.echo(
                    "Note: no API key exists yet, so every request will be refused; create "
                    "one with: somna keys create --admin",
                    err=True,
                )
        if no_auth:
            typer.echo(
                "WARNING: AUTHENTICATION IS OFF: any program on this machine can read, change "
                "and erase every profile.",
                err=True,
            )
        shown = f"[{host}]" if ":" in host else host
        render.say(
            f"Somna at http://{shown}:{port}: the dashboard at /ui, the REST API at /v1 "
            "(docs /docs), MCP at /mcp; Ctrl-C stops it."
        )
        if workers == 1:
            app = create_app(memory, auth=not no_auth)
            uvicorn.run(
                app, host=host, port=port, ws="none", log_level="info", access_log=access_log
            )
            return
    finally:
        memory.close()
    status = serve_workers(
        memory.settings,
        host=host,
        port=port,
        workers=workers,
        auth=not no_auth,
        access_log=access_log,
    )
    raise typer.Exit(status)


def _check_port(host: str, port: int) -> None:
    """Fails in one line, before any banner, when the address cannot be listened on."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
            probe.bind(address)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            message = (
                f"Port {port} on {host} is already in use; stop what listens there or pick "
                f"another port, e.g. somna serve --port {port + 1 if port < 65535 else 8421}."
            )
        else:
            message = f"Cannot listen on {host} port {port}: {exc.strerror or exc}."
        typer.echo(f"Error: {message}", err=True)
        raise typer.Exit(2) from None


def mcp(
    ctx: typer.Context,
    profile: Annotated[
        str,
        typer.Option(
            "--profile",
            metavar="PROFILE",
            help="The profile whose memory the tools use; the client cannot choose another.",
        ),
    ],
    db: DbOption = None,
) -> None:
    """Serve the MCP tools of one profile over stdio, for Claude Code, Claude Desktop
    and other MCP clients.

    The client starts this command and talks JSON-RPC on its stdin and stdout;
    nothing else is printed there. The profile must exist.

    Example:

        somna mcp --profile alice --db ~/.local/share/somna/memory.db
        claude mcp add somna -- somna mcp --profile alice
    """
    from somna.interfaces.mcp import run_stdio

    with reported():
        memory = load_memory(ctx, db)
    try:
        with reported():
            memory.get_profile(profile)
        run_stdio(memory, profile)
    finally:
        memory.close()
