"""A value named with the one it replaces: "the depot is in Hartfield, not Morley", "PO
7731, not 7713", "à Quimper et non Brest", "switch the bags from red to navy".

The value after the word of contrast (each language's `instead` table), or the one a
change starts from (`moved_from`), is what an older statement said: that statement is
replaced, though the new one shares no frame with it. After a word of contrast only
values are read on both sides (a name, a number or a code), so "call me, not my wife" or
"it's fine, not urgent" replace nothing; a change in so many words may name any word,
not a bare number (a count given anew is `counts`' to judge).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import cache

from somna.llm.rules.contacts import PHONE
from somna.llm.rules.language import Language
from somna.llm.rules.languages import LANGUAGES, is_name, without_question

__all__ = ["may_name_instead", "named_instead", "with_the_number_put_right"]

_SHORTEST = 3
"""Fewer letters name no value a change starts from ("from a to b")."""


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
    return any(
        _says(old, match["then"], folded=True) and not _says(old, match["now"], folded=True)
        for match in _moves(new, languages)
    )


def with_the_number_put_right(
    old: str, new: str, said: str | None = None, languages: Sequence[Language] = LANGUAGES
) -> str | None:
    """`new` with `old` put right after the digits `new` (or the words it was `said` in)
    names instead of some of a phone number's in `old`: "the end is 582 not 852" after
    "WhatsApp me on 07700 341 852" tells the whole number, "the end is 582 (WhatsApp the
    user on 07700 341 582)"; None where no phone number is put right so.

    >>> with_the_number_put_right("Call the user on 07700 900 417.", "Sorry, 471 not 417.")
    'Sorry, 471 (Call the user on 07700 900 471) not 417.'
    """
    for text in (new, said or ""):
        for match in _contrast(tuple(languages)).finditer(text):
            now, then = match["now"], match["then"]
            if not (now.isdigit() and then.isdigit()) or _says(old, now):
                continue
            told = without_question(old).rstrip(" .")
            for phone in PHONE.finditer(told):
                if _says(phone[0], then) and not phone[0].endswith(f" {now}"):
                    righted = re.sub(rf"(?<!\d){then}(?!\d)", now, phone[0])
                    whole = told[: phone.start()] + righted + told[phone.end() :]
                    at = re.search(rf"(?<![\w-]){now}(?![\w-])", new)
                    if at is not None:
                        return f"{new[: at.end()]} ({whole}){new[at.end() :]}"
    return None


def may_name_instead(text: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `named_instead` may hold for `text` against any older statement."""
    return any(
        _is_value(match["now"]) and _is_value(match["then"])
        for match in _contrast(tuple(languages)).finditer(text)
    ) or any(True for _ in _moves(text, languages))


def _moves(text: str, languages: Sequence[Language]) -> Iterator[re.Match[str]]:
    """The changes `text` names from one word to another, neither a bare number."""
    for language in languages:
        for match in language.moved_from.finditer(text):
            then, now = match["then"], match["now"]
            if (
                then.casefold() != now.casefold()
                and min(len(then), len(now)) >= _SHORTEST
                and not (then.isdigit() or now.isdigit())
            ):
                yield match


@cache
def _contrast(languages: tuple[Language, ...]) -> re.Pattern[str]:
    instead = "|".join(language.instead for language in languages)
    return re.compile(rf"(?P<now>[^\s,;]+)\s*,?\s+(?:{instead})\s+(?P<then>[^\s,;.!?)]+)")


def _is_value(word: str) -> bool:
    """A name, or a number or a code: what a client gives anew."""
    return any(char.isdigit() for char in word) or is_name(word)


def _says(text: str, value: str, *, folded: bool = False) -> bool:
    flags = re.IGNORECASE if folded else 0
    return re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", text, flags) is not None
