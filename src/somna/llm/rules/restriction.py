"""What a restriction is, and when a later plan breaks it.

A restriction is anything a person rules out that a plan can hold anyway: a diet ("is
vegan", and eggs for breakfast), an allergy to something named, an event for adults only
(and a child on its plan), a refusal ("we don't have pets", and the dog in the garden).
`diets` and `refusals` read them from what people say; this module only tells whether a
plan breaks one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from somna.llm.rules.ages import ages
from somna.llm.rules.languages import is_name
from somna.llm.rules.text import clock_times

__all__ = ["NOTHING", "Restriction", "names_in", "stem"]

NOTHING = re.compile(r"(?!)")
"""Matches nowhere: no phrase excuses what breaks a restriction."""

_NEGATED = re.compile(
    r"(?:n't|(?<!\w)(?:no|not|never|without|nor|pas|sans|aucune?|jamais|ni|plus"
    r"|allerg(?:ic|y|ies)\s+to|allergi(?:que|e|es)\s+(?:à|aux?)))(?!\w)"
    r"[^.;!?]{0,24}$",
    re.IGNORECASE,
)
"""A negation just before a food: "no pork please", "pas de porc", "sans noisettes"; or
an allergy to it, which no plan holds ("he's only allergic to peanuts")."""

_CAPITALISED = re.compile(r"\b[A-ZÀ-Ý][\w'-]+")
_CLAUSE_OPENS = re.compile(r"(?:^|[.;:!?(«\"]\s*)$")


@dataclass(frozen=True)
class Restriction:
    name: str
    says: re.Pattern[str]
    """What states the restriction: a plan that states it too breaks nothing."""
    breaks: re.Pattern[str]
    unless: re.Pattern[str]
    """Phrases in which what breaks it breaks nothing ("peanut butter" for a vegan)."""
    stating: tuple[str, ...]
    """The words of `says`, to search facts for in full text."""
    foods: tuple[str, ...]
    """The words of `breaks`, likewise."""
    under_age: int | None = None
    """A person younger than this, by the ages a plan gives, breaks it too."""
    together: tuple[tuple[str, ...], ...] = ()
    """When given, only a plan that holds a word of each group breaks it ("latex" and
    "gloves"; "call" or "phone", and a time): a word that starts as one of the group's
    does ("engrav" for "engrave")."""
    holders: frozenset[str] = frozenset()
    """Who the restriction is told of, by name: a plan that names only others breaks
    nothing ("Noa is allergic to latex", "gloves of latex for Theo")."""
    earlier_than: int | None = None
    """Only a plan with a time of day (minutes after midnight) before this breaks it."""
    later_than: int | None = None
    """Only a plan with a time of day after this breaks it."""

    def broken_by(self, plan: str) -> bool:
        if self.holders and (named := names_in(plan)) and not named & self.holders:
            return False
        if not self._timed(plan):
            return False
        cleaned = self.unless.sub(" ", plan)
        held = [
            m[0].casefold()
            for m in self.breaks.finditer(cleaned)
            if not _NEGATED.search(cleaned[: m.start()])
        ]
        if self.together:
            # a word of one group may be within another's phrase ("wrapping" in "bubble wrap",
            # "wrap" in "shrink-wrap")
            return all(
                any(h.startswith(w) or f" {w}" in h or f"-{w}" in h for h in held for w in group)
                for group in self.together
            )
        return bool(held) or (
            self.under_age is not None and any(a < self.under_age for a in ages(plan).values())
        )

    def _timed(self, plan: str) -> bool:
        if self.earlier_than is None and self.later_than is None:
            return True
        times = clock_times(plan).values()
        return any(
            (self.earlier_than is None or t < self.earlier_than)
            and (self.later_than is None or t > self.later_than)
            for t in times
        )


def names_in(text: str) -> frozenset[str]:
    """The people's names `text` writes, without a possessive's "'s"; a word shouted in
    capitals ("NO haylage") is none, nor a French verb asked of someone that opens a
    clause ("Prévoyez un micro").

    >>> sorted(names_in("NO nuts for Theo, Theo's sister Noa is fine; Gardez les noix."))
    ['Noa', 'Theo']
    """
    return frozenset(
        word.removesuffix("'s").removesuffix("\u2019s")
        for match in _CAPITALISED.finditer(text)
        if is_name(word := match[0])
        and not (len(word) > 1 and word.isupper())
        and not (word.endswith("ez") and _CLAUSE_OPENS.search(text, 0, match.start()))
    )


def stem(word: str) -> str:
    """A word case-folded, without a plural's "s" ("lilies": "lily").

    >>> stem("Lilies"), stem("dogs"), stem("bus")
    ('lily', 'dog', 'bus')
    """
    folded = word.casefold()
    if len(folded) > 4 and folded.endswith("ies"):
        return folded[:-3] + "y"
    return folded[:-1] if len(folded) > 3 and folded.endswith("s") else folded
