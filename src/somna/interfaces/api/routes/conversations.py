"""A profile's conversations: `/sessions` across devices (list, resume, merge), the thread of
one, and `/metrics`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from somna.interfaces.api.conversation_dto import (
    MergeIn,
    ResumeOut,
    SessionInfoOut,
    ThreadOut,
)
from somna.interfaces.api.deps import MemoryDep, ReachableProfile
from somna.interfaces.api.dto import MessageOut
from somna.interfaces.api.routes import errors
from somna.memory.metrics import ProfileMetrics
from somna.memory.thread import Thread
from somna.model import SessionStatus

__all__ = ["router"]

router = APIRouter(prefix="/v1/profiles/{profile}", tags=["sessions"])


def _thread(thread: Thread) -> ThreadOut:
    return ThreadOut(
        session_id=None if thread.session is None else thread.session.id,
        summary=thread.summary,
        summarised_by=thread.summarised_by,
        folded=thread.folded,
        turns=[MessageOut.model_validate(m) for m in thread.turns],
        text=thread.text,
        tokens=thread.tokens,
    )


@router.get("/sessions", response_model=list[SessionInfoOut], responses=errors())
def list_sessions(
    profile: ReachableProfile,
    memory: MemoryDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 20,
    status: Annotated[SessionStatus | None, Query(description="Only this state.")] = None,
    device: Annotated[
        str | None, Query(max_length=128, description="Only sessions last used on it.")
    ] = None,
) -> list[SessionInfoOut]:
    """The profile's conversations, the latest message first, with device, status and summary."""
    found = memory.list_sessions(profile, limit=limit, status=status, device=device)
    return [SessionInfoOut.of(info) for info in found]


@router.get("/sessions/resume", response_model=ResumeOut, responses=errors())
def resume(profile: ReachableProfile, memory: MemoryDep) -> ResumeOut:
    """The open session with the latest message and its thread, to go on from another device
    (404 when every conversation is consolidated)."""
    info = memory.resume(profile)
    thread = memory.thread(profile, info.session.key)
    return ResumeOut(**SessionInfoOut.of(info).model_dump(), thread=_thread(thread))


@router.post("/sessions/merge", response_model=SessionInfoOut, responses=errors(409))
def merge(profile: ReachableProfile, body: MergeIn, memory: MemoryDep) -> SessionInfoOut:
    """Join session `other` into `into`, turns interleaved by time; 409 if either was
    already consolidated."""
    return SessionInfoOut.of(memory.merge_sessions(profile, body.into, body.other))


@router.get("/sessions/{session_key}/thread", response_model=ThreadOut, responses=errors())
def thread(
    profile: ReachableProfile,
    session_key: Annotated[str, Path(min_length=1, max_length=256)],
    memory: MemoryDep,
    budget: Annotated[int | None, Query(ge=50, le=100_000, description="Token budget.")] = None,
    keep: Annotated[int | None, Query(ge=1, le=1000, description="Last turns kept.")] = None,
) -> ThreadOut:
    """The live conversation within a budget: a running summary of the older turns, then the
    last ones word for word (the older turns stay for the nightly job)."""
    found = memory.thread(profile, session_key, budget_tokens=budget, keep_turns=keep)
    return _thread(found)


@router.get("/metrics", response_model=ProfileMetrics, responses=errors())
def metrics(
    profile: ReachableProfile,
    memory: MemoryDep,
    limit: Annotated[int, Query(ge=1, le=1000, description="The latest sessions.")] = 50,
    session: Annotated[str | None, Query(max_length=256, description="One session key.")] = None,
) -> ProfileMetrics:
    """Conversation metrics per session and for the profile: turns, lengths, time to close,
    clarification questions, topic shifts, recalled facts used (as reported)."""
    return memory.metrics(profile, limit=limit, session_key=session)
