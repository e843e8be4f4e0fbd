"""The MCP tools of Somna, over one `Memory`, for stdio or for the HTTP server.

`create_mcp_server(memory, profile="alice")` makes the stdio server of one
profile: no tool takes a `profile` argument, the command line fixed it.
`create_mcp_server(memory, auth=True)` makes the one the HTTP server mounts
at `/mcp`: every tool takes `profile`, checked against the API key of the
HTTP request (see `somna.interfaces.mcp.access`); a profile the key cannot
reach fails exactly like a missing one.

A `SomnaError` becomes a tool error (`isError: true`) whose text is the
error's message, for the model to read and correct. Results are JSON objects,
sent as structured content and as the same JSON, compact, in a text block.
The tools themselves live by kind (`fact_tools`, `finding_tools`,
`conversation`); this module gives them their profile check and registers them.
"""

from __future__ import annotations

from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer

import somna
from somna.errors import AuthenticationError, ProfileNotFoundError
from somna.interfaces.mcp.access import current_key, pinned_profile
from somna.interfaces.mcp.conversation import CONVERSATION_TOOLS, conversation_tools
from somna.interfaces.mcp.fact_tools import fact_tools
from somna.interfaces.mcp.finding_tools import finding_tools
from somna.interfaces.mcp.shapes import (
    CONFLICT_STATUSES,
    FACT_STATUSES,
    FACT_TYPES,
    RESOLUTIONS,
    VERDICTS,
    Tools,
)
from somna.interfaces.mcp.strict import ToolServer, describe_arguments, refuse_unknown_arguments
from somna.interfaces.mcp.tooling import answered, description_of, reported, with_profile
from somna.memory import Memory
from somna.memory.approval import actor_of

__all__ = [
    "CONFLICT_STATUSES",
    "FACT_STATUSES",
    "FACT_TYPES",
    "RESOLUTIONS",
    "TOOLS",
    "VERDICTS",
    "create_mcp_server",
    "run_stdio",
]

TOOLS = (
    "fact_add",
    "fact_resolve",
    "fact_search",
    "fact_get",
    "fact_list",
    "fact_update",
    "fact_delete",
    "list_conflicts",
    "resolve_conflict",
    "recall",
    "remember",
    *CONVERSATION_TOOLS,
)
"""Every tool, in the order a client lists them."""

INSTRUCTIONS = """\
Somna is the user's long-term memory. Before answering, `recall` what you may
know about the topic. When the user tells you something durable about
themselves, store it with `fact_add` (or `remember` when they ask you to), then
judge any similar facts it returns with `fact_resolve`. Facts are single,
self-contained sentences. Conflicts between facts wait for the user: show them
with `list_conflicts` and settle them with `resolve_conflict` when the user says
which is true."""


def create_mcp_server(
    memory: Memory, *, profile: str | None = None, auth: bool = False
) -> MCPServer[Any]:
    """The MCP server of Somna's tools over `memory`.

    With `profile`, every tool works in that profile and takes no `profile`
    argument (stdio). Without it, tools take `profile`; with `auth`, the API key
    of the current HTTP request (`current_key`) must reach it.
    """

    def reach(name: str) -> str:
        if not auth:
            return name
        key = current_key.get()
        if key is None:
            raise AuthenticationError("This MCP endpoint needs an API key.")
        pinned = pinned_profile.get()
        if not key.can_reach(name) or (pinned is not None and name != pinned):
            raise ProfileNotFoundError(name)
        memory.keys.open_profile(key, name)
        return name

    def actor() -> str:
        return actor_of("mcp", current_key.get())

    server = ToolServer(
        "somna",
        title="Somna memory",
        instructions=INSTRUCTIONS,
        version=somna.__version__,
        log_level="WARNING",
    )
    functions: Tools = {
        **fact_tools(memory, reach, actor),
        **finding_tools(memory, reach, actor),
        **conversation_tools(memory, reach),
    }
    for name in TOOLS:
        fn = reported(functions[name])
        tool = answered(fn)
        server.add_tool(
            tool if profile is None else with_profile(tool, profile),
            name=name,
            description=description_of(fn, fixed_profile=profile is not None),
        )
        refuse_unknown_arguments(server, name)
        describe_arguments(server, name, fn.__doc__)
    return server


def run_stdio(memory: Memory, profile: str) -> None:
    """Serve the tools of `profile` on stdin/stdout until the client closes them."""
    server = create_mcp_server(memory, profile=profile)
    anyio.run(server.run_stdio_async)
