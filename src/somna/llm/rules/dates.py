"""Relative dates made absolute: "yesterday" said on 2031-03-12 is told as 11 March 2031.

An observation is read long after it was said, when "last week" no longer means
anything; the phrase is kept as said and its date added after it in parentheses, so a
quote stays verbatim and the fact says when. Each language says its phrases in its
tables (``[dates]``, `Language.dates`): what each kind of phrase means is written here once.
"""

from __future__ import annotations

import itertools
import re
from calendar import monthrange
from collections.abc import Callable, Sequence
from contextlib import suppress
from datetime import date, timedelta

from somna.llm.rules.languages import LANGUAGES
from somna.llm.rules.text import regex

__all__ = [
    "PHRASE_KINDS",
    "WEEK_OF",
    "day_written",
    "last_date",
    "month_number",
    "moved",
    "resolve_dates",
]

_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_WEEKDAYS = {k: v for language in LANGUAGES for k, v in language.dates.weekdays.items()}
_NUMBERS = {k: v for language in LANGUAGES for k, v in language.dates.numbers.items()}
_UNITS = {k: v for language in LANGUAGES for k, v in language.dates.units.items()}
_WEEKS_ON = {k: v for language in LANGUAGES for k, v in language.dates.weeks_on.items()}


WEEK_OF = "week of"
"""What a week resolved is told by, before its Monday ("(week of 13 April 2026)")."""

_DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def day_written(d: date) -> str:
    """ "Monday 2 March 2026": the weekday too, since the phrase often named it ("lundi en
    quinze") and an agent proposing a slot needs it."""
    return f"{_DAY_NAMES[d.weekday()]} {_date(d)}"


def _date(d: date) -> str:
    return f"{d.day} {_MONTHS[d.month - 1]} {d.year}"


def _month(d: date) -> str:
    return f"{_MONTHS[d.month - 1]} {d.year}"


def _week(d: date) -> str:
    return f"{WEEK_OF} {_date(d - timedelta(days=d.weekday()))}"


def _shift_months(d: date, months: int) -> date:
    total = d.year * 12 + d.month - 1 + months
    year, month = divmod(total, 12)
    return date(year, month + 1, min(d.day, monthrange(year, month + 1)[1]))


def _weekday(d: date, name: str, direction: int) -> date:
    """The last (-1) or next (+1) named weekday strictly before or after ``d``."""
    target = _WEEKDAYS[name.casefold()]
    step = timedelta(days=direction)
    d += step
    while d.weekday() != target:
        d += step
    return d


def moved(d: date, amount: str, unit: str, sign: int = 1) -> date | None:
    """`d` moved by `amount` `unit`s ("a week", "deux jours"), on (`sign` 1) or back (-1);
    None for an amount or a unit the tables do not know."""
    n = _NUMBERS.get(amount.casefold().strip())
    n = int(amount) if n is None and amount.isdigit() else n
    kind = _UNITS.get(unit.casefold())
    if n is None or kind is None:
        return None
    if kind == "day":
        return d + timedelta(days=sign * n)
    if kind == "week":
        return d + timedelta(weeks=sign * n)
    return _shift_months(d, sign * n * (1 if kind == "month" else 12))


def _ago(amount: str, unit: str, d: date, sign: int) -> str:
    to = moved(d, amount, unit, sign)
    if to is None:
        return ""
    kind = _UNITS[unit.casefold()]
    if kind == "day":
        return day_written(to)
    if kind == "week":
        return _week(to)
    return _month(to) if kind == "month" else str(to.year)


_Groups = Callable[[str], str]
"""A match's group by name, in whichever language's phrase it matched."""
_Resolve = Callable[[_Groups, date], str]


def _coming(d: date, name: str, weeks_later: int = 0) -> date:
    """The named weekday strictly after ``d``, ``weeks_later`` weeks on."""
    target = _WEEKDAYS[name.casefold()]
    ahead = (target - d.weekday() - 1) % 7 + 1
    return d + timedelta(days=ahead, weeks=weeks_later)


def _in_week_of(d: date, name: str, weeks: int) -> date:
    """The named weekday of the week ``weeks`` weeks after ``d``'s: "mardi en huit" said on
    a Tuesday is a week later, "lundi en quinze" the Monday of the week after next."""
    monday = d + timedelta(weeks=weeks) - timedelta(days=d.weekday())
    return monday + timedelta(days=_WEEKDAYS[name.casefold()])


