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
from functools import cache, lru_cache
from typing import Any

from somna.llm.rules.frames import says_yes
from somna.llm.rules.languages import ANSWERED, LANGUAGES, without_question
from somna.llm.rules.refusals import free_of_said_as_no, refusals, refused_by_words
from somna.llm.rules.restriction import NOTHING, Restriction, names_in, stem
from somna.llm.rules.tables import read_toml
from somna.llm.rules.text import any_word, fold

__all__ = [
    "allergy_words",
    "breaks_diet",
    "clash_words",
    "diets",
    "restricted_anew",
    "restrictions",
]


@cache
def _table() -> dict[str, Any]:
    """`diets.toml`, read once for the diets and the words of an allergy."""
    return read_toml("diets")


@cache
def diets() -> tuple[Restriction, ...]:
    return tuple(
        Restriction(
            name,
            any_word(entry["says"], whole=False),
            any_word(entry["breaks"], whole=True),
            any_word(entry["unless"], whole=False) if entry["unless"] else NOTHING,
            tuple(entry["says"]),
            tuple(entry["breaks"]),
            entry.get("under_age"),
        )
        for name, entry in _table().items()
        if isinstance(entry, dict)
    )


@dataclass(frozen=True)
class _Allergy:
    """How an allergy to anything named is said (`diets.toml`)."""

    to: re.Pattern[str]
    """What opens the thing one is allergic to ("allergic to", "allergique au")."""
    said: re.Pattern[str]
    """A word of an allergy: a statement with one states an allergy, and breaks none."""
    words: tuple[str, ...]
    searched: tuple[str, ...]
    """The forms of those words a full-text search asks for."""


@cache
def _allergy() -> _Allergy:
    table = _table()
    return _Allergy(
        any_word(table["allergic_to"], whole=True),
        any_word(table["allergy"], whole=False),
        tuple(table["allergy"]),
        tuple(table["allergy_said"]),
    )


_NAMED = re.compile(r"[^,.;:!?()]+")
_LETTERS = re.compile(r"[^\W\d_]{3,}")
_SMALL_WORDS = frozenset().union(*(language.stopwords for language in LANGUAGES))


def _named_allergies(text: str) -> list[Restriction]:
    """An allergy to what `text` names after "allergic to", "allergique au"… as a diet of
    its own: all its words, each as a word's start (a plural or a feminine too), on one
    plan break it."""
    allergy = _allergy()
    found = []
    for opening in allergy.to.finditer(text):
        named = _NAMED.match(text, opening.end())
        words = [stem(w) for w in _LETTERS.findall(named[0] if named else "")]
        foods = tuple(dict.fromkeys(w for w in words if w not in _SMALL_WORDS))
        if foods:
            found.append(
                Restriction(
                    f"allergic to {' '.join(foods)}",
                    allergy.said,
                    any_word(foods, whole=False),
                    NOTHING,
                    allergy.words,
                    foods,
                    together=tuple((food,) for food in foods),
                    holders=names_in(text),
                )
            )
    return found


@lru_cache(maxsize=4096)
def restrictions(text: str) -> tuple[Restriction, ...]:
    """The diets `text` states ("Is vegan.", "Noa has a bad sesame allergy."), an allergy
    to anything else it names, and what it says is not had, done or wanted (`refusals`).
    Cached: a fact is held against many others.

    >>> [d.name for d in restrictions("The user has been vegan for years.")]
    ['vegan']
    >>> [d.name for d in restrictions("Noa is allergic to latex gloves.")]
    ['allergic to latex glove']
    >>> [d.name for d in restrictions("Noa never drinks alcohol, and we don't have pets.")]
    ['refuses alcohol', 'refuses pet']
    """
    text = _as_said(text)
    stated = tuple(diet for diet in diets() if diet.says.search(text))
    named = [d for d in _named_allergies(text) if not any(d.foods[0] in s.foods for s in stated)]
    return (*stated, *named, *refusals(text))


def _as_said(text: str) -> str:
    """What `text` says: with the question it answers when it says yes to it, without the
    words retelling it ("in answer to"); without it otherwise, since what a question
    offered is no one's until a yes takes it; what it is free of said with a "no"."""
    said = ANSWERED.sub(" (", text) if says_yes(text) else without_question(text)
    return free_of_said_as_no(said)  # an "egg-free tart" holds no egg


def breaks_diet(restriction: str, plan: str) -> bool:
    """Whether `plan` has a food on it that a diet stated in `restriction` rules out.

    >>> breaks_diet("Is vegan.", "Has three eggs and a whey shake for breakfast.")
    True

    A food the diet allows breaks nothing, nor does a food the plan itself refuses, nor
    one only the question it answers names, unless it says yes to it:

    >>> breaks_diet("Is vegan.", "Loves peanut butter on toast.")
    False
    >>> breaks_diet("Is vegetarian.", "No pork please, several guests never eat it.")
    False
    >>> breaks_diet("Is vegan.", "Says Noa brings it (in answer to: Who brings the eggs?).")
    False
    """
    plan = _as_said(plan)
    for diet in restrictions(restriction):
        if diet.says.search(plan):
            continue  # the plan states the restriction itself, or another person's
        if diet.broken_by(plan):
            return True
    return False


def restricted_anew(plan: str, restriction: str, said: str | None = None) -> bool:
    """Whether `restriction`, said later, rules out what `plan` holds and says it changed
    (`said`: the words it was said in): "on reste sans batterie" after "ajoutez la
    batterie" takes the battery back off, no contradiction to settle.

    >>> plan = "The user asks to add the battery to the quote."
    >>> restricted_anew(plan, "The user says finally no battery, too dear.")
    True
    >>> restricted_anew(plan, "The user says no battery, too dear.")
    False
    """
    return breaks_diet(restriction, plan) and any(
        language.change.search(fold(text))
        for language in LANGUAGES
        for text in (restriction, said or "")
    )


def _foods_of(text: str) -> list[Restriction]:
    """The diets a food in `text` would break, when `text` states none of them."""
    return [d for d in diets() if d.broken_by(text) and not d.says.search(text)]


def clash_words(text: str) -> set[str]:
    """The words of the facts `text` may clash with: the foods of the restrictions it
    states, the words that state those its foods break, and for a refusal of what it
    holds, its own words and the kinds they are of ("pets" for "the dog")."""
    words = {w for d in restrictions(text) for w in d.foods}
    stating = {w for d in _foods_of(text) for w in d.stating}
    return words | stating | refused_by_words(text) | set(_LETTERS.findall(text.casefold()))


def allergy_words(text: str) -> tuple[str, ...]:
    """The words of the facts that may state an allergy to what `text` holds, unless
    `text` states one itself: what it holds may be what one of them names."""
    allergy = _allergy()
    return () if allergy.said.search(text) else allergy.searched
