"""`/v1/profiles/{profile}/sessions/{key}/messages`: the short thread of one conversation."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from somna.interfaces.api.deps import MemoryDep, ReachableProfile
from somna.interfaces.api.dto import MessageOut, MessagesIn, SessionOut
from somna.interfaces.api.routes import errors

__all__ = ["router"]

router = APIRouter(prefix="/v1/profiles/{profile}/sessions", tags=["sessions"])

SessionKey = Annotated[
    str,
    Path(
        min_length=1,
        max_length=256,
        description="Your conversation's key (n8n's Session Key); the session opens on first use.",
    ),
]


@router.post("/{session_key}/messages", response_model=SessionOut, responses=errors())
def add_messages(
    profile: ReachableProfile, session_key: SessionKey, body: MessagesIn, memory: MemoryDep
) -> SessionOut:
    """Append turns to the conversation, opening it if needed; the nightly job turns
    quiet conversations into facts."""
    messages = [m.model_dump(exclude_none=True) for m in body.messages]
    return SessionOut.model_validate(memory.add_messages(profile, session_key, messages))


@router.get("/{session_key}/messages", response_model=list[MessageOut], responses=errors())
def window(
    profile: ReachableProfile,
    session_key: SessionKey,
    memory: MemoryDep,
    n: Annotated[int, Query(ge=1, le=1000, description="How many of the last turns.")] = 15,
) -> list[MessageOut]:
    """The last `n` messages of the conversation, oldest first (empty for an unknown key)."""
    return [MessageOut.model_validate(m) for m in memory.window(profile, session_key, n)]
