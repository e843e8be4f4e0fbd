"""Counts given against an older one: "that's one more flue than I told you", "je vous
amène un sac de plus".

The new statement holds no total: the number it gives is how many are added or taken
away. What it counts is the word after that number, and the older count is the number
written before the same word in an earlier statement ("so two flues", "2 sacs"). The
new statement then replaces the older one, and says the total, so that the prompt holds
the count itself ("one more flue (3 flues in all)"), not only that it grew.

Said against what was said before ("a hundred more than I told you", "deux de moins que
prévu"), the thing may go unnamed: it is then the count the new statement itself gives
before ("sur les 12 mois on en fait deux de moins"), or else the older statement's one
amount of money, or its one count of what the new statement names (the word counted or
the words before its number: "le forfait 10 séances"; "35 adultes et 8 enfants" for
"deux de plus côté adultes").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from somna.llm.rules.language import Language, detect_language
from somna.llm.rules.languages import LANGUAGES, without_question
from somna.llm.rules.numbers import DATE, numbers_in
from somna.llm.rules.text import fold

__all__ = [
    "count_added",
    "counts_only_against_another",
    "may_add_to_a_count",
    "with_the_count_made",
]

_BETWEEN = 2
"""How many words may stand between an older count and what it counts ("8 dining chairs")."""
_TOKEN = re.compile(r"\w+")
"""A number or a word ("A1", "12B": a name, no count)."""
_SENTENCE_END = re.compile(r"[.;!?]")


def may_add_to_a_count(new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `new` gives a count against an older one, tested before any search.

    >>> may_add_to_a_count("That's one more flue than I told you."), may_add_to_a_count("2 flues.")
    (True, False)
    """
    folded = fold(new)
    return any(pattern.search(folded) for pattern in _tallies(languages))


