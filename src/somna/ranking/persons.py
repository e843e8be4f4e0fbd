"""Whether a question points at a person: then it asks about the client, not the world.

An agent asks "When is his fitting?" or "Elle a fixé un budget ?" of the client it
serves, and the block for it should hold what is known of them even when no fact stands
near the question in meaning; "Why is the sea salty?" points at no one and brings
nothing. The words are a table (`persons.toml`), English and French side by side.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib import resources

__all__ = ["points_at_someone"]


@cache
def _pointing() -> re.Pattern[str]:
    table = tomllib.loads(
        resources.files("somna.ranking").joinpath("persons.toml").read_text("utf-8")
    )
    words, titles, articles, roles, dealings = (
        _any(table[name]) for name in ("words", "titles", "articles", "roles", "dealings")
    )
    return re.compile(
        rf"(?<![\w-])(?:{words}|{dealings}|(?:{articles})\s*(?:{roles}))(?![\w-])"
        rf"|(?<![\w-])(?:{titles})\.?\s+(?-i:[A-ZÀ-Ý])",
        re.IGNORECASE,
    )


def _any(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def points_at_someone(question: str) -> bool:
    """Whether `question` points at a person ("his", "elle", "the client", "Mrs Rowe",
    "le père").

    >>> points_at_someone("What exactly are we making for him?")
    True
    >>> points_at_someone("Pourquoi la mer est-elle salée ?")
    False
    """
    return _pointing().search(question) is not None
