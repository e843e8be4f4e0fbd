"""A value put right in the same breath: the slip goes, what is said after it stays."""

from __future__ import annotations

import pytest

from somna.llm.rules.slips import without_slips


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # a number (of any length), a code or a word said again, after a word taking the slip back
        (
            "The booklet is 62 pages — sorry, 26 pages, in colour.",
            "The booklet is 26 pages, in colour.",
        ),
        (
            "Best to call me on 07700 900 481... sorry I meant 07700 900 418.",
            "Best to call me on 07700 900 418.",
        ),
        (
            "Le code du portail c'est 4417, pardon je voulais dire 4471.",
            "Le code du portail c'est 4471.",
        ),
        (
            "Call the desk on 020 7946 0321 ext 318.. sorry ext 381.",
            "Call the desk on 020 7946 0321 ext 381.",
        ),
        (
            "Send it to Hollybank, LN4 2PX, oops LN4 2XP; ask for Ivo.",
            "Send it to Hollybank, LN4 2XP; ask for Ivo.",
        ),
        ("4402 — argh, 4420; I mix it up every time", "4420; I mix it up every time"),
        (
            "we run Korvex Lumas, no wait, Korvex Tidals; the Luma was too dear",
            "we run Korvex Tidals; the Luma was too dear",
        ),
        ("the blue Tarrow, no wait, the grey Tarrow please", "the grey Tarrow please"),
        ("on Thursday sorry Friday", "on Friday"),
        ("passez mardi, pardon mercredi", "passez mercredi"),
        ("3, sorry 4, sorry 5 people", "5 people"),
        # a bare "no" before a value; the slip taken back whole, not its last number
        (
            "there are 3... no 4 hedges, the last one is behind the shed",
            "there are 4 hedges, the last one is behind the shed",
        ),
        ("née le 3 mars 2024... non 3 avril, pardon", "née le 3 avril 2024, pardon"),
        ("Tuesday, no Wednesday", "Wednesday"),
        # what the slip said beyond what is said again stays
        (
            "We need 5 crates a week sorry typo, 6 crates, the café is busier.",
            "We need 6 crates a week, the café is busier.",
        ),
        ("c'est le 16 juin, pardon le 18", "c'est le 18 juin"),
        # a day put right alone, far from the date it puts right
        ("ce serait le mardi 16 juin à 18h30, pardon le 17", "ce serait le mardi 17 juin à 18h30"),
        ("So Tuesday 16th June at 6.30, no sorry, the 17th", "So Tuesday 17th June at 6.30"),
        # put right after the question that named it, no stop left before what follows
        (
            "can we go up to 16 crates a week? sorry, 15, no room for 16",
            "can we go up to 15 crates a week, no room for 16",
        ),
        ("5, un par poste. Ah non 6, j'oubliais Lubin", "6, un par poste, j'oubliais Lubin"),
        # a number puts right a number, not the weekday said before it
        ("le lundi 9 mars... ah non pardon le 16", "le lundi 16 mars"),
        (
            "it's at 17 Coldharbour Lane by the old mill gate, no sorry, 71 Coldharbour Lane",
            "it's at 71 Coldharbour Lane by the old mill gate",
        ),
        # a long run taken back opens with the value put right, not a word said again
        (
            "le salon d'automne du club le 12 octobre, pardon le 14",
            "le salon d'automne du club le 14 octobre",
        ),
        ("9 rue des Acacias, pardon 19", "19 rue des Acacias"),
        ("2,40 m. non pardon 2,04, pour la largeur", "2,04 m, pour la largeur"),
        ("Le code du portail c'est 2719... pardon, 2791.", "Le code du portail c'est 2791."),
    ],
)
def test_a_slip_put_right_in_the_same_breath_leaves_the_right_value(said: str, kept: str) -> None:
    assert without_slips(said) == kept


@pytest.mark.parametrize(
    "said",
    [
        "Sorry, 3 of us can come after all.",  # an apology opening the clause
        "the van was late sorry the driver got lost",  # nothing said again
        "I booked 3 rooms, sorry for the noise, 2 kids are sick",
        "We loved it. Thanks, sorry Odile couldn't make it",  # a name opening its clause
        "About the Wetherden run: sorry, I gave you the wrong date.",  # after a colon
        "wait, is it 3 or 4?",
        "Pardon pour le retard, 2 colis sont partis ce matin.",
        "she reacts to fish so please no fish treats, she itches",  # a "no" before no value
    ],
)
def test_an_apology_is_not_a_slip(said: str) -> None:
    assert without_slips(said) == said


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "facturez au 17 allée des Tilleuls, 35000 Rennes... pardon 71, pas 17, je tape vite",
            "facturez au 71 allée des Tilleuls, 35000 Rennes, je tape vite",
        ),
        ("it's flat 12, 8 Quay Road... sorry 21, not 12", "it's flat 21, 8 Quay Road"),
        # a number put right alone, far after the one it replaces
        (
            "On a 18 tilleuls le long de l'allée qui ont besoin d'une taille avant l'été... ah "
            "non pardon 16, deux sont tombés",
            "On a 16 tilleuls le long de l'allée qui ont besoin d'une taille avant l'été, deux "
            "sont tombés",
        ),
    ],
)
def test_a_slip_named_after_its_correction_is_the_one_put_right(said: str, kept: str) -> None:
    assert without_slips(said) == kept