def counts_only_against_another(new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether every number `new` gives counts against an older one ("ha no, five more
    than I said"): it says no value of its own ("19 500 max, not a cent more" does).

    >>> counts_only_against_another("ha no, five more than I said")
    True
    >>> counts_only_against_another("19 500 max, pas un centime de plus")
    False
    """
    if not may_add_to_a_count(new, languages):
        return False
    folded = fold(new)
    for pattern in _tallies(languages):
        folded = pattern.sub(" ", folded)
    return not numbers_in(folded)


def _tallies(languages: Sequence[Language]) -> list[re.Pattern[str]]:
    """Every pattern of a count given against another, in `languages`."""
    return [
        pattern
        for language in languages
        for pattern in (*language.count_added, *language.more_than_said, *language.scaled)
    ]


def count_added(old: str, new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `new` adds to, or takes from, a count `old` gives of the same thing.

    >>> count_added("We have two flues.", "That's one more flue than I told you.")
    True
    >>> count_added("We have two flues.", "One more thing: the dog stays in.")
    False
    """
    return bool(_totals(old, new, languages))


def with_the_count_made(
    old: str, new: str, languages: Sequence[Language] = LANGUAGES
) -> str | None:
    """`new` with the total it makes of `old`'s count written after what it adds; None
    where it adds to no count of `old`'s.

    >>> with_the_count_made("It's 8 dining chairs.", "Two more chairs turned up, add those.")
    'Two more chairs (10 chairs in all) turned up, add those.'
    >>> with_the_count_made("Need 3 ebikes for a week.", "My brother comes too; one more bike.")
    'My brother comes too; one more bike (4 ebikes in all).'
    >>> with_the_count_made("J'amène 2 sacs.", "J'en amène un sac de plus que prévu.")
    "J'en amène un sac de plus (3 sacs en tout) que prévu."
    >>> with_the_count_made("4 reds and 2 whites.", "One more white, and one red fewer.")
    'One more white (3 whites in all), and one red fewer (3 reds in all).'
    >>> with_the_count_made("It's 9 dining chairs.", "Two more chairs (10 chairs in all).")
    'Two more chairs (10 chairs in all).'
    """
    found = _totals(old, new, languages)
    if not found:
        return None
    for total, written, end, language in sorted(found, key=lambda made: -made[2]):
        if new.startswith(" (", end):
            continue  # made already, against another older count the fact replaces
        made = f"{total} {written}" if written else str(total)
        new = f"{new[:end]} ({language.in_all.format(made)}){new[end:]}"
    return new


_Total = tuple[int | str, str, int, Language]
"""A total made: the count or amount, the word it counts, where its phrase ends, the language."""


def _totals(old: str, new: str, languages: Sequence[Language]) -> list[_Total]:
    """Each total `new` makes of `old`'s counts ("one more white, and one red fewer"): the
    total, the counted word as `old` writes it (empty for an amount, whose total carries
    its currency, and for a multiple, written whole), where `new`'s phrase ends, and
    `new`'s language."""
    language = detect_language(new, languages, languages[0])
    folded = fold(new)
    for pattern in language.scaled:  # "double it each month", then "3 more just this once"
        scaled = pattern.search(folded)
        if scaled is not None and (multiple := _scaled_total(old, folded, scaled, language)):
            return [multiple]
    made: dict[int, _Total] = {
        total[2]: total  # two patterns may read one phrase: one total where it ends
        for pattern in language.count_added
        for added in pattern.finditer(folded)
        if (total := _made(old, added, language)) is not None
    }
    if made:
        return list(made.values())
    for pattern in language.more_than_said:
        if (said := pattern.search(folded)) is not None:
            against = _made_against_said(old, folded, said, language)
            return [] if against is None else [against]
    return []


def _made(
    old: str, added: re.Match[str], language: Language
) -> tuple[int, str, int, Language] | None:
    by = _value(added["n"], language)
    counted = _older_count(fold(old), _stem(added["what"]), language)
    if by is None or counted is None:
        return None
    before, written = counted
    total = before - by if added["fewer"] else before + by
    if total < 1:
        return None
    return total, written if total > 1 else added["what"], added.end(), language


def _made_against_said(
    old: str, new: str, said: re.Match[str], language: Language
) -> _Total | None:
    """The total of a count or amount given against what was said ("two hundred more than
    I said"), the thing named, counted before in the same sentence, or neither."""
    by = _value(said["n"], language)
    if by is None:
        return None
    by *= (100 if said.groupdict().get("hundred") else 1) * (-1 if said["fewer"] else 1)
    end = said.end("more")
    if what := said.groupdict().get("what"):
        counted = _older_count(fold(old), _stem(what), language)
        return _counted_total(counted[0] + by, counted[1], end, language) if counted else None
    sentence = _SENTENCE_END.split(new[: said.start()])[-1]
    if given := _counts_of(sentence, language):  # "sur les 12 mois on en fait deux de moins"
        value, word, _ = given[-1]
        if _older_count(fold(old), _stem(word), language) is None:
            return None
        return _counted_total(value + by, word, end, language)
    if not _topics(old, language) & _topics(new, language):
        return None
    if any(said.groupdict().get(group) for group in ("currency", "money", "hundred")):
        total = _amount_made(old, by)
        return (total, "", end, language) if total else None
    topics = _topics(new, language)
    counts = _counts_of(fold(old), language)
    for named in (  # "two fewer" of the plants, not of the treatment rooms counted beside
        [(value, word) for value, word, _ in counts if _topics(word, language) & topics],
        [(v, w) for v, w, before in counts if _topics(f"{before} {w}", language) & topics],
        # the one count of a statement on the topic ("the dinner menus…; 80 copies")
        [(value, word) for value, word, _ in counts],
    ):
        if len(named) == 1:
            return _counted_total(named[0][0] + by, named[0][1], end, language)
    return None


def _scaled_total(
    old: str, new: str, scaled: re.Match[str], language: Language
) -> tuple[str, str, int, Language] | None:
    """The count `new` makes by multiplying `old`'s ("double the block" after "a 10-lesson
    block": "20-lesson block"), written as `old` writes its count; the thing named, or the
    one count of `old` whose word `new` names too."""
    groups = scaled.groupdict()
    factor = 2 if groups.get("twice") else 3 if groups.get("thrice") else 0.5
    if what := groups.get("what"):
        found = _older_phrase(fold(old), _stem(what), language)
    else:
        topics = _topics(new, language)
        named = [c for c in _counts_of(fold(old), language) if _topics(c[1], language) & topics]
        found = _older_phrase(fold(old), _stem(named[0][1]), language) if len(named) == 1 else None
    if found is None or (total := found[0] * factor) != int(total) or total < 1:
        return None
    value, phrase = found  # the total is the older phrase, its number made anew
    return phrase.replace(str(value), str(int(total)), 1), "", scaled.end(), language


def _older_phrase(old: str, stem: str, language: Language) -> tuple[int, str] | None:
    """The last count of `old` of what `stem` names, in digits, and its words as `old`
    writes them: the number before the word ("10-lesson block", "6 pots") or after it
    ("block of 10")."""
    found = _last_count(old, stem, language, after=True)
    if found is None or not found[1][0].isdigit():
        return None
    value, number, word = found
    return value, old[min(number.start(), word.start()) : max(number.end(), word.end())]


def _amount_made(old: str, by: int) -> str | None:
    """The one sum of money of `old` with `by` added, written as `old` writes its sum
    ("£1,400" gives "£1,600"; "2 400 €" gives "2 600 €"); None for none, or several."""
    amounts = list(_AMOUNT.finditer(old))
    if len(amounts) != 1:
        return None
    amount = amounts[0]
    number = amount["number"] or amount["number2"]
    total = int(re.sub(r"\D", "", number)) + by
    if total < 1:
        return None
    grouped = f"{total:,}"
    for separator in (" ", "\u202f", "\u00a0"):
        if separator in number:
            grouped = grouped.replace(",", separator)
    written = grouped if re.search(r"\D", number) else str(total)
    return f"{amount['before'] or ''}{written}{amount['after'] or ''}"


def _counted_total(
    total: int, written: str, end: int, language: Language
) -> tuple[int, str, int, Language] | None:
    return (total, written, end, language) if total >= 1 else None


_AMOUNT = re.compile(
    r"(?P<before>[£€$]\s?)(?P<number>\d{1,3}(?:,\d{3})+|\d+)(?![\d,])"
    r"|(?P<number2>\d{1,3}(?:[ \u202f\u00a0]\d{3})+|\d+)(?P<after>\s?€)"
)
"""An amount of money in the older statement: "£1,400", "€80", "60 €"."""


def _counts_of(text: str, language: Language) -> list[tuple[int, str, str]]:
    """Each number of `text` right before a word, with that word and the words just before
    the number ("forfait 10 séances", "la carte de 12 entrées"); no date ("13 juin")."""
    undated = DATE.sub(" ", text)
    words = list(_TOKEN.finditer(undated))
    return [
        (value, following[0], " ".join(w[0] for w in words[max(0, i - _BETWEEN) : i]))
        for i, (number, following) in enumerate(pairwise(words))
        if (value := _value(number[0], language)) is not None
        and (value > 1 or number[0].isdigit())
        and following[0].isalpha()
        and following[0].casefold() not in language.stopwords
        and not undated[number.end() : following.start()].strip(" -")  # not "le 19 (Tuesday"
    ]


def _topics(text: str, language: Language) -> frozenset[str]:
    """The words of `text` that say what it is about, cut to a crude stem."""
    return frozenset(
        word[:5]
        for word in re.findall(r"[^\W\d_]{4,}", fold(text).casefold())
        if word not in language.stopwords and word not in _NOT_TOPICS
    )


_NOT_TOPICS = frozenset().union(*(language.not_topics for language in LANGUAGES))


def _older_count(old: str, stem: str, language: Language) -> tuple[int, str] | None:
    """The last number of `old` written before a word of `stem`, and that word: of what
    `old` says, else of the question it answered ("6 mois" of "6 mois pour tester", not
    the "12 mois" the question offered)."""
    told = without_question(old)
    found = _last_count(told, stem, language)
    if found is None and told != old:
        found = _last_count(old, stem, language)
    return None if found is None else (found[0], found[2][0])


def _last_count(
    old: str, stem: str, language: Language, *, after: bool = False
) -> tuple[int, re.Match[str], re.Match[str]] | None:
    """The last number of `old` written just before a word of `stem` (with `after`, or
    just after it: "block of 10"): its value, the number and the word."""
    words = list(_TOKEN.finditer(old))
    found = None
    for i, word in enumerate(words):
        if not _counts(_stem(word[0]), stem) or language.vague.fullmatch(word[0]):
            continue  # "no chicken anything" counts no thing
        around = [*reversed(words[max(0, i - _BETWEEN - 1) : i])]
        for number in around + (words[i + 1 : i + 3] if after else []):
            value = _value(number[0], language)
            if _PRICED.match(old, number.end()) or old[: number.start()].endswith(_CURRENCY):
                continue  # "24 € par personne" is a price, no count of people
            if _STOP.search(old, min(number.end(), word.end()), max(number.start(), word.start())):
                continue  # "this year (2026); One thing…" counts no thing
            if value is not None and (value > 1 or number[0].isdigit()):  # "one" may be "a"
                found = value, number, word
                break
    return found


_STOP = re.compile(r"[();.!?]")
_CURRENCY = ("£", "€", "$")
_PRICED = re.compile(r"\s?[£€$]")


def _counts(older: str, stem: str) -> bool:
    """Whether a word of an older count counts what `stem` names: the same word, one
    ending in it ("ebikes" for "one more bike"), or any count of people for people named
    as such ("14 personnes de plus" after "90 invités")."""
    return (
        older == stem
        or (len(stem) >= 4 and older.endswith(stem))
        or (stem in _ANYONE and older in _PEOPLE)
    )


def _value(number: str, language: Language) -> int | None:
    if number.isdigit():
        return int(number)
    return language.dates.numbers.get(number.casefold())


def _stem(word: str) -> str:
    """A word without its plural ending: "flues", "chaises", "tréteaux", "chevaux"."""
    word = word.casefold()
    if word.endswith("aux") and not word.endswith("eaux"):
        return word[:-3] + "al"
    return word.removesuffix("s").removesuffix("x")


_PEOPLE = frozenset(_stem(word) for language in LANGUAGES for word in language.people)
_ANYONE = frozenset(_stem(word) for language in LANGUAGES for word in language.anyone)
