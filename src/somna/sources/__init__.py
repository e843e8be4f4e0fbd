"""Readers of existing chat histories: JSON Lines and LoCoMo files, and n8n / LangChain tables."""

from somna.sources.base import Conversation, Turn
from somna.sources.jsonl import read_jsonl
from somna.sources.locomo import parse_locomo_date, read_locomo
from somna.sources.n8n import (
    DEFAULT_TABLE,
    N8nImport,
    N8nReport,
    N8nTable,
    ProfileFrom,
    SourceRow,
    read_chat_message,
    session_key,
)

__all__ = [
    "DEFAULT_TABLE",
    "Conversation",
    "N8nImport",
    "N8nReport",
    "N8nTable",
    "ProfileFrom",
    "SourceRow",
    "Turn",
    "parse_locomo_date",
    "read_chat_message",
    "read_jsonl",
    "read_locomo",
    "session_key",
]
