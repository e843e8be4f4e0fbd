"""A name an answer gave to the question's slot, given anew: "from which station?", then
"Derby", weeks later "can we leave from York instead?".

The answer names a place, a person or a firm where the question asked "from which",
"with what", "chez quel": the question's preposition is the slot. A newer statement that
puts another name right after that preposition, and says it changed, replaces it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from somna.llm.rules.language import Language, detect_language
from somna.llm.rules.languages import ANSWERED, LANGUAGES
from somna.llm.rules.text import fold

__all__ = ["may_rename_a_slot", "slot_renamed"]

_ASKED_SLOT = re.compile(
    r"(?<!\w)(?P<preposition>[^\W\d_]+)\s+(?:"
    + "|".join(language.which for language in LANGUAGES)
    + r")(?!\w)",
    re.IGNORECASE,
)
"""A question's slot: a preposition before "which" / "what" / "quel" ("from which station")."""
_NAME = re.compile(r"(?<![.!?]\s)\b[A-ZÀ-Ý][\w'-]+")
_MONTHS = re.compile("|".join(language.months for language in LANGUAGES), re.IGNORECASE)
_NOT_NAMES = frozenset(
    word
    for language in LANGUAGES
    for word in (
        *language.dates.weekdays,
        *language.stopwords,
        *language.plain_user.split(),
        *language.plain_assistant.split(),
    )
)
"""Capitalised words that name no one: days, how the speakers are told, and common words
opening a statement."""


def may_rename_a_slot(new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `slot_renamed` can hold for `new` against any text: it names someone or
    somewhere and says something changed."""
    language = detect_language(new, languages, languages[0])
    return bool(_names(new)) and language.change.search(fold(new)) is not None


def slot_renamed(old: str, new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `new` puts another name in the slot of the question `old` answered with a
    name, and says it changed.

    >>> slot_renamed(
    ...     "The user says that Derby suits us (in answer to: From which office will you work?).",
    ...     "The user will work from York instead.",
    ... )
    True
    >>> slot_renamed(
    ...     "The user says that Derby suits us (in answer to: From which office will you work?).",
    ...     "The user will work from home on Fridays now.",
    ... )
    False
    """
    asked = ANSWERED.search(old)
    if asked is None:
        return False
    language = detect_language(f"{new} {old}", languages, languages[0])
    if not language.change.search(fold(new)):
        return False
    named = _names(old[: asked.start()]) - _names(new)
    if not named:
        return False
    for slot in _ASKED_SLOT.finditer(old, asked.start()):
        preposition = re.escape(slot["preposition"])
        given = re.compile(rf"(?<!\w){preposition}\s+(?P<name>[A-ZÀ-Ý][\w'-]+)", re.IGNORECASE)
        if any(_is_name(n["name"]) and n["name"] not in named for n in given.finditer(new)):
            return True
    return False


def _names(text: str) -> set[str]:
    """The names of a text: capitalised within a sentence (or opening one of the statements
    an observation joins), months, days and common words left out."""
    return {n[0] for n in _NAME.finditer(text) if _is_name(n[0])}


def _is_name(word: str) -> bool:
    return word[0].isupper() and not _MONTHS.match(word) and word.casefold() not in _NOT_NAMES
