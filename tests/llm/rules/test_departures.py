"""Someone who held a part has left: what an older statement says of them is replaced."""

from __future__ import annotations

import pytest

from somna.llm.rules.departures import departed, someone_left, without_the_departed
from somna.llm.rules.replaced import gives_anew


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "The user says that Perrine Vasseur on the front desk signs for parcels.",
            "The user says that Perrine has left us; Odilon Brack signs for parcels now.",
        ),
        (
            "The user says that invoices go to Amaury Delpech in accounts.",
            "The user says that Amaury retired last month, send them to me.",
        ),
        (
            "The user says that my uncle Teodor meets the van and stacks the crates.",
            "The user says that Teodor has gone back to Lisbon, our new caretaker will do it.",
        ),
        (
            "The user says that the spare keys are with our neighbour Wilf Garrow.",
            "The user says that poor Wilf's gone into a care home, bless him.",
        ),
        # the place someone no longer holds
        (
            "L'utilisateur dit que Basile Ferrand, notre chef d'équipe, ouvre le chantier.",
            "L'utilisateur dit qu'attention c'est plus Basile sur place, demandez Gaspardine.",
        ),
        (
            "The user says that Hollis Pike signs off the scaffold each morning.",
            "The user says that it's not Hollis on site any more, ask Gwen.",
        ),
        # a long leave
        (
            "The user says that Maelys, our head nurse, hands over the bags.",
            "The user says that Maelys is going on maternity leave in May; Quill hands them over.",
        ),
        (
            "L'utilisateur dit que c'est Lucienne qui réceptionne les livraisons.",
            "L'utilisateur dit que Lucienne part en congé maternité, c'est Odilon qui prend "
            "le relais.",
        ),
        (
            "The user says that our bursar, Edric Vane, signs off anything over £500.",
            "The user says that Edric retired on Friday, so Mrs Ottoline Brisk signs off now.",
        ),
        (
            "L'utilisateur dit que le contact au comité c'est Séverin Mallet.",
            "L'utilisateur dit qu'au comité Séverin est parti, c'est Honorine qui gère maintenant.",
        ),
        (
            "L'utilisateur dit que c'est Anselme qui ouvre le portail le matin.",
            "L'utilisateur dit qu'Anselme n'est plus là, c'est sa voisine qui ouvrira.",
        ),
        # the one who left named before a pronoun says so
        (
            "The user says that the user's handyman Wilf Garrow has a full set, he'll meet "
            "the assistant.",
            "The user says that Wilf won't be there, he's retired to the coast; Hollis Pike "
            "has taken over, he'll meet the assistant.",
        ),
        # moving away, and whom to ring instead only for a case
        (
            "The user says that his neighbour Wilf Garrow has a spare key; 0161 496 0551 "
            "(in answer to: Who should we call in an emergency?).",
            "The user says that Wilf next door is moving to Leeds in May; my sister Ottoline "
            "lives close by, ring her if anything happens: 07700 900 461.",
        ),
        (
            "L'utilisateur dit que la voisine, Honorine, garde un double des clés.",
            "L'utilisateur dit qu'Honorine déménage à Brest, appelez mon fils si besoin.",
        ),
        # leaving, said as it happens
        (
            "L'utilisateur dit que Gaspardine Thornquist, sa gérante, a les clés.",
            "L'utilisateur dit que Gaspardine nous quitte fin juin; c'est Basile qui ouvrira.",
        ),
        (
            "L'utilisateur dit qu'Anatole valide les maquettes.",
            "L'utilisateur dit qu'Anatole quitte l'aventure; sa soeur reprend ses parts.",
        ),
        (
            "L'utilisateur dit que Bérénice fait les livraisons.",
            "L'utilisateur dit que Bérénice part s'installer à Lille en juillet.",
        ),
        (
            "The user says that Hollis Pike signs for deliveries.",
            "The user says that Hollis leaves us in May; Gwen Talbot signs from then.",
        ),
        # away for a while, said by a pronoun in the clause that names them
        (
            "The user's partner Wilf Garrow works from home, he'll let the fitters in.",
            "The user says that Wilf's got a contract up north from april so he'll be away "
            "monday to friday; our neighbour Ilse has a spare key.",
        ),
        (
            "L'utilisateur dit que son associé Basile est là tous les matins pour ouvrir.",
            "L'utilisateur dit que Basile s'est cassé le poignet en taillant la haie, il est "
            "en arrêt jusqu'à l'été; voyez avec Ottoline.",
        ),
        # someone the client no longer works with
        (
            "The user says that our builder Wilf Garrow is there most days.",
            "The user says that talk to Odran Kell from now; we've parted ways with Wilf, "
            "long story.",
        ),
        (
            "L'utilisateur dit qu'Anatole Brisk, notre paysagiste, passe le lundi.",
            "L'utilisateur dit qu'on s'est séparés d'Anatole, voyez avec Ottoline.",
        ),
        (
            "L'utilisateur dit que Basile fait les livraisons.",
            "L'utilisateur dit qu'on travaille plus avec Basile depuis mars.",
        ),
    ],
)
def test_a_person_said_to_have_left_replaces_what_they_did(old: str, new: str) -> None:
    assert someone_left(old, new)
    assert gives_anew(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # someone else left
        ("The user says that Perrine signs for parcels.", "The user says that Odilon has left."),
        # a pronoun, a thing: nobody named
        ("The user says that Perrine signs for parcels.", "He has left the keys with Perrine."),
        ("The user says that the van comes at 8.", "The van has left the depot."),
        # the older statement already said so
        ("Perrine has left us.", "Perrine has left us, as I said."),
        # someone named, then what a pronoun did
        ("The user says that Perrine signs for parcels.", "Perrine rang, she's left the keys."),
        # moving a thing is no moving away
        ("The user says that Perrine signs for parcels.", "Perrine is moving the boxes today."),
        ("L'utilisateur dit que Perrine signe les colis.", "Perrine quitte la maison à 8h."),
        # no longer a thing, not a person
        ("The user says that Perrine signs for parcels.", "C'est plus cher qu'avant, Perrine."),
        # what they did once, measured or counted, stays so
        (
            "The user says that Wilf Garrow measured the fence, 40 metres in all.",
            "The user says that Wilf has retired, Ilse Marrow is the contact now.",
        ),
        (
            "L'utilisateur dit qu'Anatole a mesuré la façade : 14 mètres.",
            "L'utilisateur dit qu'Anatole est parti, c'est Ottoline qui gère.",
        ),
        # a task handed to another: the one who did it has not left
        (
            "L'utilisateur dit qu'on dépose le chien jeudi, Basile a un contrôle mardi.",
            "L'utilisateur dit que c'est plus Basile qui l'amènera, c'est l'utilisateur.",
        ),
    ],
)
def test_no_one_named_in_the_older_statement_left(old: str, new: str) -> None:
    assert not someone_left(old, new)