def _day_of_month(d: date, day: str) -> str:
    """The next date, from ``d`` on, whose day of the month is ``day`` ("the 28th")."""
    n = int(day)
    for months in range(3):
        month = _shift_months(d.replace(day=1), months)
        if n <= monthrange(month.year, month.month)[1] and (months or n >= d.day):
            return day_written(month.replace(day=n))
    return ""


def _weekday_numbered(d: date, name: str, day: str) -> str:
    """The next date, from ``d`` on, that is both the named weekday and the day of the
    month ("Friday the 11th", "vendredi 11"), within a year; none (the phrase left as
    said) where no month has both."""
    n, target = int(day), _WEEKDAYS[name.casefold()]
    for months in range(13):
        month = _shift_months(d.replace(day=1), months)
        if n <= monthrange(month.year, month.month)[1]:
            candidate = month.replace(day=n)
            if candidate >= d and candidate.weekday() == target:
                return day_written(candidate)
    return ""


def _day_near(anchor: date, day: str, said_on: date) -> str:
    """The date of day ``day`` nearest ``anchor``, a date just written before it, and not
    before ``said_on``: "the 11th, not the 4th" means the 4th of the 11th's month."""
    n = int(day)
    options = []
    for months in (-1, 0, 1):
        month = _shift_months(anchor.replace(day=1), months)
        if n <= monthrange(month.year, month.month)[1] and month.replace(day=n) >= said_on:
            options.append(month.replace(day=n))
    if not options:
        return _day_of_month(said_on, day)
    return day_written(min(options, key=lambda option: abs(option - anchor)))


PHRASE_KINDS: tuple[tuple[str, _Resolve], ...] = (
    ("habit", lambda g, d: ""),  # "Monday to Friday", "on a Friday": no one date, left as said
    ("weekday_numbered", lambda g, d: _weekday_numbered(d, g("day"), g("n"))),
    ("two_days_ago", lambda g, d: day_written(d - timedelta(2))),
    ("in_two_days", lambda g, d: day_written(d + timedelta(2))),
    ("yesterday", lambda g, d: day_written(d - timedelta(1))),
    ("today", lambda g, d: day_written(d)),
    ("tomorrow", lambda g, d: day_written(d + timedelta(1))),
    ("last_week", lambda g, d: _week(d - timedelta(weeks=1))),
    ("this_week", lambda g, d: _week(d)),
    ("next_week", lambda g, d: _week(d + timedelta(weeks=1))),
    ("last_month", lambda g, d: _month(_shift_months(d, -1))),
    ("this_month", lambda g, d: _month(d)),
    ("next_month", lambda g, d: _month(_shift_months(d, 1))),
    ("last_year", lambda g, d: str(d.year - 1)),
    ("this_year", lambda g, d: str(d.year)),
    ("next_year", lambda g, d: str(d.year + 1)),
    ("last_weekday", lambda g, d: day_written(_weekday(d, g("day"), -1))),
    ("weekday_after", lambda g, d: ""),  # "the Thursday after": after a date said before it
    ("weekday_after_next", lambda g, d: day_written(_coming(d, g("day"), weeks_later=1))),
    (
        "weekday_weeks_on",
        lambda g, d: day_written(_in_week_of(d, g("day"), _WEEKS_ON[g("later").casefold()])),
    ),
    ("next_weekday", lambda g, d: day_written(_coming(d, g("day")))),
    ("weekday", lambda g, d: day_written(_coming(d, g("day")))),
    ("day_of_month", lambda g, d: _day_of_month(d, g("n"))),
    ("ago", lambda g, d: _ago(g("n"), g("unit"), d, -1)),
    ("in", lambda g, d: _ago(g("n"), g("unit"), d, 1)),
)
"""The kinds of phrase, in the order they are looked for: a phrase inside a longer one
already found ("the day before yesterday") is not read again."""
_GROUP = re.compile(r"\(\?P<(?P<name>\w+)>")
_DAY_NUMBER = re.compile(
    r",?\s+(?:the\s+)?(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th|er)?\b(?!\s*(?:am|pm|h\b|h\d|:|[.,]\d))",
    re.IGNORECASE,
)
"""A day of the month right after a weekday ("Saturday 14 March", "samedi 14"): the date is
written out, and the weekday names it rather than the coming one."""


