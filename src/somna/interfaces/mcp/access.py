"""The API key of the MCP call being served over HTTP, for the tools to check.

The HTTP gate (`somna.interfaces.api.mcp.McpGate`) authenticates each request
and sets `current_key` around it; the SDK runs the tool call with the
contextvars of the request that carried it, so a tool reads the key of its own
request, never another's. Over stdio nothing sets it: the command line fixed
the profile.
"""

from __future__ import annotations

from contextvars import ContextVar

from somna.model import ApiKey

__all__ = ["current_key", "pinned_profile"]

current_key: ContextVar[ApiKey | None] = ContextVar("somna_mcp_key", default=None)
pinned_profile: ContextVar[str | None] = ContextVar("somna_mcp_profile", default=None)
"""The one profile of `/mcp?profile=NAME`: a workflow serving many users pins each
request to its user, so a tool call naming another profile fails as if it did not exist."""
