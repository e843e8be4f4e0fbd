"""Counts given against an older one: "that's one more flue than I told you", "je vous
amène un sac de plus".

The new statement holds no total: the number it gives is how many are added or taken
away. What it counts is the word after that number, and the older count is the number
written before the same word in an earlier statement ("so two flues", "2 sacs"). The
new statement then replaces the older one, and says the total, so that the prompt holds
the count itself ("one more flue (3 flues in all)"), not only that it grew.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from somna.llm.rules.language import Language, detect_language
from somna.llm.rules.languages import LANGUAGES
from somna.llm.rules.text import fold

__all__ = ["count_added", "may_add_to_a_count", "with_the_count_made"]

_BETWEEN = 2
"""How many words may stand between an older count and what it counts ("8 dining chairs")."""
_TOKEN = re.compile(r"\d+|[^\W\d_]+")
"""A number or a word."""


def may_add_to_a_count(new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `new` gives a count against an older one, tested before any search.

    >>> may_add_to_a_count("That's one more flue than I told you."), may_add_to_a_count("2 flues.")
    (True, False)
    """
    folded = fold(new)
    return any(language.count_added.search(folded) for language in languages)


def count_added(old: str, new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `new` adds to, or takes from, a count `old` gives of the same thing.

    >>> count_added("We have two flues.", "That's one more flue than I told you.")
    True
    >>> count_added("We have two flues.", "One more thing: the dog stays in.")
    False
    """
    return _total(old, new, languages) is not None


def with_the_count_made(
    old: str, new: str, languages: Sequence[Language] = LANGUAGES
) -> str | None:
    """`new` with the total it makes of `old`'s count written after what it adds; None
    where it adds to no count of `old`'s.

    >>> with_the_count_made("It's 8 dining chairs.", "Two more chairs turned up, add those.")
    'Two more chairs (10 chairs in all) turned up, add those.'
    >>> with_the_count_made("Need 3 ebikes for a week.", "My brother comes too; one more bike.")
    'My brother comes too; one more bike (4 ebikes in all).'
    >>> with_the_count_made("J'amène 2 sacs.", "J'en amène un sac de plus que prévu.")
    "J'en amène un sac de plus (3 sacs en tout) que prévu."
    """
    found = _total(old, new, languages)
    if found is None:
        return None
    total, written, end, language = found
    return f"{new[:end]} ({language.in_all.format(f'{total} {written}')}){new[end:]}"


def _total(
    old: str, new: str, languages: Sequence[Language]
) -> tuple[int, str, int, Language] | None:
    """The total `new` makes of `old`'s count, the counted word as `old` writes it, where
    `new`'s phrase ends, and `new`'s language."""
    language = detect_language(new, languages, languages[0])
    folded = fold(new)
    added = language.count_added.search(folded)
    if added is None:
        return None
    by = _value(added["n"], language)
    counted = _older_count(fold(old), _stem(added["what"]), language)
    if by is None or counted is None:
        return None
    before, written = counted
    total = before - by if added["fewer"] else before + by
    if total < 1:
        return None
    return total, written if total > 1 else added["what"], added.end(), language


def _older_count(old: str, stem: str, language: Language) -> tuple[int, str] | None:
    """The last number of `old` written before a word of `stem`, and that word."""
    words = list(_TOKEN.finditer(old))
    found = None
    for i, word in enumerate(words):
        if not _counts(_stem(word[0]), stem):
            continue
        for number in reversed(words[max(0, i - _BETWEEN - 1) : i]):
            value = _value(number[0], language)
            if value is not None and (value > 1 or number[0].isdigit()):  # "one" may be "a"
                found = value, word[0]
                break
    return found


def _counts(older: str, stem: str) -> bool:
    """Whether a word of an older count counts what `stem` names: the same word, or one
    ending in it ("ebikes" for "one more bike")."""
    return older == stem or (len(stem) >= 4 and older.endswith(stem))


def _value(number: str, language: Language) -> int | None:
    if number.isdigit():
        return int(number)
    return language.dates.numbers.get(number.casefold())


def _stem(word: str) -> str:
    """A word without its plural ending: "flues", "chaises", "tréteaux", "chevaux"."""
    word = word.casefold()
    if word.endswith("aux") and not word.endswith("eaux"):
        return word[:-3] + "al"
    return word.removesuffix("s").removesuffix("x")
