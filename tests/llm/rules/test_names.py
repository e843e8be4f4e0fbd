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
            "Yes, it's Tom Adeyemi",
            "The user is Tom Adeyemi.",
            "Tom Adeyemi",
        ),
        (
            "Congratulations! May I have your names?",
            "Dora Quill and Sam Reyes.",
            "The user is Dora Quill.",
            "Dora Quill",
        ),
        # a name that opens as a month's short form does ("Oct", "Mar") is a name still
        (
            "Could I get your name for the booking?",
            "Octave Lindqvist, from the Exeter office",
            "The user is Octave Lindqvist.",
            "Octave Lindqvist",
        ),
        (
            "Pouvez-vous me donner votre nom et le prénom de votre fille ?",
            "Mathilde Roux, ma fille s'appelle Jeanne, elle a 9 ans.",
            "L'utilisateur est Mathilde Roux.",
            "Mathilde Roux",
        ),
        # given unasked, opening a message
        (
            "How can I help?",
            "Hi there, Ines Varga here. We need a quote for two vans.",
            "The user is Ines Varga.",
            "Ines Varga",
        ),
        (
            "Morning!",
            "Hello, I'm Tom Adeyemi, I booked last week",
            "The user is Tom Adeyemi.",
            "Tom Adeyemi",
        ),
        (
            "Bonjour, que puis-je faire pour vous ?",
            "Bonjour, je m'appelle Nour Varga, j'ai un chien de 3 ans.",
            "L'utilisateur est Nour Varga.",
            "Nour Varga",
        ),
        (
            "Bonjour !",
            "Coucou, c'est Noé, le devis est bon pour moi",
            "L'utilisateur est Noé.",
            "Noé",
        ),
        ("How can I help?", "Hi, Theo again. The van is late", "The user is Theo.", "Theo"),
        # a title and a surname, then where the client is from: the whole name
        (
            "Bonjour !",
            "Bonjour, c'est Mme Brisk du Clos Larkspur. le devis est voté",
            "L'utilisateur est Mme Brisk.",
            "Mme Brisk",
        ),
        (
            "Que puis-je faire ?",
            "Bonjour, Lina Varga, on vient d'emménager à Poitiers.",
            "L'utilisateur est Lina Varga.",
            "Lina Varga",
        ),
    ],
)
def test_a_name_given_when_asked_or_opening_a_message_is_who_the_client_is(
    asked: str, said: str, told: str, quote: str
) -> None:
    assert _client_info(asked, said) == [(told, quote)]


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("Which office will you fly from?", "Lisbon, ideally."),  # no name was asked for
        ("How can I help?", "Hi, it's Monday again and the van is late"),  # a day is no name
        ("How can I help?", "I'm not sure, Bruno said to call"),  # no name after "I'm"
        ("Que puis-je faire ?", "c'est bon pour Lina, merci"),  # not opening with it
        ("How can I help?", "Hello Lina, the van is late"),  # a first name greeted
        ("May I have your name?", "sure, one moment"),  # no name given
        # a relative named, who will come in the speaker's place
        ("Très bien.", "coucou, c'est Rémi mon mari qui passera samedi chercher le colis"),
        # an event or a place, named where it is or when
        ("De quel salon s'agit-il ?", "C'est Brumexpo à Tours, du 15 au 17 septembre."),
    ],
)
def test_no_name_without_the_question_or_the_name(asked: str, said: str) -> None:
    assert _client_info(asked, said) == []


@pytest.mark.parametrize(
    ("turns", "told", "quotes"),
    [
        # the name, then the age in the same answer
        (
            [
                ("assistant", "Welcome! What's your name, and which distance are you after?"),
                ("user", "Theo. The 10 miles at Easter. I'm 38, first race ever"),
            ],
            "The user is Theo, 38.",
            ["Theo", "I'm 38, first race ever"],
        ),
        # the name, then the trade in a later message
        (
            [
                ("assistant", "Bonjour ! Quel est votre nom, et que souhaitez-vous rénover ?"),
                ("user", "Inès Varga. La cuisine et la salle de bain."),
                ("assistant", "Quand puis-je vous joindre ?"),
                ("user", "le soir, je suis sage-femme et je travaille de jour"),
            ],
            "L'utilisateur est Inès Varga, sage-femme.",
            ["Inès Varga", "le soir, je suis sage-femme et je travaille de jour"],
        ),
        # a trade with its article, said to an agent who asked the name
        (
            [
                ("assistant", "Hi! May I have your name?"),
                ("user", "Nour Haddad. I'm a physiotherapist and I work from home on Mondays."),
            ],
            "The user is Nour Haddad, a physiotherapist.",
            ["Nour Haddad", "I'm a physiotherapist and I work from home on Mondays."],
        ),
    ],
)
def test_who_the_client_is_tells_what_they_said_they_are(
    turns: list[tuple[str, str]], told: str, quotes: list[str]
) -> None:
    digest = RulesLLM().structured(EXTRACT, transcript(*((r, None, t) for r, t in turns))).value
    named = [f for f in digest.facts if f.text == told]
    assert [f.quote for f in named] == quotes  # one fact, said with each quote


@pytest.mark.parametrize(
    ("asked", "name", "said", "told"),
    [
        ("May I have your name?", "Mila Costa.", "I'm a bit lost with the settings.", "is"),
        ("May I have your name?", "Mila Costa.", "I'm 5 minutes away from the office.", "is"),
        ("May I have your name?", "Mila Costa.", "I'm a big fan of the new layout.", "is"),
        ("Votre nom ?", "Mila Costa.", "je suis perdue avec les réglages", "est"),
    ],
)
def test_a_sentence_that_says_no_trade_nor_age_describes_no_one(
    asked: str, name: str, said: str, told: str
) -> None:
    digest = (
        RulesLLM()
        .structured(
            EXTRACT,
            transcript(
                ("assistant", None, asked),
                ("user", None, name),
                ("assistant", None, "Merci !" if told == "est" else "Thanks!"),
                ("user", None, said),
            ),
        )
        .value
    )
    [who] = [f.text for f in digest.facts if f.category == "client_info"]
    assert who.endswith(f" {told} Mila Costa.")
