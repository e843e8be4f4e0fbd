"""What of a session may become facts: what people said, not the traffic of an agent's tools.

An agent with tools leaves, per turn, a tool call ("Calling search_my_memory
with input: {...}", or an assistant message whose meta says `tool_call`) and a
`tool` message with the tool's whole output, often Somna's own recall. Both
stay in the session for provenance, but neither is sent to the extraction
model nor accepted as a quote: memory must not feed on its own recall, nor
on a search result's text about somebody else.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from somna.model import Message, Role

__all__ = ["is_tool_traffic", "spoken"]

_TOOL_CALL = re.compile(r"^Calling [^\s]+ with input: ", re.ASCII)
"""How n8n's and LangChain's agents write a tool call into chat memory as an assistant row."""


def is_tool_traffic(message: Message) -> bool:
    """Whether a message is a tool's output or an assistant's call of a tool."""
    if message.role is Role.TOOL:
        return True
    if message.role is not Role.ASSISTANT:
        return False
    return bool(message.meta.get("tool_call")) or _TOOL_CALL.match(message.content) is not None


def spoken(messages: Sequence[Message]) -> list[Message]:
    """The messages facts may come from: everything but tool traffic, in order."""
    return [m for m in messages if not is_tool_traffic(m)]
