"""Numbers as a statement gives them, each with what it counts: the words near it, its
unit ("3 vans"), whether it is a sum of money, a bound ("up to 80k"), a time of day, or
the value a correction replaces ("36, pas 30").

Dates, street numbers and phone numbers count nothing and are left out; so are the
minutes of a time of day, which is one number ("14h30" is 14.5). The rules that judge a
number given anew (`counts`, `tallies`) read numbers here, once per text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from somna.llm.rules.contacts import without_ways
from somna.llm.rules.languages import ANSWERED, LANGUAGES, WEEKDAYS
from somna.llm.rules.text import STRETCH, clock_times, stretch_ends

__all__ = [
    "CHILD",
    "DATE",
    "NOT_TOPICS",
    "NUMBER_ALONE",
    "PEOPLE",
    "RECURRING",
    "TIME_UNIT_STEMS",
    "Number",
    "names_a_sum",
    "numbers_in",
    "written",
]

_NUMBER = (
    r"\d{1,3}(?:[ \u202f\u00a0]\d{3})+(?!\d)"  # thousands apart by a blank: "410 000"
    r"|\d[\d,.\u202f\u00a0]*\d|\d"
)
NUMBER_ALONE = re.compile(_NUMBER)
_TOKEN = re.compile(rf"(?P<currency>[£€$]\s?)?(?P<number>{_NUMBER})(?P<k>\s?[kK](?!\w))?|[^\W\d_]+")
_AFTER_CURRENCY = re.compile(r"\s?[£€$]")
_GROUPED = re.compile(r"\d{1,3}(?:[,.\s]\d{3})+")
_NEAR = 10
"""How many words on either side of a number say what it counts."""
_AMOUNT = 1000
"""From this value a number is an amount (a budget, a turnover, a salary), marked or not."""
_ORDINALS = "|".join(language.ordinals for language in LANGUAGES if language.ordinals)
_MONTHS = "|".join(
    re.escape(name)
    for name in sorted(
        frozenset().union(*(language.month_names for language in LANGUAGES)), key=len, reverse=True
    )
)
"""A month's name, whole or cut short ("mar", "march"; not the start of "markers")."""
_WEEKDAYS = "|".join(sorted(WEEKDAYS, key=len, reverse=True))  # "monday" before "mon"
_DAY_PARTS = {
    word: part for language in LANGUAGES for word, part in language.dates.day_parts.items()
}
_PART_REACH = 40
"""Characters on either side of a stretch of hours where the part of the day it is in is
named ("friday afternoon, 2 till 5")."""
DATE = re.compile(
    rf"\b\d{{1,2}}(?:{_ORDINALS})?\s+(?:of\s+)?(?:{_MONTHS})(?!\w)\.?(?:\s+\d{{4}})?"
    rf"|(?:{_MONTHS})(?!\w)\s+(?:19|20)\d\d\b|\(\s*(?:19|20)\d\d\s*\)",
    re.IGNORECASE,
)
"""Dates the retelling wrote out ("16 March 2026", "February 2026", "(2026)"): no count of
anything. A bare 2000 may be cups."""
_DAY_OF_MONTH = re.compile(
    rf"\b(?:{_WEEKDAYS})\.?\s+(?:the\s+)?\d{{1,2}}(?:{_ORDINALS})?\b"
    rf"|\b\d{{1,2}}(?:{_ORDINALS})?(?=\s*\((?:{_WEEKDAYS})\b)",
    re.IGNORECASE,
)
"""A day of the month named with its weekday ("jeudi 18", "Friday the 2nd", "the 14th
(Wednesday 14 October 2026)" as the retelling dates it): a day, no count."""
_ORDINAL = re.compile(rf"(?:{_ORDINALS})(?!\w)", re.IGNORECASE)
_MINUTES = re.compile(r"\d[:h]$", re.IGNORECASE)
"""What stands before the minutes of a time of day ("2:30", "14h30")."""
_TOPIC_WORD = re.compile(r"[^\W\d_]{4,}")
_NUMBER_WORDS = {
    word: value
    for language in LANGUAGES
    for word, value in language.dates.numbers.items()
    if value > 1 and " " not in word
}
"""Numbers written in words ("two", "deux"); not "one" nor "un", which are mostly articles."""
_DIMENSIONS = re.compile(
    r"(?<![\d.,])\d+(?:[.,]\d+)?\s*(?:c?m\b\s*)?(?:x|\u00d7|by|par|sur)\s*\d+(?:[.,]\d+)?(?![.,]?\d)",
    re.IGNORECASE,
)
"""A size given as two lengths ("8 x 4 m", "4m by 3", "9 par 4"): one thing measured."""
_METRES_SAID = re.compile(r"(?<![\w.,])(\d{1,2})\s?m\s?(\d{2})(?!\w|[.,]\d)")
"""A length said in metres and centimetres at once ("1m20", "2 m 50"): one length."""
_SIZE = "<size>"
PEOPLE = "<people>"
"""Near a number that counts people: the speaker's group ("we're 18"), "14 guests"."""


