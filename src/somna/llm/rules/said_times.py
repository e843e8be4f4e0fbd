"""Times of day said in words, written in digits where a statement is retold: "make it
quarter to ten, not quarter past nine" is "make it 9:45, not 9:15", "10h moins le quart"
is "9h45". The rules that read times of day read digits; the words stay in the quote.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import partial

from somna.llm.rules.language import Language
from somna.llm.rules.languages import LANGUAGES
from somna.llm.rules.text import regex

__all__ = ["times_in_digits"]


def _phrases(language: Language) -> tuple[tuple[re.Pattern[str], int], ...]:
    return tuple(
        (regex(phrase), minutes) for minutes, phrase in language.dates.clock_phrases.items()
    )


def times_in_digits(text: str, language: Language) -> str:
    """`text` with each time of day `language` says in words written in digits.

    >>> from somna.llm.rules.languages import ENGLISH, FRENCH
    >>> times_in_digits("Make it quarter to ten, not half nine.", ENGLISH)
    'Make it 9:45, not 9:30.'
    >>> times_in_digits("On arrive à 10h moins le quart, ou midi et demi.", FRENCH)
    'On arrive à 9h45, ou 12h30.'
    >>> times_in_digits("Half an hour, half 10 kg, half of it.", ENGLISH)
    'Half an hour, half 10 kg, half of it.'
    """
    hours = _HOURS[language.code]
    for pattern, minutes in _PHRASES[language.code]:
        text = pattern.sub(partial(_written, minutes=minutes, hours=hours, language=language), text)
    return text


def _hours(language: Language) -> Mapping[str, int]:
    """The hour each word of an hour stands for ("nine": 9, "noon": 12, "minuit": 0)."""
    named = {name: minutes // 60 % 24 for name, minutes in language.dates.named_times.items()}
    return {**language.dates.numbers, **named}


_PHRASES = {language.code: _phrases(language) for language in LANGUAGES}
_HOURS = {language.code: _hours(language) for language in LANGUAGES}


def _written(
    said: re.Match[str], minutes: int, hours: Mapping[str, int], language: Language
) -> str:
    word = said["hour"].casefold()
    hour = int(word) if word.isdigit() else hours.get(word)
    if hour is None:
        return said[0]
    hour, minute = divmod((hour * 60 + minutes) % (24 * 60), 60)
    if hour == 0 and minutes < 0:
        hour = 12  # "quarter to one" is 12:45, not 0:45
    return language.dates.clock_written.format(hour=hour, minute=minute)
