"""Tools that refuse arguments they do not take, and say so to a model.

By default an MCP server drops unknown arguments silently, so an agent that
passes `profile` to a tool whose profile is fixed (or misspells `k`) believes it
was heeded. Each tool's argument model is made strict instead: an unknown
argument is an error that names it and lists the arguments the tool takes, and
the published schema says `additionalProperties: false`.

A model reads the input schema and the errors, not Python: each argument gets the
description its tool's docstring gives it (`Args:`), and an argument refused by
validation is answered with one sentence naming it and what it accepts (`k=0`:
"The argument k of recall must be an integer from 1 to 100, not 0."), not
pydantic's report.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, InputRequiredResult
from pydantic import ConfigDict, ValidationError, model_validator

__all__ = ["ToolServer", "argument_problem", "describe_arguments", "refuse_unknown_arguments"]

_ARG = re.compile(r"^ {4}(\w+): (.*(?:\n {8}.*)*)", re.MULTILINE)
"""One argument of a Google-style `Args:` section: its name, then its (folded) lines."""
_KINDS = {
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "string": "a string",
    "array": "a list",
    "object": "an object",
}


class ToolServer(MCPServer[Any]):
    """The MCP server whose tools' refused arguments are answered in one sentence."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            tool = self._tool_manager.get_tool(name)
            if not isinstance(cause, ValidationError) or tool is None:
                raise
            raise ToolError(argument_problem(name, tool.parameters, cause)) from cause


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


def describe_arguments(server: MCPServer[Any], name: str, doc: str | None) -> None:
    """Give each argument of the tool `name` the description its docstring's `Args:` has."""
    tool = server._tool_manager.get_tool(name)
    if tool is None:
        raise LookupError(f"The MCP server has no tool named {name!r}.")
    found = _ARG.findall(inspect.cleandoc(doc or ""))
    said = {arg: " ".join(text.split()) for arg, text in found}
    properties = tool.parameters.get("properties", {})
    for arg, schema in properties.items():
        if arg in said:
            schema["description"] = said[arg]


def argument_problem(tool: str, schema: dict[str, Any], error: ValidationError) -> str:
    """One sentence for the first argument refused: its name, what it accepts, what came."""
    first = error.errors()[0]
    if not first["loc"]:  # about the arguments as a whole: our own sentence
        return str(first["msg"]).removeprefix("Value error, ").rstrip(".") + "."
    arg = str(first["loc"][0])
    if first["type"] == "missing":
        return f"The tool {tool} needs the argument {arg}."
    accepted = _accepted(schema.get("properties", {}).get(arg, {}))
    given = first.get("input")
    shown = "nothing" if given is None else repr(given)
    return f"The argument {arg} of {tool} must be {accepted}, not {shown}."


def _accepted(schema: dict[str, Any]) -> str:
    """What a JSON schema accepts, in words: 'an integer from 1 to 100', "one of 'a', 'b'"."""
    options = [s for s in schema.get("anyOf", [schema]) if s.get("type") != "null"]
    part = options[0] if options else schema
    if "enum" in part:
        return "one of " + ", ".join(repr(v) for v in part["enum"])
    if part.get("type") == "array" and "enum" in part.get("items", {}):
        return "a list of " + ", ".join(repr(v) for v in part["items"]["enum"])
    if part.get("format") == "date-time":
        return "an ISO 8601 date or time, e.g. 2024-05-01 or 2024-05-01T09:30:00Z"
    kind = _KINDS.get(str(part.get("type")), "a valid value")
    low, high = part.get("minimum"), part.get("maximum")
    if "minLength" in part or "maxLength" in part:
        low, high, kind = part.get("minLength"), part.get("maxLength"), f"{kind} of length"
    if low is not None and high is not None:
        return f"{kind} from {low} to {high}"
    if low is not None:
        return f"{kind} of at least {low}"
    if high is not None:
        return f"{kind} of at most {high}"
    return kind
