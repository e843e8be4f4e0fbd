"""A part given to someone else in a later session replaces who held it before."""

from __future__ import annotations

import pytest

from somna.llm.rules.replaced import gives_anew
from somna.llm.rules.roles import part_given_anew, part_words, parts_given


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a "who" question answered, the name in lower case
        (
            "The user says that ambrose quilling, our caretaker; he's in from 7 (in answer "
            "to: Who will let our fitter in?).",
            "The user says that Seraphine Dallow holds the keys on fridays now; the fitter "
            "should phone her from the car park.",
        ),
        (
            "Hollis Pike at the front desk will let your courier in every morning.",
            "The user says that your courier should ask for Gwen Talbot at the goods door.",
        ),
        (
            "The user's joiner Wilf Garrow, he's around most days (in answer to: Who'll be "
            "our contact on site?).",
            "The user says that for anything on site, speak to Odran Kell, he leads the "
            "crew from this week.",
        ),
        (
            "L'utilisateur dit que Basile Thornquist, notre directeur technique (en réponse à « "
            "Qui sera votre contact sur place ? »).",
            "L'utilisateur dit que pour le montage, voyez avec Ottoline Brisk, elle tiendra "
            "l'accueil toute la journée.",
        ),
        # the part asked of, and the part given, in other words
        (
            "L'utilisateur dit qu'Anatole, le magasinier, arrive à 8h (en réponse à « Qui "
            "réceptionne les palettes ? »).",
            "L'utilisateur dit que les palettes, c'est Bérénice qui les réceptionne depuis lundi.",
        ),
        (
            "L'utilisateur dit que Perpetua a les clés du local.",
            "L'utilisateur dit que c'est Gaspardine qui vous ouvrira, elle a le double des clés.",
        ),
        # the newer one answers "who…?" in turn, or is named new in the part
        (
            "The user says that Wilf Garrow, our bar manager, has the keys at weekends (in "
            "answer to: Who will meet us at the pub?).",
            "The user says that Ilse Marrow, she manages the cellar (in answer to: Who should "
            "we ask for at the pub?).",
        ),
        (
            "The user says that Hollis Pike, our warden, raises the bollard (in answer to: "
            "Who'll let our lorry onto the premises?).",
            "The user says that the lorry can ask for Gwen Talbot at the lodge, she'll let it in.",
        ),
        (
            "The user's trainer Wilf Garrow joins every session.",
            "The user says that Ilse Marrow, the user's new trainer, will join from May.",
        ),
        (
            "L'utilisateur dit que son assistante Perpetua prend les rendez-vous.",
            "L'utilisateur dit que sa nouvelle assistante, Gaspardine, vous rappellera.",
        ),
        # keys said to be with someone, handed over, or asked of someone else
        (
            "The user says that the spare keys are with Hollis Pike, our warden.",
            "The user says that if your team needs the keys, ask Gwen Talbot at the lodge.",
        ),
        (
            "The user says that Hollis Pike (in answer to: Who'll hand over the keys?).",
            "The user says that Gwen Talbot hands over the keys on fitting nights.",
        ),
        (
            "L'utilisateur dit que le gardien, M. Basile Thornquist, a toutes les clés.",
            "L'utilisateur dit que pour les clés voyez avec Mme Ottoline Brisk, la nouvelle "
            "gardienne.",
        ),
        # the older holder named in a clause of their own, the part given in the next
        (
            "The user says that Hollis Pike, he's on the gate mornings; he has the keys (in "
            "answer to: Who will let the crew in?).",
            "The user says that Hollis doesn't do weekends so ask for Gwen Talbot, she'll "
            "sort the keys.",
        ),
        # the team shown around, then let in by someone else
        (
            "The user says that Wilf Garrow does the lodge, he'll be about so he can show "
            "the team around.",
            "The user says that Odran Kell will be there to let the team in these days.",
        ),
        # who takes the crew up, asked; then someone else meets them
        (
            "The user says that Wilf Garrow, one of our juniors, lives nearby (in answer to: "
            "Who'll take the fitters up to the 3rd floor?).",
            "The user says that Wilf is off on leave; Ilse Marrow from our front desk will "
            "meet the assistant's team instead.",
        ),
        # the older holder away in one clause, the part given in the next
        (
            "L'utilisateur dit que c'est Perpetua, sa négociatrice, qui l'assistant ouvrira le "
            "portail, elle a les clés.",
            "L'utilisateur dit que Perpetua part en congé la semaine pro, c'est Gaspardine qui "
            "l'assistant ouvrira désormais.",
        ),
        # who will be on site, asked, then someone else with the keys
        (
            "The user's head chef Wilf Garrow, he's in from 8 doing the orders (in answer to: "
            "Who'll be on site?).",
            "The user says that Odran Kell deals with the assistant from now on, he's got the "
            "keys (in answer to: Is anyone on site?).",
        ),
        # who handles a thing, the thing said again
        (
            "L'utilisateur dit que Perpetua Brisk, notre intendante, c elle qui compte les "
            "draps et gère la réserve (en réponse à « Qui sera notre contact sur place ? »).",
            "L'utilisateur dit que Gaspardine va l'assistant appeler pour les comptages, c'est "
            "elle qui s'occupe des draps maintenant.",
        ),
        (
            "The user says that Wilf Garrow looks after the rota and the van keys.",
            "The user says that Ilse Marrow handles the rota from this month.",
        ),
        # "l'assistant" told for "vous"
        (
            "L'utilisateur dit que c'est sa mère Perpetua qui l'assistant ouvrira le portail.",
            "L'utilisateur dit que c'est son témoin Anatole qui l'assistant ouvrira jeudi.",
        ),
        (
            "L'utilisateur dit que Perpetua vous fera visiter, elle connaît la maison.",
            "L'utilisateur dit que c'est Gaspardine qui vous ouvrira samedi.",
        ),
    ],
)
def test_someone_else_given_the_part_replaces_who_held_it(old: str, new: str) -> None:
    assert part_given_anew(old, new)
    assert gives_anew(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # another part: the keys, then who signs for the deliveries
        (
            "The user says that Hollis Pike has the keys to the yard.",
            "The user says that Gwen Talbot signs for the deliveries.",
        ),
        # another thing handled
        (
            "The user says that Hollis Pike handles the invoices.",
            "The user says that Gwen Talbot handles the rota from May.",
        ),
        # both named in the newer statement
        (
            "The user says that Hollis Pike and Gwen Talbot have keys.",
            "The user says that Gwen Talbot has the keys to the side door.",
        ),
        # a place, not someone: a capital after "on", or before a kind of street
        (
            "The user says that Hollis Pike will let the assistant's tech in.",
            "The user says that tell him to come round by the back door on Marrow Passage.",
        ),
        (
            "The user says that Hollis Pike will let the assistant's tech in.",
            "The user says that the keys are at Thornquist Yard now.",
        ),
        # a door kept shut, a dog named: no one holds a part
        (
            "The user says that Hollis Pike has the keys.",
            "The user says that keep the back door shut on the day, the dog Biscuit gets out.",
        ),
        # a label's name is no key
        (
            "L'utilisateur dit que Perpetua a les clés du local.",
            "L'utilisateur dit que Gaspardine a obtenu le label Clef Verte pour le camping.",
        ),
        # words of a part that give none
        (
            "The user says that Hollis Pike will let the fitters in.",
            "The user says that Gwen Talbot will let the assistant know in advance.",
        ),
        # someone new in another part, or the same one named new
        (
            "The user's trainer Wilf Garrow joins every session.",
            "The user says that Ilse Marrow, our new physio, comes on Fridays.",
        ),
        (
            "The user's trainer Wilf Garrow joins every session.",
            "The user says that Wilf Garrow, the new trainer, is settling in well.",
        ),
        # the older statement named the newer holder already
        (
            "The user says that Hollis Pike lets the driver in, or Gwen Talbot on Fridays.",
            "The user says that Gwen Talbot has the keys.",
        ),
    ],
)
def test_no_part_is_given_to_someone_else(old: str, new: str) -> None:
    assert not part_given_anew(old, new)


def test_two_people_named_in_one_session_hold_two_parts() -> None:
    old = "The user says that Hollis Pike will let the assistant's courier in."
    new = "The user says that the courier should ask for Gwen Talbot at the goods door."
    assert gives_anew(old, new)
    assert not gives_anew(old, new, same_session=True)


def test_the_parts_a_statement_gives_and_the_words_that_find_the_older_ones() -> None:
    text = "The user says that Gwen Talbot has the keys and signs for the deliveries."
    assert parts_given(text) == {"access", "deliveries"}
    assert {"keys", "deliveries"} <= set(part_words(text))
    assert parts_given("The user says that Ilse Marrow, our new trainer, starts Monday.") == {
        "new:trainer"
    }
    assert not parts_given("The user says that the keys are under the mat.")
