"""Restrictions a person states, and a later plan that breaks them: a diet, an allergy, an
event for adults only."""

from __future__ import annotations

import pytest

from somna.llm.rules.diets import breaks_diet

_ADULTS_ONLY = "The user says that no kids at the anniversary dinner, adults only please."


@pytest.mark.parametrize(
    ("restriction", "plan", "broken"),
    [
        ("Is vegan.", "Has three eggs and a whey shake for breakfast.", True),
        ("Is vegetarian.", "No pork please, several guests never eat it.", False),
        ("L'utilisateur est allergique aux arachides.", "Un gâteau aux arachides.", True),
        # an allergy to anything named, and a later plan that holds it
        (
            "L'utilisateur dit qu'il est allergique au shampoing à la camomille.",
            "L'utilisateur dit que le shampoing à la camomille c'est très bien pour lui.",
            True,
        ),
        ("Noa is allergic to latex gloves.", "The user says latex gloves are fine for Noa.", True),
        ("Noa is allergic to latex gloves.", "The user says that no latex gloves, ever.", False),
        ("Noa is allergic to latex gloves.", "The user says Noa's latex allergy is severe.", False),
        ("Noa is allergic to latex gloves.", "The user bought new gloves.", False),
        # told of one person, a plan for another breaks nothing
        ("Noa is allergic to latex gloves.", "Theo wears latex gloves at work.", False),
        # an adults-only event, and a child on its plan, by word or by age
        (_ADULTS_ONLY, "We need a high chair for the baby at table 2.", True),
        (_ADULTS_ONLY, "Our neighbours' girl Mila joins our table, she's 6 and loves cake.", True),
        (
            "L'utilisateur dit que ce sera sans enfants, entre adultes.",
            "L'utilisateur dit que Noé a 7 ans, il sera à côté de sa tante.",
            True,
        ),
        (_ADULTS_ONLY, "Save a seat for Tom, he is 41 and drives.", False),
    ],
)
def test_a_plan_that_breaks_a_stated_restriction(restriction: str, plan: str, broken: bool) -> None:
    assert breaks_diet(restriction, plan) is broken
