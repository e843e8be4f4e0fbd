"""A part given to someone else: "ask for Ilse at the loading bay, she has the keys" after
"Odran on reception will let your driver in".

The two statements share no value of one kind and little cosine, yet the newer replaces
the older: a business that still asks for Odran asks for someone who no longer holds the
part. The parts (who lets the business in, who takes the deliveries, who handles a thing
named beside) and the words that give them are a table (`roles.toml`), English and French
side by side; so is the word that names someone new in a part ("our new caretaker, Ilse",
after "our caretaker Odran").
Only a later session gives a part anew: two people named in one breath often hold two
parts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from somna.llm.rules.asked import names_in
from somna.llm.rules.contacts import street_kinds
from somna.llm.rules.languages import ANSWERED, LANGUAGES, SAYS, without_question
from somna.llm.rules.tables import read_toml
from somna.llm.rules.text import fold, regex
from somna.model import shared_words

__all__ = ["part_given_anew", "part_words", "parts_given"]

_SENTENCE = re.compile(r"[;.!?]\s+")
"""Where a statement a part is given in ends: a part and its holder may be a comma apart
("demandez Ilse sur place, c'est elle qui réceptionne")."""
_TURN = re.compile(r",?\s+(?:so|but|donc|mais|alors)\s+|,\s+(?=c'est\s)", re.IGNORECASE)
"""Where a sentence turns to another clause, whose part is given to whom it names: "Odran
doesn't do nights so ask for Ilse" gives the part to Ilse alone, and so does "Odran part
en congé, c'est Ilse qui vous ouvrira"."""
_ASKS_WHO = re.compile(r"(?<!\w)(?:who|whom|qui)(?!\w)", re.IGNORECASE)
_FIRST_WORD = re.compile(r"[^\W\d_][\w'-]*")


@dataclass(frozen=True)
class _Part:
    name: str
    says: tuple[re.Pattern[str], ...]
    search: tuple[str, ...]
    same_thing: bool
    """Whether the part is of a thing named beside it ("handles the linen")."""


@cache
def _table() -> dict[str, Any]:
    return read_toml("roles")


@cache
def _parts() -> tuple[_Part, ...]:
    return tuple(
        _Part(
            name,
            tuple(regex(p) for p in entry["says"]),
            tuple(entry["search"]),
            entry.get("same_thing", False),
        )
        for name, entry in _table().items()
        if isinstance(entry, dict)
    )


_WORD = re.compile(r"[^\W\d_]{4,}")


@cache
def _common() -> frozenset[str]:
    """Words that name no thing a part is of: stopwords, and how the speakers are told."""
    return frozenset(
        word.casefold()
        for language in LANGUAGES
        for word in (
            *language.stopwords,
            *_WORD.findall(language.plain_user),
            *_WORD.findall(language.plain_assistant),
        )
    )


def _things(clause: str) -> frozenset[str]:
    """The words of what a clause gives a part of, but for the words that give parts and
    for names: "compte le linge et gère le stock" is of "compte", "linge", "stock"."""
    clause = SAYS.sub(" ", clause)
    for part in _parts():
        for pattern in part.says:
            clause = pattern.sub(" ", clause)
    common = _common()
    return frozenset(
        w.casefold() for w in _WORD.findall(clause) if w[0].islower() and w.casefold() not in common
    )


@cache
def _new_part() -> re.Pattern[str]:
    """A part someone is new in: "our new caretaker", "sa nouvelle assistante"."""
    words = "|".join(_table()["new"])
    return regex(rf"\b(?:{words})\s+(?P<part>[^\W\d_]{{4,}})")


_PART_LETTERS = 5
"""Letters a part's word keeps at least once its plural and feminine are left out."""


@cache
def _places() -> frozenset[str]:
    return frozenset(_table()["places"])


@lru_cache(maxsize=4096)
def _people(text: str) -> frozenset[str]:
    """The names of `text`, folded, but for places: a run of names right after "on",
    "at"… or that holds or comes before a kind of street ("on Ashby Passage", "Mill Lane").
    Cached, as `_given`: a night holds each older statement against many newer ones."""
    names = names_in(text)
    words = re.findall(r"[\w'-]+", text)
    places, kinds = _places(), street_kinds()
    found: set[str] = set()
    i = 0
    while i < len(words):
        if words[i] not in names:
            i += 1
            continue
        end = i
        while end + 1 < len(words) and words[end + 1] in names:
            end += 1
        run = words[i : end + 1]
        after = words[end + 1].casefold() if end + 1 < len(words) else ""
        place = (i > 0 and words[i - 1].casefold() in places) or any(
            w.casefold() in kinds for w in [*run, after]
        )
        if not place:
            found.update(w.casefold().removesuffix("'s") for w in run)
        i = end + 1
    return frozenset(found)


@lru_cache(maxsize=4096)
def _given(text: str) -> frozenset[str]:
    """The parts `text` gives, by name."""
    folded = fold(text)
    return frozenset(part.name for part in _parts() if any(p.search(folded) for p in part.says))


