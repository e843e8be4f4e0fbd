"""Readers of existing chat histories: JSON Lines and LoCoMo files."""

from somna.sources.base import Conversation, Turn
from somna.sources.jsonl import read_jsonl
from somna.sources.locomo import parse_locomo_date, read_locomo

__all__ = ["Conversation", "Turn", "parse_locomo_date", "read_jsonl", "read_locomo"]
