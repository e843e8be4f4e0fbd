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
    "value_changed",
]

DUPLICATE_JACCARD = 0.8
_ARTICLES = re.compile(r"^(?:" + "|".join(language.articles for language in LANGUAGES) + r")\s+")
_EVOLVING = frozenset({"age"})
"""Slots whose value changes by itself: a newer value replaces the older one, unless it
is lower ("Theo is 12", then "Theo is 10"), which contradicts it."""
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
        if new_slot[0] == "name" and _one_name(new_slot[2], old_slot[2], language.titles):
            return verdict(Verdict.DUPLICATE, "The same name, one shortened or titled.")
        if new_slot[0] == "name" and _named_besides(new_slot[2], old, old_slot[2]):
            return verdict(Verdict.DISTINCT, "Someone the older fact names besides: both write.")
        if new_slot[0] in _EVOLVING and _younger(new_slot[2], old_slot[2]):
            return verdict(Verdict.CONTRADICTS, f"A lower {name!r} than before: one is wrong.")
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


def _one_name(a: str, b: str, titles: frozenset[str] = frozenset()) -> bool:
    """Whether two names are one person's: each word the same, or the opening of the
    other's, of three letters at least ("Ros Hale", "Rosalind Hale"), or a title for the
    first name ("Mrs Hale", "Dora Hale").

    >>> _one_name("ros hale", "rosalind hale"), _one_name("mrs hale", "dora hale", {"mrs"})
    (True, True)
    >>> _one_name("ros hale", "robin hale")
    False

    One word alone is one of the other's, or the family's name ("the Hales"):

    >>> _one_name("hales", "dora hale"), _one_name("dora", "dora hale")
    (True, True)
    """
    words_a, words_b = a.split(), b.split()
    if min(len(words_a), len(words_b)) == 1 and len(words_a) != len(words_b):
        (word,), others = sorted((words_a, words_b), key=len)
        return any(word in (other, f"{other}s") for other in others)
    return len(words_a) == len(words_b) and all(
        x == y
        or (min(len(x), len(y)) >= 3 and (x.startswith(y) or y.startswith(x)))
        or (i == 0 and len(words_a) > 1 and (x in titles or y in titles))
        for i, (x, y) in enumerate(zip(words_a, words_b, strict=True))
    )


def _named_besides(name: str, text: str, own: str) -> bool:
    """Whether each word of `name` stands in `text` outside `own`, the name it gives: a
    partner or a colleague it names ("Rosalba, and her fiancé Casimir Odunsby…"), who
    writes in turn ("I'm Casimir"), not the same person named otherwise.

    >>> _named_besides("casimir", "the user is rosalba vantreece, fiancé casimir odunsby",
    ...                "rosalba vantreece")
    True
    >>> _named_besides("casimir", "the user is rosalba vantreece", "rosalba vantreece")
    False
    """
    words = text.replace(own, " ").split()
    return all(word in words for word in name.split())


def _younger(new: str, old: str) -> bool:
    """Whether an age given anew is lower than the one before: time only adds to it."""
    return new.isdigit() and old.isdigit() and int(new) < int(old)


def judge_pairs(request: JudgeRequest, languages: Sequence[Language] = LANGUAGES) -> Judgements:
    return Judgements(verdicts=[judge_pair(pair, languages) for pair in request.pairs])
