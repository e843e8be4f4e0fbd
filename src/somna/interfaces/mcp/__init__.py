"""The MCP server of Somna: memory tools for Claude and other MCP clients.

    create_mcp_server(memory, profile="alice")   tools of one profile (stdio)
    create_mcp_server(memory, auth=True)         tools taking `profile` (HTTP, at /mcp)
    run_stdio(memory, "alice")                   serve on stdin/stdout (`somna mcp`)

The HTTP endpoint itself is `somna.interfaces.api.mcp`, mounted by `create_app`.
"""

from somna.interfaces.mcp.access import current_key
from somna.interfaces.mcp.server import TOOLS, create_mcp_server, run_stdio

__all__ = ["TOOLS", "create_mcp_server", "current_key", "run_stdio"]
