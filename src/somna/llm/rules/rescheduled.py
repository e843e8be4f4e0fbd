"""A date given anew: "from 10 to 24 July" (in answer to "Which dates?"), then weeks later
"small change, we moved the trip to 17 to 31 July"; "Thursday at 8" (to "When can you
drop it off?"), then "can we move it to Friday at 2pm instead?".

The newer statement moves a date in so many words ("move it to", "postponed", "décaler",
"finalement") and gives one the older did not, a day of the month or of the week, or a time
("Tuesday mornings", then "move it to Wednesdays"); the two date the same thing when the older
answered a question asking when, or when they share a word that is neither a date's nor a retold
statement's. A word of change alone ("now", "new") moves nothing: most of what is told is dated.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache

from somna.llm.rules.agreed import stretch_asked, with_the_time
from somna.llm.rules.asked import names_in
from somna.llm.rules.dates import WEEK_OF, day_written, month_number, moved
from somna.llm.rules.frames import agrees
from somna.llm.rules.language import Language, detect_language
from somna.llm.rules.languages import (
    ANSWERED,
    LANGUAGES,
    WEEKDAYS,
    Retold,
    weekday,
    without_question,
)
from somna.llm.rules.numbers import DATE, RECURRING
from somna.llm.rules.text import clauses, clock_moved, clock_times, fold, without_clauses
from somna.model import shared_words

__all__ = [
    "date_moved",
    "date_put_right",
    "date_shifted",
    "dates_named",
    "dates_replaced",
    "long_past",
    "may_move_a_date",
    "may_shift_a_date",
    "may_shift_a_time",
    "shifted_to",
    "time_made_over",
    "time_shifted",
    "time_shifted_to",
    "without_the_mistake",
]


def may_move_a_date(new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `date_moved` can hold for `new` against any text: it gives a date and moves
    one, or gives a time of day or a day of each month (that may move a slot agreed to or
    chosen, whatever its words), or agrees to a day or times of day proposed
    (`_slot_agreed_anew`, `_times_agreed_anew`), or puts a date right ("sorry, wrong
    date")."""
    if _agreed(new) and any(kind in {"date", "day", "time"} for kind, _ in _when(new)):
        return True
    when = _when(without_question(new))
    if not when:
        return False
    language = detect_language(new, languages, languages[0])
    folded = fold(new)
    return (
        language.reschedule.search(folded) is not None
        or language.puts_right.search(folded) is not None
        or any(k in {"time", "monthday"} for k, _ in when)
    )