def test_the_names_said_to_have_left_are_capitalised_and_not_pronouns() -> None:
    assert departed("Sadly Perrine has left and Odilon is leaving in May.") == {
        "Perrine",
        "Odilon",
    }
    assert departed("They have left; she's gone home; everyone has left.") == frozenset()
    assert departed("Elle est partie, mais Honorine est partie aussi.") == {"Honorine"}


def test_a_sick_leave_is_leaving_for_a_while() -> None:
    assert departed("Tamsin is off on long term sick leave; Quill covers for her.") == {"Tamsin"}
    assert departed("Aurélien est en arrêt maladie, voyez avec Lise.") == {"Aurélien"}
    assert departed("Aurélien est en congé maladie jusqu'en mai.") == {"Aurélien"}


def test_retiring_is_leaving_in_french_too() -> None:
    assert departed("Au fait, Anatole part à la retraite fin mai.") == {"Anatole"}
    assert departed("Mme Tresvaux prend sa retraite en juin, voyez avec Ninon.") == {"Tresvaux"}
    assert departed("Il part à la retraite bientôt.") == frozenset()


def test_a_name_the_retelling_lowered_is_read_in_the_message_itself() -> None:
    # "Wilf's gone…" opens the message; the retelling writes "that wilf's gone"
    old = "The user says that Wilf Garrow, our caretaker, has the keys."
    new = "The user says that wilf's gone on leave, Ottoline has the keys till spring."
    assert not someone_left(old, new)
    assert gives_anew(old, new, said="Wilf's gone on leave, Ottoline has the keys till spring.")


@pytest.mark.parametrize(
    ("old", "new", "kept"),
    [
        (
            "The user says that Odran Kell has the key to the yard gate.",
            "The user says that Odran retired last month, so Ilse Marrow has the gate key now.",
            "The user says that Ilse Marrow has the gate key now.",
        ),
        (
            "L'utilisateur dit que Maëlys Brun ouvre la réserve le matin.",
            "L'utilisateur dit que Maëlys part à la retraite en juin; pour la réserve voyez "
            "avec Ninon Tardieu.",
            "L'utilisateur dit que pour la réserve voyez avec Ninon Tardieu.",
        ),
        # handed on after "so", with no comma before it, and after a clause of its own
        (
            "The user says that Odran Kell has the key to the yard gate.",
            "The user says that for the van, Odran's gone to Leeds so Ilse Marrow has the "
            "gate key, she's at the lodge.",
            "The user says that for the van, Ilse Marrow has the gate key, she's at the lodge.",
        ),
        (
            "L'utilisateur dit que Maëlys Brun ouvre la réserve le matin.",
            "L'utilisateur dit que Maëlys est partie donc Ninon Tardieu ouvre la réserve.",
            "L'utilisateur dit que Ninon Tardieu ouvre la réserve.",
        ),
        # named in full as they leave
        (
            "The user says that invoices go to the bursar, Odran Kell.",
            "The user says that Odran Kell retired in May so invoices go to Ilse Marrow now.",
            "The user says that invoices go to Ilse Marrow now.",
        ),
    ],
)
def test_a_part_handed_on_keeps_who_holds_it_now_without_the_departure(
    old: str, new: str, kept: str
) -> None:
    """Memory says who holds the part now; the history of the older fact, who held it."""
    assert without_the_departed(old, new) == kept


@pytest.mark.parametrize(
    "new",
    [
        # no successor for the part: the departure is all the fact says
        "The user says that Odran has left us; he runs a farm in Wales now.",
        # someone else left
        "The user says that Tamsin retired, so Ilse Marrow has the gate key now.",
        # nobody left
        "The user says that Ilse Marrow has the gate key now.",
    ],
)
def test_the_departure_stays_where_it_hands_nothing_on(new: str) -> None:
    assert (
        without_the_departed("The user says that Odran Kell has the key to the yard gate.", new)
        is None
    )