def _stem(word: str) -> str:
    return word.casefold().removesuffix("s")


def written(value: float) -> str:
    """A pattern of `value` as a statement writes it, in digits or in words ("2", "two",
    "deux"), where no digit nor letter touches it.

    >>> bool(re.search(written(2), "Still the two vans?")), bool(re.search(written(2), "12"))
    (True, False)
    """
    digits = str(int(value)) if value == int(value) else re.escape(str(value))
    words = [re.escape(w) for w, v in _NUMBER_WORDS.items() if v == value]
    return rf"(?<![\w.,])(?:{'|'.join([digits, *words])})(?![\w]|[.,]\d)"


_PEOPLE_WORDS = frozenset(_stem(w) for language in LANGUAGES for w in language.people)
_CHILDREN = frozenset(_stem(w) for language in LANGUAGES for w in language.children)
_COMPARATIVES = frozenset(_stem(w) for language in LANGUAGES for w in language.comparatives)
CHILD = "<child>"
"""The one unit of every word for children."""


NOT_TOPICS = frozenset(
    _stem(w) for language in LANGUAGES for w in language.not_topics | language.filler
)
"""Words two statements share without being about the same thing, and words that say
nothing on their own ("tout le bloc", "62 en tout"), as stems."""
_BOUND = re.compile(
    r"(?<!\w)(?:" + "|".join(language.bounds for language in LANGUAGES) + r")(?!\w)", re.IGNORECASE
)
_CORRECTED = re.compile(
    r"(?<!\w)(?:" + "|".join(language.instead for language in LANGUAGES) + r")\s*[£€$]?$",
    re.IGNORECASE,
)
"""What puts a number as the value a correction replaces, right before it ("not five")."""
_BOUND_REACH = 3
"""How many words from a figure a word bounding it stands ("up to 80k", "21,500 max")."""


@dataclass(frozen=True)
class Number:
    value: float
    amount: bool
    """Marked as a sum of money ("£32", "95k") or large enough to be one."""
    bounded: bool
    """Given as a bound or an estimate ("up to", "around"): a figure that is revised."""
    near: frozenset[str]
    """The words near it, as stems: what it counts."""
    clock: bool = False
    """A time of day ("10h", "7am", "6.30pm"), its value in hours ("14h30" is 14.5): held
    only against times of day."""
    unit: str | None = None
    """The word after it, as a stem, when it says what is counted ("3 vans"): one unit each."""
    corrected: bool = False
    """Given as the value a correction replaces ("four now, not five", "36, pas 30")."""
    money: bool = False
    """Marked as a sum of money ("£32", "59 €"), not only large."""
    names: str | None = None
    """The word before it, as a stem, when it names one thing ("bike 9"): no count of bikes."""

    @property
    def counts_people(self) -> bool:
        """Whether it counts people, or children ("15 kids")."""
        return PEOPLE in self.near or self.unit == CHILD


def _statement_of(text: str, at: int, ends: int) -> range:
    """Where the statement of `text` that holds `at` stands, among the statements an
    observation joins with "; " before `ends` (the question it answers)."""
    if at >= ends:
        return range(ends, len(text))
    following = text.find("; ", at, ends)
    return range(text.rfind("; ", 0, at) + 1, ends if following < 0 else following)


