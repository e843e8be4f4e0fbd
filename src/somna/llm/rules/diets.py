"""A stated diet or allergy, and a later plan that breaks it: a contradiction to put to a person.

The same holds for a restriction of that shape: an event for adults only, and a child on
its plan ("a seat for Mila, she's 6").

"Is vegan" and "eats three eggs every morning", "has a severe peanut allergy" and "a
welcome basket of peanut brittle for him" share little wording and less cosine, yet an
agent that serves the second must know about the first. The restrictions and the foods
that break them are a table (`diets.toml`), English and French side by side.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from somna.llm.rules.ages import ages
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
    under_age: int | None = None
    """A person younger than this, by the ages a plan gives, breaks it too."""

    def broken_by(self, plan: str) -> bool:
        cleaned = self.unless.sub(" ", plan)
        return any(
            not _NEGATED.search(cleaned[: m.start()]) for m in self.breaks.finditer(cleaned)
        ) or (self.under_age is not None and any(a < self.under_age for a in ages(plan).values()))


_NEGATED = re.compile(
    r"(?<!\w)(?:no|not|never|without|nor|pas|sans|aucune?|jamais|ni|plus)(?!\w)[^.;!?]{0,24}$",
    re.IGNORECASE,
)
"""A negation just before a food: "no pork please", "pas de porc", "sans noisettes"."""


_NOTHING = re.compile(r"(?!)")
"""Matches nowhere: no phrase excuses what breaks the restriction."""


@cache
def diets() -> tuple[Diet, ...]:
    return tuple(
        Diet(
            name,
            any_word(entry["says"], whole=False),
            any_word(entry["breaks"], whole=True),
            any_word(entry["unless"], whole=False) if entry["unless"] else _NOTHING,
            tuple(entry["says"]),
            tuple(entry["breaks"]),
            entry.get("under_age"),
        )
        for name, entry in read_toml("diets").items()
    )


def restrictions(text: str) -> list[Diet]:
    """The diets `text` states ("Is vegan.", "Noa has a bad sesame allergy.").

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
        if diet.broken_by(plan):
            return True
    return False


def foods_of(text: str) -> list[Diet]:
    """The diets a food in `text` would break, when `text` states none of them."""
    return [d for d in diets() if d.broken_by(text) and not d.says.search(text)]
