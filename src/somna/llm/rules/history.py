"""What a new statement says of the value it replaces: history, which the older fact keeps.

"We're switching to monthly visits, quarterly wasn't enough", "the yard lease ended; the
scooters live at Unit 11 now", "on repasse au mensuel, l'annuel est trop cher": the clause
that names the old value and says it no longer holds explains the change. Memory says
what holds now; the superseded fact keeps what held before, and the prompt should not
read the old value as current.
"""

from __future__ import annotations

import re

from somna.llm.rules.choices import chosen
from somna.llm.rules.counts import with_the_unit_left_out
from somna.llm.rules.dates import month_number
from somna.llm.rules.language import Language, detect_language
from somna.llm.rules.languages import LANGUAGES, WEEKDAYS, Retold, is_name
from somna.llm.rules.refusals import conditional
from somna.llm.rules.text import clauses, fold, without_clauses

__all__ = ["without_the_old"]

_WORD = re.compile(r"[^\W\d_]{4,}|\d+")
_LONGEST = 10
"""The most words a clause of history holds: "quarterly wasn't enough", "the yard lease
ended at the end of May"; a longer one says more than that."""
_WORDS = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_RETOLD = frozenset({"user", "utilisateur", "assistant"})
"""Words every retold statement holds: no sign that two talk of one thing."""
_NAME = re.compile(r"(?<=[\w,;:] )[A-ZÀ-Ý][\w'-]+")
"""A capital within a clause, not opening it ("Autre chose"): maybe a name."""


def without_the_old(old: str, new: str) -> str | None:
    """`new`, which replaces `old`, without its clauses of history: each names only what
    `old` says, says it no longer holds (`Language.no_longer`), gives no value of its own
    nor a case, and stands beside a clause that gives what holds now (a value of its own,
    or more of what `old` spoke of; otherwise the clause is the change itself: "he can't
    stand the dryer any more, he panics"). None where there is none, or where what is
    left says nothing `old` did not, or says no too.

    >>> without_the_old("The user says that quarterly visits.",
    ...     "The user says that we're switching to monthly visits, quarterly wasn't enough.")
    "The user says that we're switching to monthly visits."
    >>> without_the_old("The user says that quarterly visits.",
    ...     "The user says that monthly visits from now on, quarterly works for the shop.") is None
    True
    """
    retold = Retold.of(new)
    told = retold.told.rstrip(" .")
    language = detect_language(told, LANGUAGES, LANGUAGES[0])
    before, values = _words(old, language), _values(old, language)
    parts = clauses(told)

    def anew(clause: str) -> bool:
        return bool(
            _values(clause, language) - values
            or "@" in clause
            or (_words(clause, language) & before) - _RETOLD
        )

    def history(at: int) -> bool:
        clause = parts[at]
        others = set().union(*(_words(p, language) for i, p in enumerate(parts) if i != at))
        if len(clause.split()) > _LONGEST or not _values(clause, language) <= values:
            return False  # "back on the 23rd, not the 21st" stays
        if _drops_the_old(clause, old, told, language):
            return True  # "let's go with the walnut and forget the oak"
        return (
            bool((_words(clause, language) & before) - others)
            and language.no_longer.search(fold(clause).casefold()) is not None
            and not conditional(clause)  # "if nobody's in, leave the crates": a case
            and any(anew(p) for i, p in enumerate(parts) if i != at and abs(i - at) == 1)
        )

    old_clauses = {parts[at] for at in range(len(parts)) if history(at)}
    if not old_clauses or len(old_clauses) == len(set(parts)):
        return None
    rest = without_clauses(told, old_clauses.__contains__, language.lead).rstrip(" ,;")
    rest = with_the_unit_left_out(rest, "; ".join(old_clauses))  # "45" of what: "candles"
    if not _words(rest, language) - before or (
        language.no_longer.search(fold(rest).casefold()) and not _values(rest, language) - values
    ):
        return None  # "no banner in the end, the head said no": a no throughout
    return retold.telling(rest, language)


def _drops_the_old(clause: str, old: str, told: str, language: Language) -> bool:
    """Whether `clause` drops, in so many words, a value `old` names, and what else `told`
    says chooses another of its kind ("let's go with the walnut and forget the oak", "go
    gold, so scrap the silver-grey"). A thing dropped with nothing in its place ("8
    treadmills, and drop the rowing machines") is the news itself."""
    dropped = language.drops.search(fold(clause))
    if dropped is None:
        return False
    said = set(_WORDS.findall(fold(old).casefold()))
    words = [w for w in _WORDS.findall(dropped["left"].casefold()) if w not in language.stopwords]
    if not words or not all(w in said for w in words):
        return False
    kinds = chosen(dropped["left"], about=False)
    instead = chosen(told.replace(clause, " "), about=False)
    return any(instead.get(kind, set()) - values for kind, values in kinds.items())


def _values(text: str, language: Language) -> set[str]:
    """The values `text` names, folded: numbers, in digits or words, days, months, names."""
    folded = fold(text).casefold()
    words = set(re.findall(r"[^\W\d_]+", folded))
    return (
        set(re.findall(r"\d+", folded))
        | {word for word in words if language.dates.numbers.get(word, 0) > 1}  # not "a"
        | (words & WEEKDAYS.keys())
        | {word for word in words if month_number(word) is not None and len(word) > 2}
        | {
            name.casefold()
            for name in _NAME.findall(text)
            if is_name(name) and name.casefold() not in language.stopwords
        }
    )


def _words(text: str, language: Language) -> set[str]:
    """The words of `text` that may name a value: content words and numbers, folded."""
    return {word for word in _WORD.findall(fold(text).casefold()) if word not in language.stopwords}
