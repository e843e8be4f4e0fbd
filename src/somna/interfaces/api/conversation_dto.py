"""The wire shapes of the conversation side: sessions across devices, threads, metrics, and the
n8n import. Kept beside `dto.py`, on the same request and response bases (`wire`)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import Field

from somna.interfaces.api.response_dto import MessageOut
from somna.interfaces.api.wire import RequestBody, ResponseBody
from somna.memory.sessions import SessionInfo
from somna.model import SessionStatus

__all__ = [
    "MergeIn",
    "N8nImportIn",
    "N8nImportOut",
    "ResumeOut",
    "SessionInfoOut",
    "ThreadOut",
]


class SessionInfoOut(ResponseBody):
    id: str
    key: str
    status: SessionStatus = Field(
        description="open; closed once quiet for idle_hours; archived once consolidated."
    )
    device: str | None = Field(description="The device of the latest message that named one.")
    started_at: datetime
    last_message_at: datetime
    consolidated_at: datetime | None
    messages: int
    last_message: str | None = Field(description="The start of the latest message.")
    summary: str | None = Field(
        description="The nightly summary once consolidated, else the running summary."
    )

    @classmethod
    def of(cls, info: SessionInfo) -> SessionInfoOut:
        session = info.session
        return cls(
            id=session.id,
            key=session.key,
            status=info.status,
            device=info.device,
            started_at=session.started_at,
            last_message_at=session.last_message_at,
            consolidated_at=session.consolidated_at,
            messages=info.messages,
            last_message=info.last_message,
            summary=info.summary,
        )


class ThreadOut(ResponseBody):
    session_id: str | None
    summary: str | None = Field(description="The older turns, told (None when all fit).")
    summarised_by: str | None = Field(description="model, extractive or saved.")
    folded: int = Field(description="How many older turns the summary tells.")
    turns: list[MessageOut]
    text: str = Field(description='The block for a prompt: "Earlier in this conversation: …".')
    tokens: int


class ResumeOut(SessionInfoOut):
    thread: ThreadOut


class MergeIn(RequestBody):
    into: str = Field(min_length=1, max_length=256, description="The session key that stays.")
    other: str = Field(min_length=1, max_length=256, description="The session key merged in.")


class N8nImportIn(RequestBody):
    dsn: str | None = Field(
        default=None,
        max_length=2000,
        description="The Postgres database of the chat table; default: the server's "
        "SOMNA_N8N_DSN, so n8n need not send a password.",
    )
    table: str = Field(default="n8n_chat_histories", max_length=200)
    profile_from: str = Field(
        default="session",
        max_length=200,
        description="session, session:full or fixed:NAME (as `somna ingest n8n`).",
    )
    node_names: list[Annotated[str, Field(min_length=1, max_length=200)]] = Field(
        default_factory=list,
        max_length=20,
        description="With profile_from session: the chat memory nodes whose name suffix is "
        "dropped from each session id, '*' for any part (as --node-name); none: any suffix.",
    )
    idle_hours: float | None = Field(default=None, ge=0, le=87_600)
    source: str | None = Field(default=None, max_length=200)
    purge_source: bool = False


class N8nImportOut(ResponseBody):
    source: str
    rows: int
    messages: int
    kinds: dict[str, int]
    sessions: int
    new_sessions: int
    profiles: int
    skipped: dict[str, int]
    skipped_rows: int
    purged_sessions: int
    purged_rows: int
