"""Verdicts on (new fact, existing fact) pairs by pattern: the offline stand-in for a judge model.

In order: the same text once normalized is a duplicate; one statement and its negation
contradict (unless the new one says "no longer", which is an update); the same subject
with another value in a one-value slot ("lives in", "works at", "favourite … is"), or the
same sentence frame with another value ("… is on the monthly plan" / "… is on the annual
plan"), is superseded by the new fact (always the newer) when it says the value changed
("moved", "now", "from now on", "désormais"…) and contradicts it otherwise, for a person
to settle; so is another choice of a kind (`choices`: a plan billed otherwise, another way
to be reached), in either language; nearly the same words (Jaccard 0.8 or more) are a
duplicate; anything else is distinct.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from somna.llm.rules.choices import choice_verdict
from somna.llm.rules.frames import changed_value, holds_a_value
from somna.llm.rules.language import Language, detect_language
from somna.llm.rules.languages import LANGUAGES
from somna.llm.rules.text import fold, trim_clause
from somna.llm.tasks import Judgements, JudgePair, JudgeRequest, JudgeVerdict
from somna.model import Verdict, normalize_text

__all__ = [
    "DUPLICATE_JACCARD",
    "judge_pair",
    "judge_pairs",
    "may_change_a_value",
    "number_updated",
    "value_changed",
]

DUPLICATE_JACCARD = 0.8
_ARTICLES = re.compile(r"^(?:" + "|".join(language.articles for language in LANGUAGES) + r")\s+")
_EVOLVING = frozenset({"age"})
"""Slots whose value changes by itself: a newer value replaces the older one."""
_FLOATING = frozenset().union(*(language.floating for language in LANGUAGES))
"""Words of a retold statement ("The user says that…") and time adverbs ("now") that are
no part of a sentence's frame."""


@dataclass(frozen=True)
class _Statement:
    negated: bool
    ceased: bool
    core: tuple[str, ...]


def _statement(text: str, language: Language) -> _Statement:
    negated = False
    core = []
    for token in normalize_text(text).split():
        if token in language.negators:
            negated = True
            if token not in language.lemmas:
                continue
        token = language.lemmas.get(token, token)
        if token in language.ignorable:
            continue
        core.append(token[:-1] if len(token) > 3 and token.endswith("s") else token)
    return _Statement(negated, bool(language.cessation.search(fold(text))), tuple(core))


def _jaccard(a: Sequence[str], b: Sequence[str]) -> float:
    left, right = set(a), set(b)
    union = left | right
    return len(left & right) / len(union) if union else 1.0


@lru_cache(maxsize=4096)
def _slot(text: str, language: Language) -> tuple[str, str, str] | None:
    """(slot, subject, value) when the text gives a one-value attribute of a subject; cached,
    since a new fact is held against each of its neighbours and a neighbour against many."""
    clause = trim_clause(fold(text))
    for slot in language.slots:
        match = slot.pattern.match(clause)
        if match:
            groups = match.groupdict()
            name = slot.name
            if groups.get("thing"):
                name += ":" + normalize_text(groups["thing"])
            value = _ARTICLES.sub("", normalize_text(groups["value"]))
            return name, normalize_text(groups["subject"]), value
    return None


def _values(old: str, new: str, language: Language) -> tuple[str, str] | None:
    return changed_value(old, new, language.ignorable | _FLOATING, language.negations)


