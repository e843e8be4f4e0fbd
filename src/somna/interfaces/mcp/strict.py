"""Tools that refuse arguments they do not take.

By default an MCP server drops unknown arguments silently, so an agent that
passes `profile` to a tool whose profile is fixed (or misspells `k`) believes it
was heeded. Each tool's argument model is made strict instead: an unknown
argument is an error that names it and lists the arguments the tool takes, and
the published schema says `additionalProperties: false`.
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer
from pydantic import ConfigDict, model_validator

__all__ = ["refuse_unknown_arguments"]


def refuse_unknown_arguments(server: MCPServer[Any], name: str) -> None:
    """Make the tool `name` of `server` refuse any argument it does not take."""
    tool = server._tool_manager.get_tool(name)
    if tool is None:
        raise LookupError(f"The MCP server has no tool named {name!r}.")
    loose = tool.fn_metadata.arg_model
    known = sorted(loose.model_fields)

    class Strict(loose):  # type: ignore[misc,valid-type]
        model_config = ConfigDict(
            **{**loose.model_config, "extra": "forbid", "hide_input_in_errors": True}
        )

        @model_validator(mode="before")
        @classmethod
        def _refuse_unknown(cls, data: Any) -> Any:
            unknown = sorted(set(data) - set(known)) if isinstance(data, dict) else []
            if unknown:
                takes = ", ".join(known) if known else "no argument"
                raise ValueError(
                    f"The tool {name} does not take {', '.join(map(repr, unknown))}; "
                    f"it takes: {takes}"
                )
            return data

    Strict.__name__ = loose.__name__
    tool.fn_metadata.arg_model = Strict
    tool.parameters = {**tool.parameters, "additionalProperties": False}
