"""Read a session: what of it may become facts, as the extraction model reads it.

Facts come from what people said, not from the traffic of an agent's tools.

An agent with tools leaves, per turn, a tool call ("Calling search_my_memory
with input: {...}", or an assistant message whose meta says `tool_call`) and a
`tool` message with the tool's whole output, often Somna's own recall. Both
stay in the session for provenance, but neither is sent to the extraction
model nor accepted as a quote: memory must not feed on its own recall, nor
on a search result's text about somebody else. `transcript_of` is what is left,
as the extraction call is sent it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from somna.llm.tasks import SessionTranscript, TranscriptMessage
from somna.model import Message, Profile, Role, Session

__all__ = ["is_tool_traffic", "spoken", "transcript_of"]

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


def transcript_of(
    profile: Profile, session: Session, messages: Sequence[Message]
) -> SessionTranscript:
    """The session as the extraction call is sent it: `messages` (what was said), each with
    its place in the session, so the quotes it returns can be found again."""
    return SessionTranscript(
        session_key=session.key,
        date=session.started_at.date().isoformat(),
        user=str(profile.settings.get("user_name") or "user"),
        messages=[
            TranscriptMessage(
                index=m.seq,
                role=m.role,
                speaker=m.meta.get("speaker"),
                content=m.content,
                at=m.created_at.isoformat(),
            )
            for m in messages
        ],
    )