def may_change_a_value(new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `value_changed` can hold for `new` against any text: it fills a one-value
    slot in some language, or holds a word that can be a value. Tested on `new` alone,
    before a neighbour is searched for ("The user likes hiking." changes no value).

    >>> may_change_a_value("Lives in Berlin."), may_change_a_value("Enjoys long walks.")
    (True, False)
    """
    return holds_a_value(new) or any(_slot(new, language) for language in languages)


def value_changed(old: str, new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `new` says what `old` says with another value: a pair to judge, however far
    apart an embedder puts them ("Lives in Paris." / "Lives in Berlin.")."""
    language = detect_language(f"{new} {old}", languages, languages[0])
    slots = _slot(new, language), _slot(old, language)
    if slots[0] and slots[1] and slots[0][:2] == slots[1][:2]:
        return True
    return _values(old, new, language) is not None


_TOKEN = re.compile(r"\d[\d,.\u202f\u00a0]*\d|\d|[^\W\d_]+")
_NEAR = 10
"""How many words on either side of a number say what it counts."""
_ORDINALS = "|".join(language.ordinals for language in LANGUAGES if language.ordinals)
_MONTHS = "|".join(language.months for language in LANGUAGES)
_DATE = re.compile(
    rf"\b\d{{1,2}}(?:{_ORDINALS})?\s+(?:{_MONTHS})\w*\.?(?:\s+\d{{4}})?|\b(?:19|20)\d\d\b",
    re.IGNORECASE,
)
"""Dates the retelling wrote out ("16 March 2026"): no count of anything."""
_TOPIC_WORD = re.compile(r"[^\W\d_]{4,}")


def number_updated(old: str, new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `new` gives a new number for what `old` counted, and says it changed: a word
    of four letters or more near a number in each (not the speaker's), none of `new`'s
    numbers in `old`, and a word of change in `new` ("now", "update", "désormais").

    >>> number_updated("Around 110 guests.", "Update: the guest list is at 130 now.")
    True
    >>> number_updated("Around 110 guests.", "We booked a band for 3 hours.")
    False
    """
    language = detect_language(f"{new} {old}", languages, languages[0])
    if not language.change.search(fold(new)):
        return False
    old_counts, new_counts = _counted(old), _counted(new)
    if not old_counts or not new_counts or set(new_counts) & set(old_counts):
        return False
    return bool(set().union(*old_counts.values()) & set().union(*new_counts.values()) - _NOT_TOPICS)


def _counted(text: str) -> dict[str, set[str]]:
    """Each number of `text` (dates left out) with the words near it, as stems."""
    tokens = _TOKEN.findall(_DATE.sub(" ", text))
    counted: dict[str, set[str]] = {}
    for i, token in enumerate(tokens):
        if token[0].isdigit():
            near = tokens[max(0, i - _NEAR) : i + _NEAR + 1]
            counted.setdefault(_digits(token), set()).update(
                w.casefold().removesuffix("s") for w in near if _TOPIC_WORD.fullmatch(w)
            )
    return counted


def _digits(number: str) -> str:
    return "".join(ch for ch in number if ch.isdigit())


_NOT_TOPICS = frozenset().union(*(language.not_topics for language in LANGUAGES))
"""Words two statements share without being about the same thing."""


def judge_pair(pair: JudgePair, languages: Sequence[Language] = LANGUAGES) -> JudgeVerdict:
    def verdict(kind: Verdict, reason: str) -> JudgeVerdict:
        return JudgeVerdict(pair_id=pair.pair_id, verdict=kind, reason=reason)

    new, old = normalize_text(pair.new), normalize_text(pair.existing)
    if new == old:
        return verdict(Verdict.DUPLICATE, "Same statement once case and punctuation are folded.")
    language = detect_language(f"{pair.new} {pair.existing}", languages, languages[0])
    new_statement, old_statement = (
        _statement(pair.new, language),
        _statement(pair.existing, language),
    )
    if new_statement.negated != old_statement.negated and (
        _jaccard(new_statement.core, old_statement.core) >= DUPLICATE_JACCARD
    ):
        if new_statement.negated and new_statement.ceased:
            return verdict(Verdict.SUPERSEDES, "The new fact says this is no longer true.")
        return verdict(Verdict.CONTRADICTS, "One statement negates the other.")
    says_changed = bool(language.change.search(fold(pair.new))) or any(
        said.change.search(fold(pair.new_said)) for said in languages if pair.new_said
    )  # the message may be in another language than the facts retelling it
    new_slot, old_slot = _slot(pair.new, language), _slot(pair.existing, language)
    if new_slot and old_slot and new_slot[:2] == old_slot[:2]:
        name = new_slot[0].replace("_", " ").replace(":", " ")
        new_value, old_value = set(new_slot[2].split()), set(old_slot[2].split())
        if new_value <= old_value or old_value <= new_value:
            return verdict(Verdict.DUPLICATE, f"Same {name} for the same subject.")
        if says_changed or new_slot[0] in _EVOLVING:
            return verdict(Verdict.SUPERSEDES, f"Newer {name!r} for the same subject.")
        return verdict(
            Verdict.CONTRADICTS,
            f"Another {name!r} for the same subject, and nothing says it changed.",
        )
    values = _values(pair.existing, pair.new, language)
    if values is not None:
        was, now = values
        if says_changed:
            return verdict(Verdict.SUPERSEDES, f"Now {now!r} where it was {was!r}.")
        return verdict(
            Verdict.CONTRADICTS, f"{now!r} where it was {was!r}, and nothing says it changed."
        )
    chose = choice_verdict(pair.existing, pair.new, pair.new_said)
    if chose is not None:
        return verdict(chose, "Another choice of the same kind (a plan, a way to be reached).")
    similarity = _jaccard(new_statement.core, old_statement.core)
    if new_statement.negated == old_statement.negated and similarity >= DUPLICATE_JACCARD:
        return verdict(Verdict.DUPLICATE, f"Nearly the same words (Jaccard {similarity:.2f}).")
    return verdict(Verdict.DISTINCT, "No rule relates the two facts.")


def judge_pairs(request: JudgeRequest, languages: Sequence[Language] = LANGUAGES) -> Judgements:
    return Judgements(verdicts=[judge_pair(pair, languages) for pair in request.pairs])
