"""The time a stretch of the clock comes to, as the reply that takes it up names it.

"Could the Wednesday slot be half an hour earlier?" "Yes, we'll come at 6am": where the
client never said the older time (the agent proposed it), no rule can work out the newer
one; the agent's reply, when it takes the request up and names one time, says it. The
client's statement is told with it ("half an hour earlier (6am)"), as
`rescheduled.time_shifted_to` tells the time it works out from an older statement.
"""

from __future__ import annotations

import re

from somna.llm.rules.language import detect_language
from somna.llm.rules.languages import LANGUAGES, without_question
from somna.llm.rules.text import clock_times, fold

__all__ = ["stretch_asked", "with_the_time", "with_the_time_agreed"]

_WRITTEN = re.compile(r"[^\s,;!?)]+")


def with_the_time_agreed(told: str, reply: str) -> str:
    """`told` with the one time `reply` names written after the stretch of the clock it
    asks for, when it names none itself and the reply does not turn it down.

    >>> with_the_time_agreed("The user asks that the slot be half an hour earlier.",
    ...                      "Yes, we'll come at 6am from next month.")
    'The user asks that the slot be half an hour earlier (6am).'
    >>> with_the_time_agreed("The user asks that the slot be half an hour earlier.",
    ...                      "Sorry, we can't come before 6:30am.")
    'The user asks that the slot be half an hour earlier.'
    """
    shift = stretch_asked(told)
    if shift is None or any(other.declines.match(fold(reply).strip()) for other in LANGUAGES):
        return told
    times = clock_times(reply)
    if len(set(times.values())) != 1:
        return told
    written = _WRITTEN.match(reply, min(times))
    time = written[0].rstrip(".") if written else ""
    return with_the_time(told, shift, time) if time else told


def stretch_asked(told: str) -> re.Match[str] | None:
    """The stretch of the clock `told` asks for ("an hour later", "une demi-heure plus
    tôt": each language's `time_shift`), where the statement asking it names no time
    itself ("an hour later; they can't strip the rooms before 9:30" asks it)."""
    language = detect_language(told, LANGUAGES, LANGUAGES[0])
    shift = language.time_shift.search(told)
    if shift is None:
        return None
    said = without_question(told)
    start = said.rfind("; ", 0, shift.start()) + 1
    end = said.find("; ", shift.end())
    return None if clock_times(said[start : end if end >= 0 else len(said)]) else shift


def with_the_time(told: str, shift: re.Match[str], time: str) -> str:
    """`told` with the time its stretch of the clock comes to written after it."""
    return f"{told[: shift.end()]} ({time}){told[shift.end() :]}"
