"""How a tool function becomes an MCP tool: its errors, its answer, its description, and
its `profile` argument fixed for a stdio server of one profile."""

from __future__ import annotations

import functools
import inspect
import json
import re
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent

from somna.errors import SomnaError

__all__ = ["answered", "description_of", "reported", "with_profile"]

_P = ParamSpec("_P")
_R = TypeVar("_R")
_PROFILE_ARG = re.compile(r"^ {4}profile: .*\n(?: {8}.*\n)*", re.MULTILINE)


def reported(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Turn a `SomnaError` raised by a tool into the SDK's tool error, with its message."""

    @functools.wraps(fn)
    def tool(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return fn(*args, **kwargs)
        except SomnaError as error:
            raise ToolError(" ".join(str(error).split())) from error

    return tool


def answered(fn: Callable[_P, dict[str, Any]]) -> Callable[_P, CallToolResult]:
    """The tool's JSON answer as structured content and, compact, as its text copy.

    Left to the SDK, a returned dict is serialised twice and its text copy
    indented: whitespace a model pays for in tokens on every call.
    """

    @functools.wraps(fn)
    def tool(*args: _P.args, **kwargs: _P.kwargs) -> CallToolResult:
        answer = fn(*args, **kwargs)
        text = json.dumps(answer, ensure_ascii=False, separators=(",", ":"))
        return CallToolResult(
            content=[TextContent(type="text", text=text)], structured_content=answer
        )

    return tool


def description_of(fn: Callable[..., Any], fixed_profile: bool) -> str:
    """The tool's description: its docstring, less the `profile` argument when it is fixed."""
    doc = inspect.getdoc(fn) or ""
    return _PROFILE_ARG.sub("", doc + "\n").strip() if fixed_profile else doc


def with_profile(fn: Callable[..., _R], profile: str) -> Callable[..., _R]:
    """`fn` with its `profile` argument fixed, and gone from its signature."""
    signature = inspect.signature(fn, eval_str=True)

    @functools.wraps(fn)
    def tool(**kwargs: Any) -> _R:
        return fn(profile, **kwargs)

    tool.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[p for p in signature.parameters.values() if p.name != "profile"]
    )
    return tool
