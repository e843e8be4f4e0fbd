"""Relative dates made absolute: "yesterday" said on 2031-03-12 is told as 11 March 2031.

An observation is read long after it was said, when "last week" no longer means
anything; the phrase is kept as said and its date added after it in parentheses, so a
quote stays verbatim and the fact says when. English and French.
"""

from __future__ import annotations

import re
from calendar import monthrange
from collections.abc import Callable
from datetime import date, timedelta

__all__ = ["resolve_dates"]

_I = re.IGNORECASE
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
_DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_JOURS = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"]
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "a couple of": 2,
    "a couple": 2,
    "un": 1,
    "une": 1,
    "deux": 2,
    "trois": 3,
    "quatre": 4,
    "cinq": 5,
    "sept": 7,
    "huit": 8,
    "dix": 10,
}


def _day(d: date) -> str:
    return f"{d.day} {_MONTHS[d.month - 1]} {d.year}"


def _month(d: date) -> str:
    return f"{_MONTHS[d.month - 1]} {d.year}"


def _week(d: date) -> str:
    return f"week of {_day(d - timedelta(days=d.weekday()))}"


def _shift_months(d: date, months: int) -> date:
    total = d.year * 12 + d.month - 1 + months
    year, month = divmod(total, 12)
    return date(year, month + 1, min(d.day, monthrange(year, month + 1)[1]))


def _weekday(d: date, name: str, direction: int) -> date:
    """The last (-1) or next (+1) named weekday strictly before or after ``d``."""
    target = (_DAYS + _JOURS).index(name.casefold()) % 7
    step = timedelta(days=direction)
    d += step
    while d.weekday() != target:
        d += step
    return d


def _ago(amount: str, unit: str, d: date, sign: int) -> str:
    n = _NUMBERS.get(amount.casefold().strip())
    n = int(amount) if n is None and amount.isdigit() else n
    if n is None:
        return ""
    unit = unit.casefold()
    if unit.startswith(("day", "jour")):
        return _day(d + timedelta(days=sign * n))
    if unit.startswith(("week", "semaine")):
        return _week(d + timedelta(weeks=sign * n))
    if unit.startswith(("month", "mois")):
        return _month(_shift_months(d, sign * n))
    return str(d.year + sign * n)


_Resolve = Callable[[re.Match[str], date], str]
_NUMBER = r"(?P<n>\d+|a couple(?: of)?|an?|one|two|three|four|five|six|seven|eight|nine|ten)"
_NOMBRE = r"(?P<n>\d+|une?|deux|trois|quatre|cinq|six|sept|huit|dix)"
_DAY_NAMES = "|".join(_DAYS)
_JOUR_NAMES = "|".join(_JOURS)
_SHORT = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4}
_SHORT |= {"sat": 5, "sun": 6}
_ANY_DAY = rf"(?P<day>{_DAY_NAMES}|{'|'.join(_SHORT)})"
"""A weekday, in full or cut short ("wed", "thurs")."""


def _coming(d: date, name: str, weeks_later: int = 0) -> date:
    """The named weekday strictly after ``d``, ``weeks_later`` weeks on."""
    folded = name.casefold()
    target = _SHORT[folded] if folded in _SHORT else (_DAYS + _JOURS).index(folded) % 7
    ahead = (target - d.weekday() - 1) % 7 + 1
    return d + timedelta(days=ahead, weeks=weeks_later)


def _day_of_month(d: date, day: str) -> str:
    """The next date, from ``d`` on, whose day of the month is ``day`` ("the 28th")."""
    n = int(day)
    for months in range(3):
        month = _shift_months(d.replace(day=1), months)
        if n <= monthrange(month.year, month.month)[1] and (months or n >= d.day):
            return _day(month.replace(day=n))
    return ""


