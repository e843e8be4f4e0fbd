"""Times of day said in words are written in digits where a statement is retold."""

from __future__ import annotations

import pytest

from somna.llm.rules.language import Language
from somna.llm.rules.languages import ENGLISH, FRENCH
from somna.llm.rules.rescheduled import time_made_over
from somna.llm.rules.said_times import times_in_digits


@pytest.mark.parametrize(
    ("language", "said", "written"),
    [
        (ENGLISH, "Make it quarter to ten at the earliest.", "Make it 9:45 at the earliest."),
        (ENGLISH, "We open at a quarter past eight.", "We open at 8:15."),
        (ENGLISH, "Half nine is fine, or half past twelve.", "9:30 is fine, or 12:30."),
        (ENGLISH, "Come at ten o'clock sharp.", "Come at 10:00 sharp."),
        (ENGLISH, "A quarter to one, after the lunch rush.", "12:45, after the lunch rush."),
        (FRENCH, "On arrive à 10h moins le quart.", "On arrive à 9h45."),
        (FRENCH, "Plutôt 8h et quart, ou midi et demi.", "Plutôt 8h15, ou 12h30."),
        (FRENCH, "Vers 14 heures et demie.", "Vers 14h30."),
    ],
)
def test_a_time_in_words_is_written_in_digits(language: Language, said: str, written: str) -> None:
    assert times_in_digits(said, language) == written


@pytest.mark.parametrize(
    "said",
    [
        "Half an hour is plenty.",
        "Half 10 kg of flour, half of the eggs, half five pounds of sugar.",
        "Half the team comes, half a dozen at most, nine staff in all.",
    ],
)
def test_a_half_or_a_number_that_tells_no_time_stays_as_said(said: str) -> None:
    assert times_in_digits(said, ENGLISH) == said


def test_a_time_made_over_in_one_breath_replaces_the_one_given() -> None:
    assert time_made_over("We'd start at 9am.", "Make it 9:30, the caretaker is late.")
    assert time_made_over("Début à 9h.", "Mettons plutôt 9h30, le gardien arrive tard.")
    # another time of another thing, with no word that remakes a value
    assert not time_made_over("We'd start at 9am.", "We finish at 5pm.")
    # two times before: which one is made over is unsaid
    assert not time_made_over("From 9am to 5pm.", "Make it 9:30.")
