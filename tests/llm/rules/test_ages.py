"""A person's age told twice: following the calendar, or contradicting it."""

from __future__ import annotations

import pytest

from somna.llm.rules.ages import age_contradicts, ages


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("The user says that her son is Theo, he is 12 (in the chess club).", {"Theo": 12}),
        ("For the top table we need a seat for Mia, she's 6 and a bridesmaid.", {"Mia": 6}),
        ("Our niece Lotte, a 5-year-old, will carry the rings.", {"Lotte": 5}),
        ("L'utilisateur dit que son fils c'est Noé, il a 11 ans.", {"Noé": 11}),
        ("L'utilisateur dit que Inès aura 8 ans en mai.", {"Inès": 8}),
        # years of something else are no age, nor an age with no one named
        ("L'utilisateur dit que Bastien est à son compte depuis 3 ans.", {}),
        ("L'utilisateur dit que Bastien a déménagé il y a 3 ans.", {}),
        ("The user says that the meeting with Noor is 5 minutes long.", {}),
        ("The user is 34.", {}),
        ("The gig is at the Derby Arena, the user is 52 and drums.", {}),  # the speaker's age
    ],
)
def test_the_ages_a_text_gives_by_name(text: str, found: dict[str, int]) -> None:
    assert ages(text) == found


@pytest.mark.parametrize(
    ("old", "new", "years", "contradicts"),
    [
        ("Theo is 12.", "Put Theo with the juniors, he is 10.", 0.1, True),
        ("Theo is 12.", "Theo is 15 now.", 0.5, True),  # older than the calendar allows
        ("Theo is 12.", "Theo is 13 now.", 0.5, False),  # a birthday
        ("Theo is 12.", "Theo is 12 and loves chess.", 0.1, False),
        ("Theo is 12.", "Mia is 6.", 0.1, False),  # someone else
    ],
)
def test_an_age_the_calendar_rules_out_contradicts(
    old: str, new: str, years: float, contradicts: bool
) -> None:
    assert age_contradicts(old, new, years) is contradicts
