"""Relative dates made absolute against the day they were said, as people write them."""

from __future__ import annotations

from datetime import date

import pytest

from somna.llm.rules.dates import resolve_dates

WEDNESDAY = date(2026, 2, 18)


@pytest.mark.parametrize(
    ("said", "told"),
    [
        ("next wed at 3pm is fine", "next wed (Wednesday 25 February 2026) at 3pm is fine"),
        ("see you this saturday", "see you this saturday (Saturday 21 February 2026)"),
        ("on friday then", "on friday (Friday 20 February 2026) then"),
        ("the new intern starts monday", "the new intern starts monday (Monday 23 February 2026)"),
        ("saturday after next", "saturday after next (Saturday 28 February 2026)"),
        ("a week on friday", "a week on friday (Friday 27 February 2026)"),
        ("friday week for the tasting", "friday week (Friday 27 February 2026) for the tasting"),
        ("the fair starts on the 28th", "the fair starts on the 28th (Saturday 28 February 2026)"),
        ("it was the 3rd", "it was the 3rd (Tuesday 3 March 2026)"),
        ("je passe au bureau vendredi", "je passe au bureau vendredi (Friday 20 February 2026)"),
        ("mardi en huit", "mardi en huit (Tuesday 24 February 2026)"),
        # the part of the day goes with its day
        ("samedi matin ça ira", "samedi matin (Saturday 21 February 2026) ça ira"),
        ("see you thursday morning", "see you thursday morning (Thursday 19 February 2026)"),
        ("lundi en quinze", "lundi en quinze (Monday 2 March 2026)"),
        ("vendredi en huit", "vendredi en huit (Friday 27 February 2026)"),
        ("on se voit le 28", "on se voit le 28 (Saturday 28 February 2026)"),
    ],
)
def test_a_day_named_in_a_message_gets_its_date(said: str, told: str) -> None:
    assert resolve_dates(said, WEDNESDAY) == told


@pytest.mark.parametrize(
    "said",
    [
        "the digest should go out monday mornings",
        "every thursday we close early",
        "tuesday's good for us",
        "I sat with them for an hour",
        "on mondays we close early",
        "le mercredi c'est bien pour lui",
        "tous les vendredis",
        "samedi 10h à partir du 21, c'est parfait",
        "le 28 février",
        "nous serons 23 le soir",
        "the 3rd of May",
        "could we say saturday 14 june instead?",
        "on Friday, 9 October",
        "jeudi 9 juillet nous serons 23",
        "vendredi 1er mai",
        # the days of a habit: a range, or any one of a weekday
        # a rank, no day of the month
        "we're on the 2nd floor of the old mill",
        "that's the 3rd time the van's been late",
        "lunches Monday to Friday",
        "mon-fri 9 to 5",
        "never schedule anything on a Friday",
        "les repas du midi, du lundi au vendredi",
        "jamais un vendredi",
        # a day of each month
        "le prélèvement le 5 du mois",
        "would the first Friday of the month work better?",
        "the last Monday of each month",
        "on livre le premier vendredi du mois",
        "le 15 de chaque mois",
        "debit on the 5th each month",
        # a span whose month comes after its last day
        "du samedi 11 au samedi 18 juillet",
        "from Saturday 11th to Saturday 18th July",
        # a weight, not a day
        "deux sacs de 4 kg, le 12 kg c'est trop lourd",
        # a day named before ("move the october visit, the lorry comes that wednesday")
        "the coal lorry comes that wednesday and blocks the lane",
        # a thing by its count, not a day
        "on part sur le 16 places, le 9 places ne suffit plus",
        # the next of things numbered in a list
        "des boîtes juste pour le tome 7 et le 8",
        "put the spare keys in locker 12 or the 14",
    ],
)
def test_a_recurring_day_or_a_full_date_is_left_as_said(said: str) -> None:
    assert resolve_dates(said, WEDNESDAY) == said