def date_moved(old: str, new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `new` dates anew what `old` dated, and moves it in so many words, or gives
    another date for what `old` only agreed to ("Tuesday 17th at 8:30, ok?" "perfect", then
    "for the visit, put us down for Thursday the 19th at 2pm") or chose when asked ("When
    can we collect?" "Tuesday 3rd March", then "collect on Wednesday 11 March"), or agrees
    to another day proposed for it (`_slot_agreed_anew`).

    >>> date_moved("The user says from 10 to 24 July (in answer to: Which dates?).",
    ...            "The user says the trip was moved to 17 to 31 July.")
    True
    >>> date_moved("The user says the launch party is on 3 May.",
    ...            "The user says the launch party is on 9 May now.")
    False
    """
    language = detect_language(f"{new} {old}", languages, languages[0])
    folded = fold(new)
    moved_in_words = language.reschedule.search(folded) is not None
    said_to_move = moved_in_words or language.puts_right.search(folded) is not None
    asked = ANSWERED.search(old)
    chosen = asked is not None and language.asks_when.search(old, asked.start()) is not None
    moving = language.reschedule.search(fold(without_question(old))) is not None
    if _agreed(new) and (chosen or moving or _agreed(old) or _took_a_date(old)):
        if _slot_agreed_anew(old, new, language):
            return True
        if not said_to_move:
            return False
    if _agreed(new) and _times_agreed_anew(old, new, language):
        return True
    if _taken_instead(old, new, language) or _day_retimed(old, new):
        return True
    agreed = shared_words(_words(old, language), _words(new, language)) > 0  # the same thing
    if not dates_replaced(_dated(old), new, agreed=agreed) or not (
        said_to_move or chosen or _agreed(old)
    ):
        return False
    if not said_to_move:  # another day for the slot agreed to or chosen, the same thing named
        named = language.change.sub(" ", language.reschedule.sub(" ", fold(old)))  # "on passe"
        slot = any(
            (kind == "date" and _A_DAY.match(when)) or kind == "monthday"
            for kind, when in _when(old)
        )
        shared = shared_words(
            _words(named, language) - language.proposing,  # "morning" names no thing
            _words(without_question(new), language),
        )
        return slot and shared > 0
    if chosen and moved_in_words:
        return True
    if moved_in_words and _agreed(old) and _days_written(_dated(old)) & _days_written(new):
        return True  # "Mardi 10 février ?" "oui", then "de garde mardi 10, décaler à jeudi 12"
    answers = ANSWERED.search(new)
    asked_when = answers is not None and language.asks_when.search(new, answers.start())
    said = _when if asked_when else _said_when  # "What date would suit instead?" "the 14th"
    both = said(without_question(old)) & said(without_question(new))
    if (
        both
        and all(kind == "day" for kind, _ in both)
        and language.as_usual.search(folded)
        and not _day_ruled_out(old, new, language)
    ):
        return False  # "finally two lessons: Wednesday as usual, and Saturday": it stays
    if both and (moved_in_words or any(kind == "date" for kind, _ in both)):
        # "Wednesday doesn't work any more, Saturday?", "the 23rd, not the 21st"; a date
        # put right names the date it puts right, not only a weekday the older one names
        return True
    # what was dated may be named only in the question the old date answered ("shall we
    # start you from 1 April?" "yes please"), not by the words of a slot ("morning")
    things = _words(old, language) - language.proposing
    return shared_words(things, _words(without_question(new), language)) > 0


def date_put_right(old: str, new: str) -> bool:
    """Whether `new` puts right the date `old` gave ("sorry, I meant the 18th"): a date
    given anew (`date_moved`) by a mistake put right."""
    language = detect_language(new, LANGUAGES, LANGUAGES[0])
    return language.puts_right.search(fold(new)) is not None and date_moved(old, new)


def time_made_over(old: str, new: str) -> bool:
    """Whether `new`, said in the session of `old`, makes its one time of day another ("we
    start at 9am", then "make it half nine, the key holder can't be there sooner"; "à 9h",
    then "mettons plutôt 9h30"): said together, two times are often of two things, unless
    the newer remakes the value just given.

    >>> time_made_over("Start at 9am on the day.", "Make it 9:30, the caretaker is late.")
    True
    >>> time_made_over("Start at 9am on the day.", "We finish at 5pm.")
    False
    """
    language = detect_language(new, LANGUAGES, LANGUAGES[0])
    told = without_question(new)
    if language.remakes.search(fold(told)) is None:
        return False
    times = {when for when in _when(told) if when[0] == "time"}
    before = {when for when in _when(without_question(old)) if when[0] == "time"}
    return len(times) == 1 and len(before) == 1 and times != before


def _day_retimed(old: str, new: str) -> bool:
    """Whether `new` gives the one day of the week it names another time than the one
    `old` gives that day ("le mercredi à 14h", then "pour le mercredi ce sera 15h30"):
    the day's slot, moved within the day."""
    told, before = _when(without_question(new)), _when(without_question(old))
    days = {when for when in told if when[0] == "day"}
    times = {when for when in told if when[0] == "time"}
    earlier = {when for when in before if when[0] == "time"}
    earlier_days = {when for when in before if when[0] == "day"}
    if len(days) != 1 or len(times) != 1 or len(earlier) != 1 or earlier_days != days:
        return False  # the older time is of that day alone
    return bool(times - earlier) and not any(when[0] == "date" for when in told)


def _taken_instead(old: str, new: str, language: Language) -> bool:
    """Whether `new` takes the day a question proposed as a change ("notre tournée passe
    désormais le jeudi, ça vous irait ?" "ça me va, le jeudi c'est mieux") of what `old`
    answered, in words they share ("Notre tournée passe le mardi, ça vous convient ?"
    "mardi c'est parfait"): the answer says yes or names the day proposed, and `old`
    names another."""
    asked, answered = ANSWERED.search(new), ANSWERED.search(old)
    if asked is None or answered is None:
        return False
    question = new[asked.end() :]
    folded = fold(question)
    if language.reschedule.search(folded) is None and language.change.search(folded) is None:
        return False
    proposed = {when for when in _when(question) if when[0] in {"date", "day"}}
    taken = proposed if _agreed(new) else _when(without_question(new)) & proposed
    before = {when for when in _when(_dated(old)) if when[0] in {"date", "day"}}
    asked_before = old[answered.end() :]
    shared = shared_words(_words(asked_before, language), _words(question, language))
    return bool(taken) and bool(before - proposed) and shared > 0


def _slot_agreed_anew(old: str, new: str, language: Language) -> bool:
    """Whether a yes to another day the business proposed ("How about Tuesday 28 April,
    first thing?" "yes") replaces the slot `old` chose when asked, agreed to, or asked to
    move ("booked for the 23rd, can you move it?"): the question gives a day `old` does
    not, and names nothing `old` does not (an install proposed once a survey was agreed
    is another slot)."""
    asked = ANSWERED.search(new)
    assert asked is not None  # `_agreed`
    question = new[asked.end() :]
    before, after = _when(_dated(old)), _when(question)
    if not any(kind in {"date", "day"} for kind, _ in after - before):
        return False
    named = _words(question, language) - language.proposing - _words(old, language)
    return not named


def _times_agreed_anew(old: str, new: str, language: Language) -> bool:
    """Whether a yes to other times of day the business proposed replaces the times `old`
    gives for whom or what the question names by name too ("Biscuit has insulin at 7 and
    19h", then "we could do Biscuit's injections at 8 and 20h?" "perfect")."""
    asked = ANSWERED.search(new)
    assert asked is not None  # `_agreed`
    question = new[asked.end() :]
    before = {when for when in _when(without_question(old)) if when[0] == "time"}
    after = {when for when in _when(question) if when[0] == "time"}
    if not before or not after - before:
        return False
    return bool(_named(without_question(old)) & _named(question))


def _named(text: str) -> set[str]:
    """The names of `text`, whoever's ("Pixel's injections" names Pixel)."""
    return {name.casefold().removesuffix("'s") for name in names_in(text)}


def _dated(old: str) -> str:
    """What of `old` may date something: what it says, and the question it answered too
    when it agreed to it (`_agreed`)."""
    return old if _agreed(old) else without_question(old)


def _took_a_date(old: str) -> bool:
    """Whether `old` answers a question that proposed a date and names no other ("14th is
    fine" to "We have Tuesday 14 July free, does that work?")."""
    asked = ANSWERED.search(old)
    if asked is None:
        return False
    proposed = {when for when in _when(old[asked.end() :]) if when[0] == "date"}
    return bool(proposed) and {w for w in _when(old[: asked.start()]) if w[0] == "date"} <= proposed


def _agreed(old: str) -> bool:
    """Whether `old` takes up the date its question proposed (`agrees`), naming none of
    its own, not even a month alone ("early July please")."""
    return agrees(old) and not _when(without_question(old))


def may_shift_a_date(new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `date_shifted` can hold for `new` against any text: it moves a date by a
    stretch of time."""
    folded = fold(without_question(new))
    language = detect_language(folded, languages, languages[0])
    return (
        language.reschedule.search(folded) is not None and language.shift.search(folded) is not None
    )


def date_shifted(old: str, new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `new` moves what `old` dated by a stretch of time, in so many words ("push
    the install back a week", "décalez d'une semaine la pose"), naming no other date than
    the one it moves from: `old` gives a date (`_dated`), and `new` names it, or its day of
    the week, or the clause that moves names what `old` dates.

    >>> date_shifted("The user agrees (in answer to: The install can start Monday 20 April?).",
    ...              "The user asks to push the install back a week.")
    True
    >>> date_shifted("The party is on 3 May.", "The user asks to push the install back a week.")
    False
    """
    dated = {when for when in _when(_dated(old)) if when[0] == "date"}
    own = {when for when in _when(without_question(new)) if when[0] == "date"}
    if not may_shift_a_date(new, languages) or not dated or not own <= dated:
        return False  # no date to move, or one given anew (`date_moved`)
    if own:
        return True  # "booked for the 14th so no good; push it back a week": the date it moves
    days = {when for when in _when(without_question(new)) if when[0] == "day"}
    if days & _when(_dated(old)):
        return True  # "repousser d'une semaine, le vendredi d'après" after "vendredi 5 juin"
    language = detect_language(f"{new} {old}", languages, languages[0])
    told = fold(without_question(new))
    shift = language.shift.search(told)
    assert shift is not None  # `may_shift_a_date`
    start = max(told.rfind(stop, 0, shift.start()) for stop in ";,.") + 1
    ends = [at for stop in ";,." if (at := told.find(stop, shift.end())) >= 0]
    clause = told[start : min(ends, default=len(told))]  # the clause that names what moves
    moved = clause.replace(shift[0], " ")  # "a week" names nothing dated
    return shared_words(_words(old, language), _words(moved, language)) > 0


def shifted_to(old: str, new: str, said_on: date) -> str | None:
    """`new` with the date it moves `old`'s to written after the stretch of time, when it
    moves it by one (`date_shifted`); `old` was said on `said_on`, which gives the year its
    date leaves out. None where it moves none, or the date cannot be read.

    >>> shifted_to("The user agrees (in answer to: Install on Monday 20 April?).",
    ...            "The user asks to push the install back a week.", date(2026, 3, 16))
    'The user asks to push the install back a week (Monday 27 April 2026).'
    """
    if not date_shifted(old, new):
        return None
    dated = next(dates_named(_dated(old), said_on), None)
    if dated is None:
        return None
    language = detect_language(new, LANGUAGES, LANGUAGES[0])
    shift = language.shift.search(new)
    assert shift is not None  # `date_shifted`
    sign = -1 if language.brought_forward.search(fold(new)) else 1
    to = None if dated is None else moved(dated, shift["n"], shift["unit"], sign)
    if to is None:
        return None
    return f"{new[: shift.end()]} ({day_written(to)}){new[shift.end() :]}"


def may_shift_a_time(new: str) -> bool:
    """Whether `time_shifted` can hold for `new` against any text: it moves a time by a
    stretch of the clock, and the statement that moves it names none ("an hour later;
    they can't strip the rooms before 9:30" moves the van's time)."""
    return stretch_asked(without_question(new)) is not None


def time_shifted(old: str, new: str) -> bool:
    """Whether `new` moves the one time of a slot `old` chose when asked, agreed to, or
    took as proposed ("When is she free?" "3pm would be ideal", then "same day but an
    hour later").

    >>> time_shifted("The user says that 3pm would be ideal (in answer to: When is she free?).",
    ...              "The user asks to keep the same day but an hour later.")
    True
    >>> time_shifted("The user says the shop opens at 9am.", "The user asks for an hour later.")
    False
    """
    if not may_shift_a_time(new) or len(clock_times(_dated(old))) != 1:
        return False
    language = detect_language(old, LANGUAGES, LANGUAGES[0])
    asked = ANSWERED.search(old)
    if asked is None:
        return False
    question = old[asked.end() :]
    proposed = set(clock_times(question).values()) & set(clock_times(old[: asked.start()]).values())
    return bool(language.asks_when.search(question) or _agreed(old) or proposed)


def time_shifted_to(old: str, new: str) -> str | None:
    """`new` with the time it moves `old`'s to written after the stretch of the clock, when
    it moves the one time `old` gives ("an hour later", "une heure plus tard") and names no
    time itself; None otherwise.

    >>> time_shifted_to("The user says that 4pm would be ideal.",
    ...                 "The user asks to keep the same day but an hour later.")
    'The user asks to keep the same day but an hour later (5pm).'
    """
    shift = stretch_asked(new)
    if shift is None:
        return None
    language = detect_language(new, LANGUAGES, LANGUAGES[0])
    if shift["half"]:
        minutes = 30
    else:
        count = (
            int(shift["n"])
            if shift["n"].isdigit()
            else language.dates.numbers.get(shift["n"].casefold())
        )
        if count is None:
            return None
        minutes = count * (60 if shift["unit"].casefold().startswith(("h", "heure")) else 1)
    to = clock_moved(_dated(old), -minutes if shift["earlier"] else minutes)
    return None if to is None else with_the_time(new, shift, to)


def slot_refused(old: str, new: str) -> bool:
    """Whether `new` says, in a clause of its own, that a time or a part of the day `old`
    gives does not work, and gives another in another clause: "8h c pas possible; disons
    9h30" after "commencez à 8h", "le matin ça va pas être possible; plutôt l'aprem, à
    partir de 14h" after "il est là tous les matins, passez avant 11h".

    >>> slot_refused("Come at 8am to start.", "The porter opens at 9, so 8am is no good; say 9:30.")
    True
    >>> slot_refused("Come at 8am to start.", "Evenings are no good for calls; say 2pm.")
    False
    >>> slot_refused("Ring after 4pm, I teach.", "From 2pm; no takedown before 1pm on sunday.")
    False
    """
    language = detect_language(f"{new} {old}", LANGUAGES, LANGUAGES[0])
    before = _slots(old)
    parts = clauses(without_question(new))
    refused = [
        part
        for part in parts
        if language.no_longer.search(fold(part).casefold()) and _same_slot(_slots(part), before)
    ]
    return bool(refused) and any(
        _slots(part).named - before.named for part in parts if part not in refused
    )


@dataclass(frozen=True)
class _Slots:
    named: frozenset[tuple[str, str]]
    """The times of day and the parts of the day a text names."""
    told: frozenset[tuple[str, str]]
    """The parts of the day its times are in ("avant 11h" is in the morning)."""


def _same_slot(one: _Slots, other: _Slots) -> bool:
    """Whether two texts name one slot: a time, or a part of the day one names and the
    other names or gives a time in; two times in one part of the day are two slots ("ring
    after 4pm", "no takedown before 1pm")."""
    return bool(one.named & other.named or one.named & other.told or one.told & other.named)


def _slots(text: str) -> _Slots:
    times = {w for w in _when(text) if w[0] == "time"}
    parts = {
        ("part", part)
        for word in _WORD.findall(text.casefold())
        for language in LANGUAGES
        if (part := language.dates.day_parts.get(word)) is not None
    }
    told = {("part", _part_of_day(int(minutes))) for _, minutes in times}
    return _Slots(frozenset(times | parts), frozenset(told))


_NOON, _EVENING = 12 * 60, 18 * 60
"""Where the afternoon and the evening start, in minutes after midnight."""


def _part_of_day(minutes: int) -> str:
    return "morning" if minutes < _NOON else "afternoon" if minutes < _EVENING else "evening"


def without_the_mistake(old: str, new: str) -> str | None:
    """`new`, which puts right or moves the date `old` gave ("sorry, I meant the 18th, the
    8th was the other slot", "switch us to Wednesdays; Tuesday is our busy day"), without
    its clauses naming only the dates it replaces (memory says the date now, history the
    old one); None where it neither puts right nor moves, or keeps no date of its own.

    >>> without_the_mistake("Booked for 8 September.",
    ...     "Sorry, I meant the 18th (18 September 2026), the 8th (8 September 2026) was free.")
    'Sorry, I meant the 18th (18 September 2026).'
    >>> without_the_mistake("Collections on Tuesdays.",
    ...     "Please switch us to Wednesdays; Tuesday is our busy day.")
    'Please switch us to Wednesdays.'
    """
    told = without_question(new)
    language = detect_language(told, LANGUAGES, LANGUAGES[0])
    folded = fold(told)
    if language.puts_right.search(folded) is None and language.reschedule.search(folded) is None:
        return None
    said = _when(without_question(old)) | _when(_ANNOTATION.sub("", without_question(old)))
    retold = Retold.of(new)
    told = retold.told

    def only_the_old(clause: str) -> bool:  # "Tuesdays stay as they are" names one that stays
        when = _named_when(clause)
        return bool(when) and when <= said and not language.as_usual.search(fold(clause))

    parts = clauses(told)
    if not any(map(only_the_old, parts)) or not any(_named_when(p) - said for p in parts):
        return None  # nothing to leave out, or no date of its own
    rest = without_clauses(told, only_the_old, language.lead).rstrip(" ,;.")
    return retold.telling(rest, language)


_ANNOTATION = re.compile(r"\s*\([^()]*\)")


def _named_when(clause: str) -> frozenset[tuple[str, str]]:
    """What `clause` dates in the client's words ("not Thursday"), or else the dates its
    retelling wrote out for a bare day ("the 8th (Tuesday 8 September 2026)")."""
    said = _when(_ANNOTATION.sub("", clause))
    return said or frozenset(when for when in _when(clause) if when[0] == "date")


def dates_named(text: str, said_on: date) -> Iterator[date]:
    """The dates `text` writes with their month ("booked for 8 September", "le 14 avril
    c'est noté"), in order, each in the year that puts it no more than a month before
    `said_on` (a date said without its year is seldom long past)."""
    for _, day, month in _days_of_months(text):
        dated = _on_or_after(day, month, said_on - timedelta(days=31))
        if dated is not None:
            yield dated


def _days_of_months(text: str) -> Iterator[tuple[re.Match[str], int, int]]:
    """Each date `text` writes with its month, with its day and its month's number."""
    for written in DATE.finditer(text):
        day_month = _DAY_MONTH.search(written[0])
        month = month_number(day_month["month"]) if day_month else None
        if day_month is not None and month is not None:
            yield written, int(day_month["day"]), month


_PAST = timedelta(days=7)
"""How long before a newer message every date of an older statement must lie for it to
be over: what is moved is most often moved before its day, and told then."""
_YEAR = re.compile(r"\b(?P<year>20\d\d)\b")
_YEAR_TOLD = re.compile(r"\(\s*(?:19|20)\d\d\s*\)")
"""The year a retelling writes after "last year", "cette année": no date of its own."""
_AFTER_A_WEEKDAY = re.compile(
    rf"\b(?:{'|'.join(sorted(WEEKDAYS, key=len, reverse=True))})(?:\s+[^\W\d_]+)?\s*"
    r"\(\s*[^\W\d_]*\s*$",
    re.IGNORECASE,
)
"""A date the retelling wrote after a day of the week said alone, or with its part of the
day ("sunday evening"): the next such day, or every one."""


@lru_cache(maxsize=4096)
def long_past(text: str, said_on: date) -> bool:
    """Whether `text` writes out dates and every one of them lies more than a week before
    `said_on`: what it dated is over, and a later date dates something else ("sat 11th
    works", then in August "for the visit on thurs 3 sept, head to Unit 4 instead").
    Cached: a night holds each older statement against many newer ones.

    >>> [long_past("Saturday 11 April 2026 works.", on) for on in (date(2026, 8, 20),
    ...                                                            date(2026, 4, 14))]
    [True, False]

    Not a habit, nor a day of the week the retelling dated (maybe every one), nor what
    comes again:

    >>> [long_past(text, date(2026, 12, 1)) for text in (
    ...     "Every Monday morning.",
    ...     "Monday (Monday 6 April 2026) and thursday mornings.",
    ...     "Take it down sunday evening (Sunday 19 April 2026).",
    ...     "First visit on 29 September at 9am, then every 6 weeks.")]
    [False, False, False, False]
    """
    if RECURRING.search(text):
        return False  # "mardi en huit à 9h, puis toutes les 6 semaines": it comes again
    years = _YEAR.findall(text)  # a date retold with its year, then said again without
    dated = []
    for written, day, month in _days_of_months(text):
        if _AFTER_A_WEEKDAY.search(text, 0, written.start()):
            continue  # "lundi (Monday 6 April 2026)": maybe every Monday
        year = _YEAR.search(written[0])
        with suppress(ValueError):
            dated.append(
                date(int(year["year"] if year else years[0]), month, day)
                if year or years
                else _on_or_after(day, month, said_on - timedelta(days=31))
            )
    return bool(dated) and all(d is not None and d < said_on - _PAST for d in dated)


def _on_or_after(day: int, month: int, start: date) -> date | None:
    """The first date of that day and month from `start` on: a date said without its year
    is seldom long past."""
    for year in (start.year, start.year + 1):
        with suppress(ValueError):
            if (found := date(year, month, day)) >= start:
                return found
    return None


_A_DAY = re.compile(r"\d+ \d+$")
"""A date as `_date` reads it when it gives a day: a slot, not a month ("May 2023")."""
_DAY_MONTH = re.compile(r"(?P<day>\d{1,2})\D{0,6}?\s(?P<month>[^\W\d_]{3,})", re.IGNORECASE)


def _date(written: str) -> str:
    """A date as its day and month when it gives both ("21 june", "Sunday 21 June 2026",
    "21 juin": "21 6"), so that one date written twice is one; as written otherwise."""
    found = _DAY_MONTH.search(written)
    if found:  # by the month's number: "16 mai" and "16 May" are one date
        month = found["month"].casefold()
        return f"{found['day']} {month_number(month) or month}"
    return " ".join(written.casefold().strip("() .").split())


def dates_replaced(old: str, new: str, *, agreed: bool = False) -> bool:
    """Whether `old` gives a date, a day of the week or a time of day, and `new` one of its
    kind (a day for a day, a time for a time) that `old` does not, or (`agreed`) agrees to.

    >>> dates_replaced("Tuesday mornings and Thursday afternoons.", "Wednesday mornings now.")
    True
    """
    before, after = _when(old), _when(_dated(new) if agreed else without_question(new))
    clocks = {kind == "time" for kind, _ in before}  # "at 10:30" is no day to move
    return any(kind != "week" and (kind == "time") in clocks for kind, _ in after - before)


_MONTH_NAMES = frozenset().union(*(language.month_names for language in LANGUAGES))
_LOWER_CASE_MONTHS = frozenset().union(
    *(language.month_names for language in LANGUAGES if not language.capitalises_months)
)
_WORD = re.compile(r"[^\W\d_]+")


_DATE_WITH_DAY = re.compile(rf"(?:[^\W\d_]+\s+)?(?:{DATE.pattern})", DATE.flags)
"""A date written out with the word before it, its weekday where it has one."""


def _said_when(text: str) -> frozenset[tuple[str, str]]:
    """`_when` of `text`, without the weekdays only a date written out names: "the 9th
    (Saturday 9 May 2026)" is no Saturday said, and shares no day with another one."""
    said = _when(_DATE_WITH_DAY.sub(" ", text))
    return frozenset(w for w in _when(text) if w[0] != "day" or w in said)


def _a_month(word: str) -> bool:
    """Whether `word` names a month alone: in full, and with a capital where the language
    writes one ("may" and "march" may be no month; "juillet" and "mai" are one)."""
    folded = word.casefold()
    return folded in _MONTH_NAMES and (
        folded in _LOWER_CASE_MONTHS or (len(folded) > 3 and word[:1].isupper())
    )


_NAMED_TIMES = {
    name: minutes for language in LANGUAGES for name, minutes in language.dates.named_times.items()
}
_WEEK_OF = re.compile(rf"\({WEEK_OF} $")
"""What the dates resolved write before the Monday of a week ("next week (week of 13 April
2026)"): a week, which gives no day anew."""


@lru_cache(maxsize=4096)
def _when(text: str) -> frozenset[tuple[str, str]]:
    """The dates `text` writes out (the Monday of a week told as a week), the days of the
    week it names (by their number, whatever the language: "Thursday" and "jeudi" are
    one), the day of each month it names ("le 5 du mois"), the months it names alone
    ("early July", "fin août") and its times of day. Read once per text: each rule of a
    night asks it of the same facts again."""
    dates = {
        ("week" if _WEEK_OF.search(text, 0, match.start()) else "date", _date(match[0]))
        for match in DATE.finditer(text)
        if not _YEAR_TOLD.fullmatch(match[0])  # "last year (2025)" dates no one thing
    }
    words = fold(text).casefold().replace("'s", " ").split()
    days = {weekday(w.strip(".,;:!?()")) for w in words}
    months = {month_number(w) for w in _WORD.findall(DATE.sub(" ", text)) if _a_month(w)}
    times = {("time", str(minutes)) for minutes in clock_times(text).values()}
    times |= {
        ("time", str(_NAMED_TIMES[w])) for w in _WORD.findall(text.casefold()) if w in _NAMED_TIMES
    }
    monthly = {
        ("monthday", match["n"])
        for language in LANGUAGES
        for match in language.monthly_day.finditer(text)
    }
    return frozenset(
        dates
        | times
        | monthly
        | {("day", str(day)) for day in days if day is not None}
        | {("month", str(month)) for month in months if month is not None}
    )


def _day_ruled_out(old: str, new: str, language: Language) -> bool:
    """Whether a clause of `new` says a day of the week `old` names no longer works ("le
    jeudi ça colle plus; le mercredi plutôt; le lundi on garde")."""
    days = {w for w in _when(old) if w[0] == "day"}
    return any(
        language.no_longer.search(fold(part).casefold()) and days & _when(part)
        for part in clauses(without_question(new))
    )


def _days_written(text: str) -> frozenset[tuple[str, str]]:
    """The dates `text` writes out with their day of the month."""
    return frozenset(w for w in _when(text) if w[0] == "date" and _A_DAY.match(w[1]))


def _words(text: str, language: Language) -> set[str]:
    undated = DATE.sub(" ", fold(text).casefold())
    return {
        word.removesuffix("s")
        for word in re.findall(r"[^\W\d_]+", undated)
        if len(word) > 3
        and word not in language.stopwords
        and word not in language.not_topics
        and word not in language.floating
        and word not in language.month_names
        and word not in language.time_units  # "tous les jours" dates nothing "ce jour-là" does
        and word.removesuffix("s") not in language.dates.weekdays
    }
