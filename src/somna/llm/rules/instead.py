"""A value named with the one it replaces: "the depot is in Hartfield, not Morley", "PO
7731, not 7713", "à Quimper et non Brest".

The value after the word of contrast (each language's `instead` table) is what an older
statement said: that statement is replaced, though the new one shares no frame with it.
Only values are read on both sides (a name, a number or a code), so "call me, not my
wife" or "it's fine, not urgent" replace nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from somna.llm.rules.language import Language
from somna.llm.rules.languages import LANGUAGES, is_name

__all__ = ["may_name_instead", "named_instead"]


def named_instead(old: str, new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `new` names, as the value it replaces, one that `old` says, and `old` does not
    already say the new one.

    >>> named_instead("Our depot is in Morley.", "The depot is in Hartfield, not Morley.")
    True
    >>> named_instead("Our depot is in Morley.", "Send it to Hartfield, not to me.")
    False
    """
    for match in _contrast(tuple(languages)).finditer(new):
        now, then = match["now"], match["then"]
        if _is_value(now) and _is_value(then) and _says(old, then) and not _says(old, now):
            return True
    return False


def may_name_instead(text: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `named_instead` may hold for `text` against any older statement."""
    return any(
        _is_value(match["now"]) and _is_value(match["then"])
        for match in _contrast(tuple(languages)).finditer(text)
    )


@cache
def _contrast(languages: tuple[Language, ...]) -> re.Pattern[str]:
    instead = "|".join(language.instead for language in languages)
    return re.compile(rf"(?P<now>[^\s,;]+)\s*,?\s+(?:{instead})\s+(?P<then>[^\s,;.!?)]+)")


def _is_value(word: str) -> bool:
    """A name, or a number or a code: what a client gives anew."""
    return any(char.isdigit() for char in word) or is_name(word)


def _says(text: str, value: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", text) is not None