def test_a_weekday_en_huit_is_that_day_of_next_week() -> None:
    """ "Mardi en huit" said on a Tuesday is a week later; "lundi en quinze", the Monday of
    the week after next: the days the other person confirms back."""
    tuesday = date(2026, 2, 17)
    assert resolve_dates("mardi en huit", tuesday) == "mardi en huit (Tuesday 24 February 2026)"
    assert resolve_dates("lundi en quinze", tuesday) == "lundi en quinze (Monday 2 March 2026)"


@pytest.mark.parametrize(
    ("said", "told"),
    [
        # the next date that is both that weekday and that day of the month
        (
            "the gala is on Friday the 13th",
            "the gala is on Friday the 13th (Friday 13 March 2026)",
        ),
        ("sat 14th works", "sat 14th (Saturday 14 March 2026) works"),
        ("plutôt le mardi 17 alors", "plutôt le mardi 17 (Tuesday 17 March 2026) alors"),
        # the first month that has both, however far
        ("Monday the 31st", "Monday the 31st (Monday 31 August 2026)"),
    ],
)
def test_a_weekday_with_its_day_of_the_month_is_one_date(said: str, told: str) -> None:
    assert resolve_dates(said, WEDNESDAY) == told


def test_a_bare_day_of_the_month_right_after_a_date_is_near_that_date() -> None:
    """ "The 11th, not the 4th": the 4th of the 11th's month, not the next 4th to come;
    "from the 27th to the 2nd" ends in the month after."""
    assert resolve_dates("it's Friday the 13th, not the 6th", WEDNESDAY) == (
        "it's Friday the 13th (Friday 13 March 2026), not the 6th (Friday 6 March 2026)"
    )
    assert resolve_dates("from the 27th to the 2nd", WEDNESDAY) == (
        "from the 27th (Friday 27 February 2026) to the 2nd (Monday 2 March 2026)"
    )
    # a date in another sentence gives no month
    assert resolve_dates("Friday the 13th. And the 20th", WEDNESDAY) == (
        "Friday the 13th (Friday 13 March 2026). And the 20th (Friday 20 February 2026)"
    )


def test_a_bare_day_is_near_the_date_the_conversation_spoke_of_when_given_one() -> None:
    # "sorry, I meant the 18th" after "booked for 8 September", said in June
    said = "I meant the 18th, the 8th was another slot."
    told = resolve_dates(said, date(2026, 6, 8), near=date(2026, 9, 8))
    assert told == (
        "I meant the 18th (Friday 18 September 2026), the 8th (Tuesday 8 September 2026) "
        "was another slot."
    )


def test_a_bare_day_after_a_date_written_with_its_month_is_in_that_month() -> None:
    said = "ce serait le vendredi 18 juin, enfin le vendredi c'est le 19"
    assert resolve_dates(said, date(2026, 4, 20)) == f"{said} (Friday 19 June 2026)"


def test_the_weekday_after_follows_the_date_said_before_it() -> None:
    said_on = date(2026, 3, 9)  # a Monday
    assert resolve_dates("Not in till the 16th, so the Thursday after.", said_on) == (
        "Not in till the 16th (Monday 16 March 2026), so the Thursday after "
        "(Thursday 19 March 2026)."
    )
    assert resolve_dates(
        "Donc le jeudi d'après, même heure.", said_on, previous=date(2026, 3, 16)
    ) == ("Donc le jeudi d'après (Thursday 19 March 2026), même heure.")
    # after a thing, or after no date: left as said
    assert resolve_dates("The Thursday after the fair suits.", said_on) == (
        "The Thursday after the fair suits."
    )
    assert resolve_dates("We could do the Thursday after.", said_on) == (
        "We could do the Thursday after."
    )


def test_a_day_of_the_week_is_the_one_date_offered_on_that_day() -> None:
    offered = [date(2026, 4, 21), date(2026, 4, 23)]  # a Tuesday and a Thursday
    assert resolve_dates("plutôt jeudi, vers 16h", date(2026, 4, 10), echoed=offered) == (
        "plutôt jeudi (Thursday 23 April 2026), vers 16h"
    )
    # two Tuesdays offered, or none: the coming one
    assert resolve_dates(
        "tuesday please", date(2026, 4, 10), echoed=[date(2026, 4, 21), date(2026, 4, 28)]
    ) == ("tuesday (Tuesday 14 April 2026) please")
