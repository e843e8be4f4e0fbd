"""SQL pieces the SQLite store and its scopes share."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

from somna.errors import StoreError
from somna.store.sql import Json, Params
from somna.store.sqlite.rows import ts

__all__ = [
    "bind",
    "fts_match",
    "fts_query",
    "fts_words",
    "parse_ts",
    "placeholders",
    "statements",
]

_WORD = re.compile(r"\w+", re.UNICODE)


def bind(params: Params) -> dict[str, Any]:
    """Named parameters as SQLite stores them: timestamps as `ts` text, `Json` as text."""
    return {name: _stored(value) for name, value in params.items()}


def _stored(value: object) -> object:
    if isinstance(value, datetime):
        return ts(value)
    if isinstance(value, Json):
        return None if value.value is None else json.dumps(value.value)
    return value


def placeholders(values: Sequence[object]) -> str:
    return ", ".join("?" for _ in values)


def fts_words(text: str) -> list[str]:
    """The distinct words of `text`, case-folded, in order."""
    return list(dict.fromkeys(word.casefold() for word in _WORD.findall(text)))


def fts_match(words: Sequence[str]) -> str:
    """Words as an FTS5 query that matches any of them; never an FTS syntax error."""
    return " OR ".join(f'"{word}"' for word in words)


def fts_query(text: str) -> str:
    """A user's words as an FTS5 query that matches any of them."""
    return fts_match(fts_words(text))


def parse_ts(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def statements(script: str) -> Iterator[str]:
    """Split a script into complete statements (triggers keep their inner semicolons)."""
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            if pending.strip():
                yield pending
            pending = ""
    if pending.strip() and not all(
        line.strip().startswith("--") or not line.strip() for line in pending.splitlines()
    ):
        raise StoreError(f"A migration ends with an incomplete statement: {pending.strip()!r}")
