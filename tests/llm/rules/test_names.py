"""The name a client gives when the agent asks for it, in English and French."""

from __future__ import annotations

import pytest

from somna.llm import EXTRACT, RulesLLM
from tests.llm.helpers import transcript


def _client_info(asked: str, said: str) -> list[tuple[str, str]]:
    digest = (
        RulesLLM()
        .structured(EXTRACT, transcript(("assistant", None, asked), ("user", None, said)))
        .value
    )
    return [(f.text, f.quote) for f in digest.facts if f.category == "client_info"]


@pytest.mark.parametrize(
    ("asked", "said", "told", "quote"),
    [
        (
            "Welcome! May I have your name and the company you're with?",
            "Ines Varga, buyer at a freight firm; we ship twice a week.",
            "The user is Ines Varga.",
            "Ines Varga",
        ),
        (
            "Sure. Could I get your full name for the booking?",
            "Yes, it's Tom Okafor",
            "The user is Tom Okafor.",
            "Tom Okafor",
        ),
        (
            "Pouvez-vous me donner votre nom et le prénom de votre fille ?",
            "Mathilde Roux, ma fille s'appelle Jeanne, elle a 9 ans.",
            "L'utilisateur est Mathilde Roux.",
            "Mathilde Roux",
        ),
    ],
)
def test_a_name_given_when_asked_is_who_the_client_is(
    asked: str, said: str, told: str, quote: str
) -> None:
    assert _client_info(asked, said) == [(told, quote)]


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("Which office will you fly from?", "Lisbon, ideally."),  # no name was asked for
        ("May I have your name?", "sure, one moment"),  # no name given
    ],
)
def test_no_name_without_the_question_or_the_name(asked: str, said: str) -> None:
    assert _client_info(asked, said) == []
