"""LoCoMo conversations (Maharana et al., ACL 2024): two people, many dated sessions.

One profile per conversation; both speakers' turns, each stamped with its
session's date (a second apart, to keep their order) so facts get the right
valid_from; the speaker's name and the turn's `dia_id` kept in the message's
meta so evidence can be traced back to the benchmark's turns.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from somna.errors import InvalidInputError
from somna.model import Role
from somna.sources.base import Conversation, Turn

__all__ = ["parse_locomo_date", "read_locomo"]

_SESSION = re.compile(r"^session_(\d+)$")


def parse_locomo_date(text: str) -> datetime:
    """'1:56 pm on 8 May, 2023' as an aware UTC datetime."""
    try:
        return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
    except ValueError:
        raise InvalidInputError(
            f"{text!r} is not a LoCoMo date like '1:56 pm on 8 May, 2023'."
        ) from None


def read_locomo(path: Path, *, profile: str | None = None) -> list[Conversation]:
    """The sessions of one LoCoMo conversation file, oldest first, as one profile."""
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        speakers = (data["speaker_a"], data["speaker_b"])
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise InvalidInputError(f"{path} is not a LoCoMo conversation file: {exc}.") from exc
    owner = profile or _profile_name(path)
    conversations = []
    numbers = sorted(int(m[1]) for key in data if (m := _SESSION.match(key)))
    for number in numbers:
        turns_data = data[f"session_{number}"]
        if not turns_data:
            continue
        start = parse_locomo_date(data[f"session_{number}_date_time"])
        turns = []
        for offset, turn in enumerate(turns_data):
            content = str(turn.get("text", "")).strip()
            caption = turn.get("blip_caption")
            if caption:
                content = f"{content} [shares a photo: {caption}]".strip()
            if not content:
                continue
            meta = {"speaker": turn["speaker"], "dia_id": turn["dia_id"]}
            turns.append(Turn(Role.USER, content, start + timedelta(seconds=offset), meta))
        conversations.append(
            Conversation(
                owner,
                f"session_{number}",
                turns,
                profile_name=f"{speakers[0]} & {speakers[1]}",
                profile_settings={"speakers": list(speakers)},
            )
        )
    return conversations


def _profile_name(path: Path) -> str:
    """locomo-<file name>: 26.json and locomo-26.json both make locomo-26."""
    slug = _slug(path.stem)
    return slug if slug.lower().startswith("locomo-") else f"locomo-{slug}"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "conversation"
