"""A stretch of the clock asked for is told with the one time the reply takes it up at."""

from __future__ import annotations

import pytest

from somna.llm import EXTRACT, RulesLLM
from tests.llm.helpers import transcript


def _told(asked: str, reply: str) -> list[str]:
    turns = (("user", None, asked), ("assistant", None, reply))
    return [fact.text for fact in RulesLLM().structured(EXTRACT, transcript(*turns)).value.facts]


@pytest.mark.parametrize(
    ("asked", "reply", "told"),
    [
        (
            "the drivers leave earlier now, can the Friday round be half an hour earlier?",
            "Of course, we'll be there at 7:30am from next Friday.",
            "The user says that the drivers leave earlier now; the user asks that the Friday "
            "round be half an hour earlier (7:30am).",
        ),
        (
            "Vous pouvez passer une heure après l'horaire habituel ?",
            "Aucun souci, l'équipe arrivera à 10h15 le lundi.",
            "L'utilisateur demande à l'assistant de passer une heure après (10h15) l'horaire "
            "habituel.",
        ),
    ],
)
def test_the_time_a_reply_agrees_to_is_told_with_the_stretch_asked_for(
    asked: str, reply: str, told: str
) -> None:
    assert _told(asked, reply) == [told]


@pytest.mark.parametrize(
    "reply",
    [
        "Sorry, we can't come before 8am on Fridays.",  # turned down
        "We could do 7:30am or 7:45am, which suits?",  # two times: none agreed yet
    ],
)
def test_a_reply_that_agrees_to_no_one_time_adds_none(reply: str) -> None:
    [told] = _told("can the Friday round be half an hour earlier?", reply)
    assert "(" not in told
