"""Numbers given anew: "around 110 guests", then "the guest list is at 130 now".

A revised count rarely keeps its sentence frame ("Budget about 18,000." then "we can go to
21,500 max now"): what ties the two is what the numbers count, a word near each that both
share ("guests"), or, for sums, amounts of one scale (a budget is not revised tenfold).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from somna.llm.rules.contacts import without_ways
from somna.llm.rules.frames import agrees
from somna.llm.rules.language import Language, detect_language
from somna.llm.rules.languages import ANSWERED, LANGUAGES, WEEKDAYS
from somna.llm.rules.text import clock_times, fold

__all__ = [
    "DATE",
    "corrects_the_question",
    "counted_words",
    "may_update_a_number",
    "number_put_right",
    "number_updated",
    "numbers_given",
]

_NUMBER = (
    r"\d{1,3}(?:[ \u202f\u00a0]\d{3})+(?!\d)"  # thousands apart by a blank: "410 000"
    r"|\d[\d,.\u202f\u00a0]*\d|\d"
)
_NUMBER_ALONE = re.compile(_NUMBER)
_TOKEN = re.compile(rf"(?P<currency>[£€$]\s?)?(?P<number>{_NUMBER})(?P<k>\s?[kK](?!\w))?|[^\W\d_]+")
_AFTER_CURRENCY = re.compile(r"\s?[£€$]")
_GROUPED = re.compile(r"\d{1,3}(?:[,.\s]\d{3})+")
_NEAR = 10
"""How many words on either side of a number say what it counts."""
_AMOUNT = 1000
"""From this value a number is an amount (a budget, a turnover, a salary), marked or not."""
_SAME_SCALE = 2.0
"""Two amounts at most this far apart (the larger over the smaller) may be one amount
revised: "18,000" then "21,500", "60-70k" then "80k"; not a seat's price and a budget."""
_ORDINALS = "|".join(language.ordinals for language in LANGUAGES if language.ordinals)
_MONTHS = "|".join(language.months for language in LANGUAGES)
_WEEKDAYS = "|".join(sorted(WEEKDAYS, key=len, reverse=True))  # "monday" before "mon"
DATE = re.compile(
    rf"\b\d{{1,2}}(?:{_ORDINALS})?\s+(?:of\s+)?(?:{_MONTHS})\w*\.?(?:\s+\d{{4}})?"
    rf"|(?:{_MONTHS})\w*\s+(?:19|20)\d\d\b|\(\s*(?:19|20)\d\d\s*\)",
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
_SIZE = "<size>"
_PEOPLE = "<people>"
"""Near a number that counts people: the speaker's group ("we're 18"), "14 guests"."""


def _stem(word: str) -> str:
    return word.casefold().removesuffix("s")


_PEOPLE_WORDS = frozenset(_stem(w) for language in LANGUAGES for w in language.people)
_CHILDREN = frozenset(_stem(w) for language in LANGUAGES for w in language.children)
_COMPARATIVES = frozenset(_stem(w) for language in LANGUAGES for w in language.comparatives)
_CHILD = "<child>"
"""The one unit of every word for children."""


_NOT_TOPICS = frozenset(_stem(w) for language in LANGUAGES for w in language.not_topics)
"""Words two statements share without being about the same thing, as stems."""
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
class _Number:
    value: float
    amount: bool
    """Marked as a sum of money ("£32", "95k") or large enough to be one."""
    bounded: bool
    """Given as a bound or an estimate ("up to", "around"): a figure that is revised."""
    near: frozenset[str]
    """The words near it, as stems: what it counts."""
    clock: bool = False
    """A time of day ("10h", "7am", "6.30pm"): held only against times of day."""
    unit: str | None = None
    """The word right after it, as a stem, when that says what it counts ("3 vans"): two
    numbers of other units count other things, whatever words they share nearby."""
    corrected: bool = False
    """Given as the value a correction replaces ("four now, not five", "36, pas 30")."""
    money: bool = False
    """Marked as a sum of money ("£32", "59 €"), not only large."""
    names: str | None = None
    """The word right before it, as a stem, when it names one thing by number ("bike 9"
    has a buckled wheel): no count of the things of that word."""

    @property
    def counts_people(self) -> bool:
        """Whether it counts people, or children ("15 kids")."""
        return _PEOPLE in self.near or self.unit == _CHILD


def may_update_a_number(new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `number_updated` can hold for `new` against any text: it gives a number and
    says something changed, or counts people (an estimate of a head count is firmed up
    without saying so), or gives a sum of money (restated, it is the sum now). Tested on
    `new` alone, before its neighbours are read.

    >>> may_update_a_number("We are 130 now."), may_update_a_number("We booked 130 chairs.")
    (True, False)
    >>> may_update_a_number("52 guests are coming.")
    True
    """
    language = detect_language(new, languages, languages[0])
    numbers = _numbers(_told(new))
    if language.change.search(fold(new)) is not None or agrees(new) or _puts_right(new, language):
        return bool(numbers)
    return any(n.counts_people or n.amount for n in numbers)


def counted_words(new: str) -> list[str]:
    """The words an older count of what `new` counts anew may be written in, beside its
    own: the words that count people, when it counts people ("we're 18 now" may update
    "lunch for 14 people"), or children, when it counts children ("22 children", "15
    kids"), to search facts for."""
    numbers = _numbers(_told(new))
    words = []
    if any(_PEOPLE in n.near for n in numbers):
        words += [w for language in LANGUAGES for w in language.people]
    if any(n.unit == _CHILD for n in numbers):
        words += [w for language in LANGUAGES for w in language.children]
    return sorted(words)


def numbers_given(new: str) -> int:
    """How many numbers an observation gives (not those of the question it answers): how
    many older figures it may update at once ("3 engineers now, up to 80k")."""
    return len({n.value for n in _numbers(_told(new))})


def number_updated(old: str, new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `new` gives a new number for what `old` counted, and says it changed: a word
    of change in `new` ("now", "finally", "désormais"), none of `new`'s numbers in `old`,
    and each counting the same thing: a word of four letters or more near a number in each
    (not the speaker's), or two amounts of one scale, the newer given as a bound or an
    estimate ("up to 80k", "plutôt 290 000"; an offer at a price revises no budget).

    >>> number_updated("Around 110 guests.", "Update: the guest list is at 130 now.")
    True
    >>> number_updated("Budget about £18,000 in total.", "We can go to 21,500 max now.")
    True
    >>> number_updated("Around 110 guests.", "We booked a band for 3 hours.")
    False

    A head count first estimated (of people or of children) is firmed up without a word
    of change, a sum of money is restated, and a figure the client says yes to is taken
    up:

    >>> number_updated("About 40 guests, give or take.", "The replies are in: 52 guests.")
    True
    >>> number_updated("Wants 5 hampers for the team.",
    ...                "The user agrees (in answer to: So that's 4 hampers then?).")
    True
    """
    language = detect_language(f"{new} {old}", languages, languages[0])
    old_numbers: Sequence[_Number] = _numbers(old)
    new_numbers = [n for n in _numbers(_told(new)) if not n.corrected]
    if language.change.search(fold(new)) is None and not agrees(new):  # a figure taken up
        if _amount_restated(old_numbers, new_numbers):
            return True
        # an estimate of people firmed up
        old_numbers = [n for n in old_numbers if n.bounded and n.counts_people]
        new_numbers = [n for n in new_numbers if n.counts_people]
    return any(  # a time of day against times of day, any other number against the others
        _updated(
            [n for n in old_numbers if n.clock is clock],
            [n for n in new_numbers if n.clock is clock],
        )
        for clock in (False, True)
    )


def number_put_right(old: str, new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `new` puts right a number `old` gave ("oops, I said 240 chairs, it's 260"):
    a word that owns a mistake, and another number for what `old` counted; the mistaken
    one may be named again.

    >>> number_put_right("30 tables and 240 chairs.", "Oops I said 240 chairs, it's 260.")
    True
    >>> number_put_right("30 tables and 240 chairs.", "We also need 260 plates.")
    False
    """
    language = detect_language(new, languages, languages[0])
    if not _puts_right(new, language):
        return False
    old_numbers = _numbers(old)
    said_before = {n.value for n in old_numbers}
    new_numbers = [n for n in _numbers(_told(new)) if n.value not in said_before]
    return any(
        _updated(
            [n for n in old_numbers if n.clock is clock],
            [n for n in new_numbers if n.clock is clock],
        )
        for clock in (False, True)
    )


def _puts_right(text: str, language: Language) -> bool:
    """Whether `text` owns a mistake: "I meant", "my bad", "oops", "pardon"."""
    folded = fold(text)
    return bool(
        language.puts_right.search(folded)
        or re.search(rf"\b(?:{language.slip})\b", folded, re.IGNORECASE)
    )


def _updated(old: Sequence[_Number], new: Sequence[_Number]) -> bool:
    """Whether a number of `new` gives anew what one of `old` counted: amounts of one
    scale none of which is said again, or a number counting what an older one counted,
    with another value that no older number of the same thing had ("so five", then "four
    people now": the four bridesmaids of the first count another thing)."""
    given = {n.value for n in new}
    if not old or not given:
        return False
    if _same_scale(old, new) and not given & {n.value for n in old}:
        return True
    return any(
        a.value != b.value
        and _same_thing(a, b)
        and not any(c.value == b.value and _same_thing(c, b) for c in old)
        for a in old
        for b in new
    )


def _same_thing(a: _Number, b: _Number) -> bool:
    """Whether two numbers count the same thing: a word near each that both share, not a sum
    of money and a number too small to be one, not two units of their own ("two offices" is
    no count of "3,500 leaflets") unless both count people, and not a while and a count."""
    if a.unit and b.unit and a.unit != b.unit and _PEOPLE not in a.near & b.near:
        return False  # "15 kids" and "22 children" both count people
    if (a.unit in _TIME_UNIT_STEMS) != (b.unit in _TIME_UNIT_STEMS):
        return False  # "waited 40 min" is no mark out of 20, "for 3 weeks" no count of vans
    if a.money != b.money and not (a.amount and b.amount):
        return False  # "80 € for two dogs" counts no dogs, "59 € a month" no months
    if any(one.names is not None and one.names == other.unit for one, other in ((a, b), (b, a))):
        return False  # "bike 9" is one of the "14 bikes", not a count of them
    shared = a.near & b.near - _NOT_TOPICS
    if a.unit is not None and a.unit == b.unit and a.unit in _TIME_UNIT_STEMS:
        # "every 8 weeks" for the house is not "every two weeks" for the shop: the stretch
        # and how often say nothing of what is done that often
        shared = frozenset(w for w in shared if w != a.unit and not _RECURRING.fullmatch(w))
    return bool(shared)


def corrects_the_question(answer: str, asked: str, language: Language) -> bool:
    """Whether an answer gives anew a number its question held ("Still 30?", "Finally
    36."): the question then holds the old value, and memory keeps the answer alone.

    >>> from somna.llm.rules.languages import ENGLISH
    >>> corrects_the_question("36 in the end, my cousins come too.", "Still 30?", ENGLISH)
    True
    >>> corrects_the_question("From now on, yes.", "Is 18 Mill Lane the address now?", ENGLISH)
    False
    """
    given = {n.value for n in _numbers(answer)}
    return (
        bool(given)
        and bool({n.value for n in _numbers(asked)} - given)
        and language.change.search(fold(answer)) is not None
    )


def _told(observation: str) -> str:
    """What an observation says, without the question it answers when it gives numbers of
    its own ("Still 30?", "36 in the end"); with it when it only confirms the question's
    ("From now on, yes", to "Is 18 Mill Lane the address from now on?")."""
    asked = ANSWERED.search(observation)
    if asked and _NUMBER_ALONE.search(observation, 0, asked.start()):
        return observation[: asked.start()]
    return observation


def _amount_restated(old: Sequence[_Number], new: Sequence[_Number]) -> bool:
    """Whether an amount of money is given again, of one scale and another value, for what
    an older amount was near the same words for ("our budget for the season is about £1,500",
    then "our fuel budget is £2,200"): a sum restated is the sum now, no word of change."""
    return any(
        a.value != b.value and _one_scale(a, b) and _same_thing(a, b)
        for a in old
        if a.amount
        for b in new
        if b.amount
    )


def _same_scale(old: Sequence[_Number], new: Sequence[_Number]) -> bool:
    return any(_one_scale(a, b) for a in old if a.amount for b in new if b.amount and b.bounded)


def _one_scale(a: _Number, b: _Number) -> bool:
    """Whether two amounts are at most `_SAME_SCALE` apart: one amount revised, maybe."""
    return max(a.value, b.value) <= _SAME_SCALE * min(a.value, b.value)


def _statement_of(text: str, at: int, ends: int) -> range:
    """Where the statement of `text` that holds `at` stands, among the statements an
    observation joins with "; " before `ends` (the question it answers)."""
    if at >= ends:
        return range(ends, len(text))
    following = text.find("; ", at, ends)
    return range(text.rfind("; ", 0, at) + 1, ends if following < 0 else following)


@lru_cache(maxsize=4096)
def _numbers(text: str) -> tuple[_Number, ...]:
    """Each number of `text` (dates and street addresses left out) with the words near it;
    those of the statement that answers a question (the first an observation joins) take
    the question's words too ("4, we load them ourselves (in answer to: How many vans?)").
    Read once per text: a night holds each older fact against many candidates."""
    # a day, a street's number or a phone's counts nothing
    undated = without_ways(_DAY_OF_MONTH.sub(" ", DATE.sub(" ", text)))
    asked = ANSWERED.search(undated)
    question = (
        frozenset(_topic_words(_TOKEN.finditer(undated, asked.start()))) if asked else frozenset()
    )
    answer_ends = undated.find("; ", 0, asked.start()) if asked else -1
    answer_ends = asked.start() if asked and answer_ends < 0 else answer_ends
    tokens = list(_TOKEN.finditer(undated))
    clocks = clock_times(undated)  # where a time of day starts ("10h", "6.30pm")
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
        if unit in _TIME_UNIT_STEMS:  # how often: what is done so often may be said far off
            near |= frozenset(_topic_words(_TOKEN.finditer(_clause_of(undated, token.start()))))
        if any(start <= token.start() < end for start, end in sizes):
            near |= {_SIZE}  # "8 x 4 m", then "9 x 4": one size
        if _counts_people(undated, tokens, i) or (
            answered and unit is None and not _of_time(tokens, i) and question & _PEOPLE_WORDS
        ):
            near |= {_PEOPLE}  # "around 120", to "How many guests?"
        numbers.append(
            _Number(
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
        return _CHILD  # "15 kids" and "22 children" count one thing
    if following[0].casefold() in _MEASURES:
        return _MEASURE  # "42 kg" measures: it counts no dog named near it
    if following[0].casefold() in _TIME_UNITS:
        return _stem(following[0])  # "10 min" is a while, whatever "min" is short for
    unit = next(_topic_words([following]), None)
    return None if unit in _NOT_TOPICS else unit


_TIME_UNITS = frozenset().union(*(language.time_units for language in LANGUAGES))
_TIME_UNIT_STEMS = frozenset(_stem(unit) for unit in _TIME_UNITS)
_RECURRING = re.compile("|".join(language.recurring.pattern for language in LANGUAGES), re.I)
_MEASURES = frozenset().union(*(language.measures for language in LANGUAGES))
_MEASURE = "<measure>"


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
    counted = j < len(tokens) and _unit(text, tokens, j - 1) not in (None, *_TIME_UNIT_STEMS)
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
