"""The languages the rules provider reads, the default first.

A language is its tables (``<name>.toml``, see `tables`) and a module that loads them
with the functions they name (`english`, `french`); adding one is those two files and a
line here. The engine (`extract`, `observe`, `judge`, `summary`) knows none by name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from somna.llm.rules.english import ENGLISH
from somna.llm.rules.french import FRENCH
from somna.llm.rules.language import Language, detect_language

__all__ = [
    "ANSWERED",
    "LANGUAGES",
    "SAYS",
    "WEEKDAYS",
    "Retold",
    "every",
    "is_name",
    "language_of",
    "weekday",
    "without_question",
]

LANGUAGES: tuple[Language, ...] = (ENGLISH, FRENCH)


@lru_cache(maxsize=65_536)
def language_of(text: str) -> str:
    """The code of the language `text` is written in, the default where it is unclear.

    >>> language_of("Quelle est son adresse ?"), language_of("Where does she live?")
    ('fr', 'en')
    """
    return detect_language(text, LANGUAGES, LANGUAGES[0]).code


def every(alternatives: Callable[[Language], str]) -> str:
    """The alternatives every language gives of one table, as one alternation."""
    return "|".join(alternatives(language) for language in LANGUAGES)


ANSWERED = re.compile(
    r" ?\((?:"
    + "|".join(re.escape(language.answering.split("{}")[0]) for language in LANGUAGES)
    + r")"
)
"""Where an observation's retold question starts (" (in answer to: …)", as `observe`
appends it): what comes before is what was said, what comes after was asked."""


def _opening(says: str) -> str:
    """An opening as a pattern, any speaker named; "que" elided before a vowel too."""
    pattern = re.escape(says).replace(r"\{\}", r"[^;]{1,80}?")
    return f"{pattern} " + (f"|{pattern[:-1]}'" if says.endswith("que") else "")


SAYS = re.compile("^(?:" + "|".join(_opening(language.says) for language in LANGUAGES) + ")")
"""How `observe` opens a statement that does not name its speaker ("The user says that",
"L'utilisateur dit qu'")."""


def opening_whole(opening: str) -> str:
    """An opening `SAYS` read, written whole again once what it was elided before has gone
    ("L'utilisateur dit qu'" is "L'utilisateur dit que ")."""
    return f"{opening[:-1]}e " if opening.endswith("'") else opening


def without_question(observation: str) -> str:
    """What an observation says, without the question it answers (`ANSWERED`)."""
    asked = ANSWERED.search(observation)
    return observation if asked is None else observation[: asked.start()]


@dataclass(frozen=True)
class Retold:
    """A retold statement taken apart, so that some of what it tells may be left out: its
    opening ("The user says that "), what it tells, and what follows (the question it
    answers, or its stop)."""

    opening: str
    told: str
    ending: str

    @classmethod
    def of(cls, observation: str) -> Retold:
        said = without_question(observation)
        found = SAYS.match(said)
        opening = said[: found.end()] if found else ""
        return cls(opening, said[len(opening) :], observation[len(said) :] or ".")

    def telling(self, rest: str, language: Language) -> str:
        """The statement telling `rest` instead, with its opening and what followed."""
        return language.elided(opening_whole(self.opening) + rest) + self.ending


_MONTHS = frozenset().union(*(language.month_names for language in LANGUAGES))
WEEKDAYS: Mapping[str, int] = MappingProxyType(
    {day: index for language in LANGUAGES for day, index in language.dates.weekdays.items()}
)
"""The names of the days of the week of every language, as written and short ("tue"), each
with its number: "Thursday" and "jeudi" are one day."""


def weekday(word: str) -> int | None:
    """The number of the day of the week a folded word names, in the singular or the
    plural, in any language.

    >>> weekday("thursday"), weekday("mardis"), weekday("tues"), weekday("bus")
    (3, 1, 1, None)
    """
    if word in WEEKDAYS:
        return WEEKDAYS[word]
    return WEEKDAYS.get(word.removesuffix("s"))


_NOT_NAMES = frozenset(
    word
    for language in LANGUAGES
    for word in (
        *language.dates.weekdays,
        *language.stopwords,
        *language.plain_user.split(),
        *language.plain_assistant.split(),
        *language.greetings,
        *language.openers,
    )
)
"""Capitalised words that name no one: days, how the speakers are told, greetings, and
common words opening a statement or a sentence."""


def is_name(word: str) -> bool:
    """Whether a capitalised word may name someone or somewhere: not a month, a day, how
    the speakers are told, nor a common word.

    >>> is_name("Derby"), is_name("Monday"), is_name("The"), is_name("Mar."), is_name("Marsh")
    (True, False, False, False, True)
    >>> is_name("Fridays"), is_name("Friday's"), is_name("Theo's"), is_name("Hello")
    (False, False, True, False)
    >>> is_name("Say"), is_name("Brilliant"), is_name("Dites")  # "Say 10am", "Dites-lui"
    (False, False, False)
    """
    folded = word.casefold().removesuffix("'s")
    return (
        word[:1].isupper()
        and folded.rstrip(".") not in _MONTHS
        and folded not in _NOT_NAMES
        and weekday(folded) is None
    )