def _holders(
    statement: str, *, first_word: bool = True
) -> Iterator[tuple[str, frozenset[str], str]]:
    """Each part a statement gives, who holds it, folded, and the words it is given in:
    the names beside it, or, where it answered "who…?", the names of the answer and
    (`first_word`) its first word, a name written in lower case ("ambrose quilling, our
    caretaker" to "Who will let our fitter in?")."""
    said = without_question(statement)
    asked = ANSWERED.search(statement)
    if asked is not None and _ASKS_WHO.search(statement, asked.end()):
        answer = SAYS.sub("", said)
        named = _people(answer)
        first = _FIRST_WORD.search(answer)
        if first_word and first is not None:
            named |= {first[0].casefold()}
        for part in _given(statement[asked.end() :]):
            yield part, named, statement
    for sentence in _SENTENCE.split(said):
        for clause in _TURN.split(sentence):
            beside = _people(clause) or _people(sentence)  # "… so he can let you in"
            if beside:
                for part in _given(clause):
                    yield part, beside, clause


def part_given_anew(old: str, new: str) -> bool:
    """Whether `new` gives someone a part that `old` gave someone else, and names neither
    the older holder beside it nor itself anyone `old` names; or names someone new in a
    part `old` named another in ("our new caretaker, Ilse", after "our caretaker Odran
    has the keys").

    >>> part_given_anew("Odran Kell on reception will let your driver in.",
    ...                 "Ask for Ilse Marrow at the loading bay, she has the keys.")
    True
    >>> part_given_anew("Odran Kell on reception will let your driver in.",
    ...                 "Ilse Marrow signs for the invoices.")
    False
    >>> part_given_anew("Odran Kell has the keys, he is on the desk days.",
    ...                 "Odran doesn't do nights so ask for Ilse Marrow after 8pm.")
    True
    >>> part_given_anew("Odran Kell counts the linen and handles the stock.",
    ...                 "Ilse Marrow handles the linen now.")
    True
    >>> part_given_anew("Odran Kell handles the invoices.", "Ilse Marrow handles the rota.")
    False
    >>> part_given_anew("Odran Kell and Ilse Marrow have keys.",
    ...                 "Ilse Marrow has the keys to the side gate.")
    False
    >>> part_given_anew("Our caretaker Odran Kell always comes.",
    ...                 "Ilse Marrow, the user's new caretaker, will come from May.")
    True
    """
    everyone_old = _people(old)
    if _named_new(old, new, everyone_old):
        return True
    held: dict[str, set[str]] = {}
    things: dict[str, set[str]] = {}
    for part, named, words in _holders(old):
        held.setdefault(part, set()).update(named)
        things.setdefault(part, set()).update(_things(words))
    same_thing = {part.name for part in _parts() if part.same_thing}
    return any(
        part in held
        and named - everyone_old
        and not named & held[part]
        and (part not in same_thing or shared_words(_things(words), things[part]) > 0)
        for part, named, words in _holders(new, first_word=False)
    )


def _named_new(old: str, new: str, everyone_old: frozenset[str]) -> bool:
    """Whether `new` names someone new in a part ("Ilse, the user's new caretaker") that
    a statement of `old` names someone else in ("our caretaker Odran"): the part's word
    (plural or feminine alike) next to a name in each, a word of the language, not of a
    name ("our new Quarry Lane office" names no part)."""
    for sentence in _SENTENCE.split(without_question(new)):
        for match in _new_part().finditer(sentence):
            named = _named_beside(sentence, match.start(), match.end())
            if not named or named & everyone_old:
                continue
            part = _part_word(match["part"])
            for before in _SENTENCE.split(without_question(old)):
                for word in re.finditer(r"(?<!\w)[^\W\d_]+", before):
                    if (
                        word[0].islower()
                        and _part_word(word[0]) == part
                        and _named_beside(before, word.start(), word.end()) - named
                    ):
                        return True
    return False


_BESIDE = 30
"""Characters on either side of a part's word where the name of who holds it stands
("Ilse Marrow, our new caretaker", "notre nouvelle gardienne, Perpetua")."""


def _named_beside(text: str, start: int, end: int) -> frozenset[str]:
    """Who `text` names right before or after the stretch `start`-`end`."""
    return _people(text[max(0, start - _BESIDE) : end + _BESIDE])


def _part_word(word: str) -> str:
    """A part's word, plural and feminine alike: "caretakers" is "caretaker",
    "assistante" "assistant", "gardienne" "gardien"."""
    folded = word.casefold().removesuffix("s")
    if len(folded) <= _PART_LETTERS:
        return folded
    folded = folded.removesuffix("e")
    return folded[:-1] if folded.endswith("nn") else folded


def parts_given(text: str) -> frozenset[str]:
    """The parts `text` gives someone it names, or names someone new in ("new:caretaker"):
    those `part_given_anew` may find given otherwise before."""
    given = {part for part, named, _ in _holders(text, first_word=False) if named}
    for sentence in _SENTENCE.split(without_question(text)):
        if _people(sentence):
            given |= {f"new:{m['part'].casefold()}" for m in _new_part().finditer(sentence)}
    return frozenset(given)


def part_words(text: str) -> list[str]:
    """Words to find the older statements that gave the parts `text` gives."""
    given = parts_given(text)
    words = [word for part in _parts() if part.name in given for word in part.search]
    return words + [part.removeprefix("new:") for part in given if part.startswith("new:")]
