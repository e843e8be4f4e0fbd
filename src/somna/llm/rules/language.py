"""What the rules engine must know of a language, and which language a message is in.

Each language module (`english`, `french`) fills one `Language` with tables: the words
that tell it apart, the sentences never worth a fact, the patterns that make one, and
the small grammar that retells a first-person clause about the speaker in the third
person. The engine (`extract`, `judge`, `summary`) knows no language of its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from somna.model import DEFAULT_SUBJECT, FactType

__all__ = ["Language", "Rule", "Slot", "Speaker", "detect_language"]


@dataclass(frozen=True)
class Speaker:
    """Who a fact is about: a name from the transcript, or the plain user."""

    name: str

    @property
    def is_user(self) -> bool:
        return self.name.strip().casefold() == DEFAULT_SUBJECT


@dataclass(frozen=True)
class Rule:
    """A first-person clause matching ``pattern`` is a fact of this type and category."""

    category: str
    type: FactType
    pattern: re.Pattern[str]


@dataclass(frozen=True)
class Slot:
    """An attribute a subject has one value of at a time ("lives in", "works at").

    ``pattern`` has the named groups ``subject`` and ``value``, and ``thing`` when the
    slot is a family ("favourite <thing> is").
    """

    name: str
    pattern: re.Pattern[str]


@dataclass(frozen=True)
class Language:
    code: str
    stopwords: frozenset[str]
    """Frequent words of this language and rare in the others: they identify it."""
    skip: tuple[re.Pattern[str], ...]
    """A sentence matching any of these is never a fact (hypotheticals, hedges, pleasantries)."""
    pleasantry: re.Pattern[str]
    """Greetings and thanks, alone or nearly: part of ``skip``, and kept out of summaries too."""
    lead: re.Pattern[str]
    """Discourse markers and a time phrase (group ``when``) before the clause; matched at start."""
    clause_break: re.Pattern[str]
    """Where one sentence holds several first-person clauses."""
    rules: tuple[Rule, ...]
    """First match wins, so the order is meaningful."""
    vague: re.Pattern[str]
    """A clause that leans on a pronoun for its meaning ("I love it") is not self-contained."""
    third_person: Callable[[str, Speaker], str | None]
    """A first-person clause retold about the speaker, or None when the grammar is unsure."""
    instruction: Callable[[str, Speaker], str | None]
    """The text of a standing request to the assistant in this sentence, if it is one."""
    slots: tuple[Slot, ...]
    negators: frozenset[str]
    """Tokens (after `normalize_text`) that negate a statement."""
    cessation: re.Pattern[str]
    """A negation that means "no longer": an update rather than a contradiction."""
    ignorable: frozenset[str]
    """Articles and auxiliaries left out when two statements are compared."""
    lemmas: Mapping[str, str]
    """Inflected forms compared as one ("has" as "have")."""


_WORD = re.compile(r"[^\W\d_]+")
_FRENCH_LETTERS = re.compile(r"[éèêëàâçîïôûùœ]")


def detect_language(text: str, languages: Sequence[Language], default: Language) -> Language:
    """The language whose stopwords the text uses most; accents count for French; ties: default."""
    words = _WORD.findall(text.casefold())
    best, best_score, tie = default, -1.0, False
    for language in languages:
        score = float(sum(word in language.stopwords for word in words))
        if language.code == "fr":
            score += 0.5 * min(len(_FRENCH_LETTERS.findall(text.casefold())), 4)
        if score > best_score:
            best, best_score, tie = language, score, False
        elif score == best_score:
            tie = True
    return default if tie or best_score <= 0 else best