def _phrases(kind: str) -> re.Pattern[str] | None:
    """One pattern of every language's phrases of ``kind``, each group numbered apart."""
    said = [
        f"(?:{language.dates.phrases[kind]})"
        for language in LANGUAGES
        if kind in language.dates.phrases
    ]
    if not said:
        return None
    number = itertools.count()
    return regex(_GROUP.sub(lambda m: f"(?P<{m['name']}__{next(number)}>", "|".join(said)))


def _groups(match: re.Match[str]) -> _Groups:
    def group(name: str) -> str:
        return next(
            value
            for key, value in match.groupdict().items()
            if value is not None and key.partition("__")[0] == name
        )

    return group


_RULES = tuple(
    (kind, pattern, resolve)
    for kind, resolve in PHRASE_KINDS
    if (pattern := _phrases(kind)) is not None
)
_NEAR_BEFORE = 40
"""How far before a bare day of the month ("not the 16th") a date it found may stand to
give the month that day is in."""
_SENTENCE_END = re.compile(r"[.!?;]")

_WRITTEN = re.compile(rf"(?P<day>\d{{1,2}}) (?P<month>{'|'.join(_MONTHS)}) (?P<year>\d{{4}})$")
_MONTH_STARTS = sorted(
    (
        (start, number)
        for language in LANGUAGES
        for number, start in enumerate(language.months.split("|"), 1)
    ),
    key=lambda found: -len(found[0]),
)
"""How each month's name starts, by its number, longest first ("juil" before "jui")."""
_DAY_AND_MONTH = re.compile(
    rf"\b(?P<day>\d{{1,2}})(?:er|st|nd|rd|th)?\s+(?:of\s+)?"
    rf"(?P<month>(?:{'|'.join(start for start, _ in _MONTH_STARTS)})[^\W\d_]*)",
    re.IGNORECASE,
)
"""A date written with its month and no year ("14 avril", "the 3rd of May")."""


def month_number(name: str) -> int | None:
    """The number of the month a word names, in any language ("juil" is 7), or None."""
    folded = name.casefold()
    return next((number for start, number in _MONTH_STARTS if folded.startswith(start)), None)


def _written_dates(text: str, said_on: date) -> list[tuple[int, date]]:
    """Where each date written with its month ends, and its date: in the year that puts it
    no more than a month before ``said_on``. They date a bare day said after them ("le
    lundi 14 avril ? ah non, le 13")."""
    found = []
    for match in _DAY_AND_MONTH.finditer(text):
        number = month_number(match["month"])
        if number is None:
            continue
        for year in (said_on.year - 1, said_on.year, said_on.year + 1):
            with suppress(ValueError):  # "31 avril" is no date
                written = date(year, number, int(match["day"]))
                if written >= said_on - timedelta(days=31):
                    found.append((match.end(), written))
                    break
    return found


def last_date(told: str, said_on: date) -> date | None:
    """The last date `told` writes with its month ("(Monday 16 March 2026)", as resolved),
    in the year `_written_dates` gives it."""
    written = _written_dates(told, said_on)
    return written[-1][1] if written else None


def _names_a_weekday(match: re.Match[str]) -> bool:
    """Whether the phrase found names a weekday (its ``day`` group)."""
    return any(key.partition("__")[0] == "day" for key, v in match.groupdict().items() if v)


_LISTED = re.compile(r"(?P<noun>[^\W\d_]{3,})\s+\d{1,4}\s*(?:,|et|ou|and|or|&)\s*(?:\w+\s+)?$")
"""A thing numbered, then another of a list ("le tome 7 et le 8", "room 4 or the 5th")."""


def _one_of_a_list(text: str, start: int) -> bool:
    """Whether the bare day at `start` numbers the next of a list of things, not a day."""
    listed = _LISTED.search(text, max(0, start - 40), start)
    return (
        listed is not None
        and listed["noun"].casefold() not in _WEEKDAYS
        and month_number(listed["noun"]) is None
    )