_RULES: tuple[tuple[re.Pattern[str], _Resolve], ...] = tuple(
    (re.compile(pattern, _I), resolve)
    for pattern, resolve in (
        (r"\bthe day before yesterday\b|\bavant-hier\b", lambda m, d: _day(d - timedelta(2))),
        (r"\bthe day after tomorrow\b|\bapr[eè]s-demain\b", lambda m, d: _day(d + timedelta(2))),
        (r"\b(?:yesterday|last night|hier(?: soir)?)\b", lambda m, d: _day(d - timedelta(1))),
        (
            r"\b(?:today|tonight|this (?:morning|afternoon|evening))\b"
            r"|\baujourd'hui\b|\bce (?:matin|soir)\b",
            lambda m, d: _day(d),
        ),
        (r"\b(?:tomorrow|demain)\b", lambda m, d: _day(d + timedelta(1))),
        (
            r"\b(?:last|this past) week(?:end)?\b|\b(?:la semaine|le week-end) derni(?:er|ère)\b",
            lambda m, d: _week(d - timedelta(weeks=1)),
        ),
        (r"\bthis week(?:end)?\b|\bcette semaine\b|\bce week-end\b", lambda m, d: _week(d)),
        (
            r"\bnext week(?:end)?\b|\b(?:la semaine|le week-end) prochaine?\b",
            lambda m, d: _week(d + timedelta(weeks=1)),
        ),
        (r"\blast month\b|\ble mois dernier\b", lambda m, d: _month(_shift_months(d, -1))),
        (r"\bthis month\b|\bce mois-ci\b", lambda m, d: _month(d)),
        (r"\bnext month\b|\ble mois prochain\b", lambda m, d: _month(_shift_months(d, 1))),
        (r"\blast year\b|\bl'ann[ée]e derni[èe]re\b", lambda m, d: str(d.year - 1)),
        (r"\bthis year\b|\bcette ann[ée]e\b", lambda m, d: str(d.year)),
        (r"\bnext year\b|\bl'ann[ée]e prochaine\b", lambda m, d: str(d.year + 1)),
        (
            rf"\b(?:last|this past) (?P<day>{_DAY_NAMES})\b|\b(?P<jour>{_JOUR_NAMES}) dernier\b",
            lambda m, d: _day(_weekday(d, m["day"] or m["jour"], -1)),
        ),
        (
            rf"\b{_ANY_DAY} after next\b|\ba week on {_ANY_DAY.replace('day>', 'on>')}\b",
            lambda m, d: _day(_coming(d, m["day"] or m["on"], weeks_later=1)),
        ),
        (
            rf"\b(?P<jour>{_JOUR_NAMES}) en (?P<later>huit|quinze)\b",
            lambda m, d: _day(_coming(d, m["jour"], 1 if m["later"].casefold() == "huit" else 2)),
        ),
        (
            rf"\bnext {_ANY_DAY}\b|\b(?P<jour>{_JOUR_NAMES}) prochain\b",
            lambda m, d: _day(_coming(d, m["day"] or m["jour"])),
        ),
        (
            rf"\b(?:this|on|by|until|till) {_ANY_DAY}\b(?!s)|"
            rf"(?<!\ble )(?<!\bles )(?<!\btous les )(?<!\bchaque )\b(?P<jour>{_JOUR_NAMES})\b(?!s)",
            lambda m, d: _day(_coming(d, m["day"] or m["jour"])),
        ),
        (
            r"\b(?:on |by |until |the )*the (?P<n>[1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b"
            r"(?! of| (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))"
            r"|\ble (?P<le>[1-9]|[12]\d|3[01])\b(?! ?(?:\d|%|€|h\b|ans?\b|jan|f[ée]v|mars|avr|mai|"
            r"juin|juil|ao[uû]|sept|oct|nov|d[ée]c|personnes|euros|€))",
            lambda m, d: _day_of_month(d, m["n"] or m["le"]),
        ),
        (
            rf"\b{_NUMBER} (?P<unit>days?|weeks?|months?|years?) ago\b",
            lambda m, d: _ago(m["n"], m["unit"], d, -1),
        ),
        (
            rf"\bil y a {_NOMBRE} (?P<unit>jours?|semaines?|mois|ans?)\b",
            lambda m, d: _ago(m["n"], m["unit"], d, -1),
        ),
        (
            rf"\bin {_NUMBER} (?P<unit>days?|weeks?|months?|years?)\b",
            lambda m, d: _ago(m["n"], m["unit"], d, 1),
        ),
        (
            rf"\bdans {_NOMBRE} (?P<unit>jours?|semaines?|mois|ans?)\b",
            lambda m, d: _ago(m["n"], m["unit"], d, 1),
        ),
    )
)


def resolve_dates(text: str, said_on: date) -> str:
    """``text`` with each relative date phrase followed by its date in parentheses.

    >>> resolve_dates("I moved last month and start tomorrow.", date(2031, 3, 12))
    'I moved last month (February 2031) and start tomorrow (13 March 2031).'
    >>> resolve_dates("J'ai déménagé il y a deux semaines.", date(2031, 3, 12))
    "J'ai déménagé il y a deux semaines (week of 24 February 2031)."
    """

    found: list[tuple[int, int, str]] = []
    for pattern, resolve in _RULES:
        for match in pattern.finditer(text):
            start, end = match.span()
            if all(end <= s or start >= e for s, e, _ in found):
                told = resolve(match, said_on)
                if told:
                    found.append((start, end, told))
    for _, end, told in sorted(found, reverse=True):
        text = f"{text[:end]} ({told}){text[end:]}"
    return text
