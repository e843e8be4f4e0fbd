"""Sentences with their offsets: where one ends and the next begins."""

from __future__ import annotations

import pytest

from somna.llm.rules.text import split_sentences


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("We moved. The new flat is bigger!", ["We moved.", "The new flat is bigger!"]),
        ("Dr. Adeyemi said so. Fine.", ["Dr. Adeyemi said so.", "Fine."]),
        # a pause that goes on in lower case is one thought; a capital starts another
        (
            "the night staff are... not keen on the app. Next week… We try again.",
            ["the night staff are... not keen on the app.", "Next week…", "We try again."],
        ),
        # a request after a pause is a sentence of its own
        (
            "je suis de garde mardi... vous pouvez décaler à jeudi ?",
            ["je suis de garde mardi...", "vous pouvez décaler à jeudi ?"],
        ),
        (
            "stuck at work... can you come at 6 instead?",
            ["stuck at work...", "can you come at 6 instead?"],
        ),
        ("- first item\n- second item", ["first item", "second item"]),
        # a letter after a number is a unit that may end a sentence; alone, an initial
        ("Tins of 500 g. Is it for you?", ["Tins of 500 g.", "Is it for you?"]),
        ("Ask J. Marlow.", ["Ask J. Marlow."]),
        # an emoji ends a sentence, before a capital or a word that starts anew; before a
        # word that ties on, it goes on
        ("we got the hall 😄 Can you deliver?", ["we got the hall 😄", "Can you deliver?"]),
        ("the van was late 😬 can we do mornings?", ["the van was late 😬", "can we do mornings?"]),
        ("we got the hall 😄 for free", ["we got the hall 😄 for free"]),
        ("on a la salle 😍 et le traiteur", ["on a la salle 😍 et le traiteur"]),
    ],
)
def test_where_sentences_end(text: str, sentences: list[str]) -> None:
    assert [text[start:end] for start, end in split_sentences(text)] == sentences