@lru_cache(maxsize=4096)
def numbers_in(text: str) -> tuple[Number, ...]:
    """Each number of `text` (dates and street addresses left out) with the words near it;
    those of the statement that answers a question (the first an observation joins) take
    the question's words too ("4, we load them ourselves (in answer to: How many vans?)").
    Read once per text: a night holds each older fact against many candidates."""
    # a day, a street's number or a phone's counts nothing
    undated = without_ways(_DAY_OF_MONTH.sub(" ", DATE.sub(" ", text)))
    undated = _METRES_SAID.sub(r"\1.\2 m", undated)  # "1m20": 1.20 m
    asked = ANSWERED.search(undated)
    question = (
        frozenset(_topic_words(_TOKEN.finditer(undated, asked.start()))) if asked else frozenset()
    )
    answer_ends = undated.find("; ", 0, asked.start()) if asked else -1
    answer_ends = asked.start() if asked and answer_ends < 0 else answer_ends
    tokens = list(_TOKEN.finditer(undated))
    clocks = clock_times(undated) | _hours_of_a_stretch(undated)  # "10h", "6.30pm", "2 till 5"
    sizes = [m.span() for m in _DIMENSIONS.finditer(undated)]
    numbers = []
    for i, token in enumerate(tokens):
        worded = _NUMBER_WORDS.get(token[0].casefold()) if token["number"] is None else None
        if (token["number"] is None and worded is None) or _ORDINAL.match(undated, token.end()):
            continue  # "a 3rd café" ranks, it counts nothing
        if _MINUTES.search(undated, max(0, token.start() - 2), token.start()):
            continue  # the minutes of "2:30pm", "14h30": the time is one number
        if token["number"] is not None and token.start() and undated[token.start() - 1].isalpha():
            continue  # a model or a size named with a number ("a Yamaha b1", "A3 posters")
        value = worded or _value(token["number"]) * (1000 if token["k"] else 1)
        value = clocks[token.start()] / 60 if token.start() in clocks else value  # 7h15: 7.25
        marked = bool(
            token["currency"] or token["k"] or _AFTER_CURRENCY.match(undated, token.end())
        )
        around = undated[
            tokens[max(0, i - _BOUND_REACH)].start() : tokens[
                min(len(tokens) - 1, i + _BOUND_REACH)
            ].end()
        ]
        window = tokens[max(0, i - _NEAR) : i + _NEAR + 1]
        said_in = _statement_of(undated, token.start(), asked.start() if asked else len(undated))
        near = frozenset(_topic_words(t for t in window if t.start() in said_in))
        answered = token.start() < answer_ends
        unit = _unit(undated, tokens, i)
        if unit in TIME_UNIT_STEMS:  # how often: what is done so often may be said far off
            near |= frozenset(_topic_words(_TOKEN.finditer(_clause_of(undated, token.start()))))
        if any(start <= token.start() < end for start, end in sizes):
            near |= {_SIZE}  # "8 x 4 m", then "9 x 4": one size
        if _counts_people(undated, tokens, i) or (
            answered and unit is None and not _of_time(tokens, i) and question & _PEOPLE_WORDS
        ):
            near |= {PEOPLE}  # "around 120", to "How many guests?"
        numbers.append(
            Number(
                value,
                marked or value >= _AMOUNT,
                _BOUND.search(around) is not None,
                near | question if answered else near,
                token.start() in clocks,
                unit,
                _CORRECTED.search(undated, 0, token.start()) is not None,
                marked and not token["k"],
                _named_by(undated, tokens, i) if unit is None else None,
            )
        )
    return tuple(numbers)


def _hours_of_a_stretch(text: str) -> dict[int, int]:
    """The two ends of a stretch of the day written as bare hours, in minutes after
    midnight by where each starts, where a part of the day is named beside it or both
    give minutes: "afternoon, 2 till 5" is 14:00 to 17:00, "8.30 til 11.30" 8:30 to 11:30.

    >>> _hours_of_a_stretch("friday afternoon, 2 till 5")
    {18: 840, 25: 1020}
    >>> _hours_of_a_stretch("1 to 4 rooms")
    {}
    """
    found = {}
    for match in STRETCH.finditer(text):
        around = text[max(0, match.start() - _PART_REACH) : match.end() + _PART_REACH].casefold()
        parts = {_DAY_PARTS[w] for w in re.findall(r"[^\W\d_][\w-]*", around) if w in _DAY_PARTS}
        if len(parts) != 1 and not (match["a_minute"] and match["b_minute"]):
            continue
        later = parts in ({"afternoon"}, {"evening"})
        found[match.start("a")], found[match.start("b")] = stretch_ends(match, 12 if later else 0)
    return found


def names_a_sum(text: str) -> bool:
    """Whether `text` names a sum of money ("£265 a swap", "14 900 € TTC")."""
    return any(n.money for n in numbers_in(text))


def _named_by(text: str, tokens: Sequence[re.Match[str]], i: int) -> str | None:
    """The word right before the number of `tokens[i]`, as a stem, when nothing parts them
    and it says what kind of thing the number names ("bike 9", "room 12")."""
    if i == 0 or text[tokens[i - 1].end() : tokens[i].start()].strip():
        return None
    return next(_topic_words([tokens[i - 1]]), None)


def _clause_of(text: str, at: int) -> str:
    """What `text` tells around the place `at`: its statements, or the question in brackets."""
    starts = [text.rfind(stop, 0, at) for stop in _CLAUSE_STOPS]
    ends = [end for stop in _CLAUSE_STOPS if (end := text.find(stop, at)) >= 0]
    return text[max(starts) + 1 : min(ends, default=len(text))]


