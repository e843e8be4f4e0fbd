"""A stated diet or allergy, and a later plan that breaks it: a contradiction to put to a person.

"Is vegan" and "eats three eggs every morning", "has a severe peanut allergy" and "a
welcome basket of peanut brittle for him" share little wording and less cosine, yet an
agent that serves the second must know about the first. The restrictions and the foods
that break them are a table (`diets.toml`), English and French side by side.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from somna.llm.rules.tables import read_toml
from somna.llm.rules.text import any_word

__all__ = ["Diet", "breaks_diet", "diets", "foods_of", "restrictions"]


@dataclass(frozen=True)
class Diet:
    name: str
    says: re.Pattern[str]
    breaks: re.Pattern[str]
    unless: re.Pattern[str]
    stating: tuple[str, ...]
    """The words of `says`, to search facts for in full text."""
    foods: tuple[str, ...]
    """The words of `breaks`, likewise."""


_NEGATED = re.compile(
    r"(?<!\w)(?:no|not|never|without|nor|pas|sans|aucune?|jamais|ni|plus)(?!\w)[^.;!?]{0,24}$",
    re.IGNORECASE,
)
"""A negation just before a food: "no pork please", "pas de porc", "sans noisettes"."""


@cache
def diets() -> tuple[Diet, ...]:
    return tuple(
        Diet(
            name,
            any_word(entry["says"], whole=False),
            any_word(entry["breaks"], whole=True),
            any_word(entry["unless"], whole=False),
            tuple(entry["says"]),
            tuple(entry["breaks"]),
        )
        for name, entry in read_toml("diets").items()
    )


def restrictions(text: str) -> list[Diet]:
    """The diets `text` states ("Is vegan.", "Leo has a severe peanut allergy.").

    >>> [d.name for d in restrictions("The user has been vegan for years.")]
    ['vegan']
    """
    return [diet for diet in diets() if diet.says.search(text)]


def breaks_diet(restriction: str, plan: str) -> bool:
    """Whether `plan` has a food on it that a diet stated in `restriction` rules out.

    >>> breaks_diet("Is vegan.", "Has three eggs and a whey shake for breakfast.")
    True
    >>> breaks_diet("Is vegan.", "Loves peanut butter on toast.")
    False
    >>> breaks_diet("Is vegetarian.", "No pork please, several guests never eat it.")
    False
    """
    for diet in restrictions(restriction):
        if diet.says.search(plan):
            continue  # the plan states the restriction itself, or another person's
        cleaned = diet.unless.sub(" ", plan)
        if any(not _NEGATED.search(cleaned[: m.start()]) for m in diet.breaks.finditer(cleaned)):
            return True
    return False


def foods_of(text: str) -> list[Diet]:
    """The diets a food in `text` would break, when `text` states none of them."""
    return [
        d for d in diets() if d.breaks.search(d.unless.sub(" ", text)) and not d.says.search(text)
    ]
