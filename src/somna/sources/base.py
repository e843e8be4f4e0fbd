"""What every reader of chat history produces: conversations, ready for `Memory.add_messages`."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from somna.model import Role

__all__ = ["Conversation", "Turn"]


@dataclass(frozen=True)
class Turn:
    role: Role
    content: str
    at: datetime
    meta: dict[str, Any] = field(default_factory=dict)

    def as_message(self) -> dict[str, Any]:
        return {"role": self.role, "content": self.content, "at": self.at, "meta": self.meta}


@dataclass(frozen=True)
class Conversation:
    """One session of one profile, as a source saw it."""

    profile: str
    session_key: str
    turns: list[Turn]
    profile_name: str | None = None
    profile_settings: dict[str, Any] = field(default_factory=dict)