_CLAUSE_STOPS = ("(", ")")


def _unit(text: str, tokens: Sequence[re.Match[str]], i: int) -> str | None:
    """The word right after the number of `tokens[i]`, when it says what is counted: a
    common word ("3 vans"), not a name ("18 Quarry Lane") nor past a comma; a unit of
    measure stands for all of them ("42 kg", "3 m")."""
    if i + 1 >= len(tokens):
        return None
    following = tokens[i + 1]
    if (
        i + 2 < len(tokens)
        and tokens[i + 2]["number"] is not None
        and _RANGED.fullmatch(text[tokens[i].end() : tokens[i + 2].start()])
    ):
        return _unit(text, tokens, i + 2)  # "36 or 60 months": both count months
    if text[tokens[i].end() : following.start()].strip() or not following[0][:1].islower():
        return None
    j = i + 1  # "14 e-cargo bikes", "2,000 tri-fold brochures": the word the compound leads to
    while j + 1 < len(tokens) and text[tokens[j].end() : tokens[j + 1].start()] == "-":
        j += 1
    if (
        j > i + 1
        and j + 1 < len(tokens)
        and not text[tokens[j].end() : tokens[j + 1].start()].strip()
    ):
        following = tokens[j + 1]
    if _stem(following[0]) in _CHILDREN:
        return CHILD  # "15 kids" and "22 children" count one thing
    elided = text.startswith(_APOSTROPHES, following.end())  # "ils sont 4 l'utilisateur…"
    if following[0].casefold() in _MEASURES and not elided:
        return _MEASURE  # "42 kg" measures: it counts no dog named near it
    if following[0].casefold() in _TIME_UNITS:
        return _stem(following[0])  # "10 min" is a while, whatever "min" is short for
    if _BOUND.fullmatch(following[0]):
        return None  # "on serait 25 normalement": an estimate, no unit
    unit = next(_topic_words([following]), None)
    return None if unit in NOT_TOPICS else unit


_RANGED = re.compile(r"\s*(?:-|\u2013|or|to|ou|à)\s*", re.IGNORECASE)
"""What stands between two numbers of one unit ("36 or 60 months", "de 10 à 12 kg")."""
_TIME_UNITS = frozenset().union(*(language.time_units for language in LANGUAGES))
TIME_UNIT_STEMS = frozenset(_stem(unit) for unit in _TIME_UNITS)
RECURRING = re.compile("|".join(language.recurring.pattern for language in LANGUAGES), re.I)
_MEASURES = frozenset().union(*(language.measures for language in LANGUAGES))
_MEASURE = "<measure>"
_APOSTROPHES = ("'", "\u2019")


def _of_time(tokens: Sequence[re.Match[str]], i: int) -> bool:
    """Whether the number of `tokens[i]` counts time ("10 ans", "3 years"): no head count."""
    return i + 1 < len(tokens) and tokens[i + 1][0].casefold() in _TIME_UNITS


def _counts_people(text: str, tokens: Sequence[re.Match[str]], i: int) -> bool:
    """Whether the number of `tokens[i]` counts people: the speaker's group is that many
    ("we're 18 now", "on est donc 3"), or a word that counts people follows it close."""
    after = tokens[i + 1 : i + 3]
    if any(_stem(t[0]) in _PEOPLE_WORDS for t in after):
        return True
    j = i + 1  # "there are two more windows" counts windows; "we're 18 now, …" people
    while j < len(tokens) and _stem(tokens[j][0]) in _COMPARATIVES:
        j += 1
    counted = j < len(tokens) and _unit(text, tokens, j - 1) not in (None, *TIME_UNIT_STEMS)
    return not counted and any(
        language.group_count.search(text, 0, tokens[i].start()) for language in LANGUAGES
    )


def _topic_words(tokens: Iterable[re.Match[str]]) -> Iterator[str]:
    return (_stem(t[0]) for t in tokens if t["number"] is None and _TOPIC_WORD.fullmatch(t[0]))


def _value(number: str) -> float:
    """ "8,500", "8 500" and "8500" are 8500; "34,50" and "34.50" are 34.5."""
    digits = re.sub(r"\D", "", number)
    if _GROUPED.fullmatch(number):
        return float(digits)
    try:
        return float(re.sub(r"[^\d.]", "", number.replace(",", ".")))
    except ValueError:  # "1.2.3": a version, an address; its digits tell it apart
        return float(digits)
