"""A value given anew, by the rules alone: what the nightly judge decides without a model.

Each rule reads two texts, the older and the newer, and knows one way a client replaces
what they said: another number for what was counted, a count added to, another name in
the slot a question asked for, another date for what was dated, a number or an address
to use instead, something dropped. `gives_anew` is any of them; `replaces_part` adds the
choices and sentence frames the judge weighs, for one statement of an observation.
"""

from __future__ import annotations

from datetime import date

from somna.llm.rules.asked import dropped, slot_renamed
from somna.llm.rules.choices import choice_verdict
from somna.llm.rules.contacts import reached_elsewhere
from somna.llm.rules.counts import code_given_anew, number_put_right, number_updated
from somna.llm.rules.departures import someone_left
from somna.llm.rules.frames import told_as_agreeing
from somna.llm.rules.instead import named_instead
from somna.llm.rules.judge import value_changed
from somna.llm.rules.numbers import names_a_sum
from somna.llm.rules.rescheduled import (
    date_moved,
    date_put_right,
    date_shifted,
    long_past,
    slot_refused,
    time_made_over,
    time_shifted,
)
from somna.llm.rules.roles import part_given_anew
from somna.llm.rules.tallies import count_added

__all__ = ["gives_anew", "replaces_part"]


def gives_anew(
    old: str,
    new: str,
    said: str | None = None,
    *,
    same_session: bool = False,
    said_on: date | None = None,
) -> bool:
    """Whether `new` (said in the words `said`) gives anew what `old` says, by a rule that
    needs no word of change: "around 110 guests" / "the guest list is at 130 now", "two
    flues" / "one more flue than I said", "Derby" to "From which station?" / "leave from
    York instead", a date moved, a time or a part of the day that no longer works beside
    another ("8am is no good, say 9:30"), a number to call instead, "scratch the rye loaf",
    "Ines has left us" for what Ines did, "in Hartfield, not Morley" for "Morley", "ask for
    Ilse, she has the keys" for who let the business in, "the PO is QL-5203" for
    "QL-4417". Of two
    statements of `same_session`, a number with a word of change, another way to reach or
    a date given anew is not enough: said together, they are often the values of two
    things ("call me on …; invoices to …"); a date or a count put right is ("sorry, I
    meant the 18th"), a time made over ("start at 9am", then "make it half nine"), and so
    is a new price the client says yes to ("the quote comes to 4,280 now, ok?" "ok", after
    "3,900 is fine, we sign"). A date long past on `said_on`, the day `new` was said, is
    over: no later date moves it."""
    over = said_on is not None and long_past(old, said_on)
    return (
        ((not same_session or _price_said_yes_to(old, new)) and number_updated(old, new))
        or number_put_right(old, new)
        or slot_renamed(old, new, said)
        or (
            (date_put_right(old, new) or time_made_over(old, new))
            if same_session
            else not over and (date_moved(old, new) or slot_refused(old, new))
        )
        or (not over and date_shifted(old, new))
        or time_shifted(old, new)
        or count_added(old, new)
        or (
            not same_session
            and (
                reached_elsewhere(old, new)
                or part_given_anew(old, new)
                or code_given_anew(old, new)
            )
        )
        or someone_left(old, new)
        or (said is not None and someone_left(old, said))  # "perpetua's gone" retold
        or named_instead(old, new)
        or (said is not None and (dropped(old, said) or named_instead(old, said)))
    )


def _price_said_yes_to(old: str, new: str) -> bool:
    """Whether `new` is a bare yes to a price and `old` gave one: "the quote comes to 4,280
    now, ok?" "ok" after "3,900 is fine, we sign" in one session. Two counts said yes to
    in one session are often of two things (120 guests, 12 tables)."""
    return told_as_agreeing(new) and names_a_sum(old) and names_a_sum(new)


def replaces_part(part: str, new: str, said: str | None = None) -> bool:
    """Whether `new` replaces what `part`, one statement of an observation, says: a value
    given anew (`gives_anew`), another choice of its kind, or its frame with another
    value."""
    return (
        gives_anew(part, new, said)
        or choice_verdict(part, new, said) is not None
        or value_changed(part, new)
    )