def resolve_dates(
    text: str,
    said_on: date,
    near: date | None = None,
    echoed: Sequence[date] = (),
    previous: date | None = None,
) -> str:
    """``text`` with each relative date phrase followed by its date in parentheses; a bare
    day of the month is the date of ``echoed`` of that day, where the reply wrote it out
    ("moved to the 22nd" "Sunday 22 November then"), and a day of the week the one date
    of ``echoed`` to come on that day ("Tuesday then" to "Tuesday 21 or Thursday 23
    April?"), or, with no date just before it in
    ``text``, near ``near``, where given: the date the conversation spoke of, that a
    message putting a date right corrects ("I meant the 18th", after "booked for 8
    September"). "The Thursday after" follows the date written just before it, or the
    last date of the sentence before it (``previous``).

    >>> resolve_dates("I moved last month and start tomorrow.", date(2031, 3, 12))
    'I moved last month (February 2031) and start tomorrow (Thursday 13 March 2031).'
    >>> resolve_dates("J'ai déménagé il y a deux semaines.", date(2031, 3, 12))
    "J'ai déménagé il y a deux semaines (week of 24 February 2031)."
    >>> resolve_dates("Could we meet on Friday 21 March, or on Monday?", date(2031, 3, 12))
    'Could we meet on Friday 21 March, or on Monday (Monday 17 March 2031)?'
    >>> resolve_dates("Lunches Monday to Friday, never on a Sunday.", date(2031, 3, 12))
    'Lunches Monday to Friday, never on a Sunday.'
    >>> resolve_dates("Not in till the 17th, so the Friday after.", date(2031, 3, 12))
    'Not in till the 17th (Monday 17 March 2031), so the Friday after (Friday 21 March 2031).'
    >>> resolve_dates("Des boîtes pour le tome 7 et le 8, livrées le 20.", date(2031, 3, 12))
    'Des boîtes pour le tome 7 et le 8, livrées le 20 (Thursday 20 March 2031).'
    """

    found: list[tuple[int, int, str, re.Match[str]]] = []
    for kind, pattern, _ in _RULES:
        for match in pattern.finditer(text):
            start, end = match.span()
            if _names_a_weekday(match) and _DAY_NUMBER.match(text, end):
                continue
            if kind == "day_of_month" and _one_of_a_list(text, start):
                continue
            if all(end <= s or start >= e for s, e, _, _ in found):
                found.append((start, end, kind, match))
    resolvers = {kind: resolve for kind, _, resolve in _RULES}
    told: list[tuple[int, str]] = []
    anchor: tuple[int, date] | None = None if near is None else (-1, near)
    dated = _written_dates(text, said_on)
    for start, end, kind, match in sorted(found, key=lambda item: item[0]):
        before = [at for at in dated if at[0] <= start and (anchor is None or at[0] > anchor[0])]
        anchor = before[-1] if before and (anchor is None or anchor[0] >= 0) else anchor
        groups = _groups(match)
        close = anchor is not None and (
            anchor[0] < 0  # the date the conversation spoke of
            or (
                start - anchor[0] <= _NEAR_BEFORE
                and not _SENTENCE_END.search(text, anchor[0], start)
            )
        )
        echo = [day for day in echoed if kind == "day_of_month" and day.day == int(groups("n"))]
        offered = {
            day
            for day in echoed
            if kind == "weekday"
            and day > said_on
            and day.weekday() == _WEEKDAYS[groups("day").casefold()]
        }
        if echo:
            said = day_written(echo[0])
        elif len(offered) == 1:  # "jeudi plutôt" to "le mardi 21 avril ou le jeudi 23 ?"
            said = day_written(offered.pop())
        elif kind == "day_of_month" and anchor is not None and close:
            said = _day_near(anchor[1], groups("n"), said_on)
        elif kind == "weekday_after" and ((anchor is not None and close) or previous):
            after = anchor[1] if anchor is not None and close else previous
            said = day_written(_coming(after, groups("day"))) if after else ""
        else:
            said = resolvers[kind](groups, said_on)
        if written := _WRITTEN.search(said):
            month = _MONTHS.index(written["month"]) + 1
            anchor = end, date(int(written["year"]), month, int(written["day"]))
        told.append((end, said))
    for end, said in sorted(told, reverse=True):
        if said:  # a phrase resolved to nothing is left as said, and no other reads it
            text = f"{text[:end]} ({said}){text[end:]}"
    return text
