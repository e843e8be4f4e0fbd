"""Numbers given anew: which newer statement revises which older figure, in either language."""

from __future__ import annotations

import pytest

from somna.llm.rules.counts import (
    code_given_anew,
    corrects_the_question,
    may_update_a_number,
    number_put_right,
    number_updated,
    numbers_given,
)
from somna.llm.rules.languages import ENGLISH, FRENCH
from somna.llm.rules.numbers import numbers_in
from somna.llm.rules.replaced import gives_anew


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a count, tied by the word it counts
        ("Around 110 guests for the reception.", "Update: the guest list is at 130 now."),
        ("Around 90 guests for the reception.", "RSVPs are in, the guests have gone up to 130."),
        # a size given anew, whatever words stand near it
        (
            "The user wants a cabin of 4m x 3m at the end of the garden.",
            "The user says actually make it 5 by 3, the neighbours agreed.",
        ),
        (
            "L'utilisateur dit qu'on pensait à une terrasse de 6 x 4 m.",
            "L'utilisateur dit que finalement on part sur 7 x 4, pour la table.",
        ),
        # a mistake put right
        (
            "The user says that we keep two storage units at the depot.",
            "The user must correct something: we keep three storage units, not two.",
        ),
        (
            "L'utilisateur dit qu'on a 4 ruches au fond du jardin.",
            "L'utilisateur dit qu'il s'est trompé, on a 6 ruches au fond du jardin.",
        ),
        # brought down, in so many words
        ("We'd like 20 rye loaves every morning.", "Drop the rye loaves to 12, we waste some."),
        ("On prend 20 baguettes par jour.", "On réduit à 12 baguettes, il en reste trop."),
        # an amount revised, tied by its scale and a bound
        (
            "The user says that around £18,000 in total (in answer to: Any budget in mind?).",
            "The user says that the board agreed, we can go to 21,500 max now.",
        ),
        ("The user says that 60-70k base.", "The user says that we can now go up to 80k."),
        (
            "L'utilisateur dit que autour de 240 000 sur l'exercice.",
            "L'utilisateur dit que les ventes dépassent les prévisions : plutôt 290 000 désormais.",
        ),
        (
            "L'utilisateur dit que 12 000 € maximum pose comprise.",
            "L'utilisateur dit qu'on monte le plafond à 13 500 € mais pas plus.",
        ),
        (
            "L'utilisateur dit que budget 410 000 max.",
            "L'utilisateur dit que le prêt accordé va jusqu'à 450 000, on peut monter.",
        ),
        # the number of the question answered is what was asked, not what is said
        (
            "L'utilisateur dit que 30 couverts (en réponse à « Combien de couverts ? »).",
            "L'utilisateur dit que finalement 36 couverts (en réponse à « Toujours 30 ? »).",
        ),
        # the speaker's group counted anew: people by any word, a number in words
        ("We'd like a weekly lunch for 14 people.", "Quick update: we're 18 now, interns joined."),
        (
            "L'utilisateur a une petite boutique avec deux salariés.",
            "L'utilisateur dit que petite mise à jour : on est donc 3 salariés.",
        ),
        ("On serait environ 90 invités.", "Les réponses arrivent, on sera finalement 104."),
        # the old value named as corrected ("now, not five"), another count beside it
        (
            "The user says that Mila plus four bridesmaids, so five (in answer to: How many "
            "people?).",
            "The user says one of the bridesmaids dropped out, so it's four people now, not five.",
        ),
        # a number with no unit of its own counts what its question counted ("guests")
        (
            "The user says that around 120 (in answer to: How many guests do you expect?).",
            "The user says ticket sales go well, we're now expecting about 180 people.",
        ),
        # children however written, estimated then firmed up
        (
            "The user says that about 15 kids, plus a few parents (in answer to: How many "
            "children?).",
            "The user says the RSVPs are in: 22 children are coming.",
        ),
        # an approximate number in words
        (
            "L'utilisateur dit qu'une vingtaine de commandes par mois.",
            "L'utilisateur dit qu'on commande maintenant une quarantaine de fois par mois.",
        ),
        # a head count first estimated, firmed up without a word of change
        ("The user says about 40 guests, give or take.", "The replies are in: 52 guests."),
        # a sum of money restated for the same thing, no word of change
        (
            "The user says that our budget for the season is about £1,500.",
            "The user says that our fuel budget for the season is £2,200.",
        ),
        # a time of day given anew
        (
            "The user says that mon, wed and fri at 7am (in answer to: What times suit you for "
            "the sessions?).",
            "The user asks to move all the sessions to 6.30pm from now on.",
        ),
        # an order set anew ("make it", "passez … à"), the same unit after each number
        (
            "The user says that 2,000 leaflets on thin paper.",
            "The user says make it 3,500 leaflets.",
        ),
        (
            "Il nous faut trois fourgons pour octobre.",
            "On a un gros client, passez la commande à cinq fourgons.",
        ),
        # numbers over ten written in words
        (
            "The user says that there are 9 kayaks in the club's fleet.",
            "The user says that the council gave us three more, so we're at twelve kayaks now, "
            "not nine.",
        ),
        (
            "L'utilisateur dit qu'on sera 8 coureurs au relais.",
            "L'utilisateur dit que finalement on sera douze coureurs au relais.",
        ),
        # a sum stretched to, a ceiling raised
        (
            "The user says that we have about £1,400 for both frames all in.",
            "The user says that we talked it over and we can stretch to 1,900 total now.",
        ),
        (
            "L'utilisateur dit qu'on a environ 1 200 € en tout.",
            "L'utilisateur dit que finalement on peut pousser à 1 500.",
        ),
        # an estimate of a thing, then its count in the same unit
        (
            "The user says that roughly 60 aprons across the two cafés.",
            "The user says that the laundry count came back at 72 aprons.",
        ),
        # a head count said as an estimate ("normalement"), then the list closed
        (
            "L'utilisateur dit qu'on serait 25 normalement (en réponse à « Combien de "
            "participants ? »).",
            "L'utilisateur dit que les inscriptions sont closes : 31 inscrits au total.",
        ),
    ],
)
def test_a_newer_figure_with_a_word_of_change_updates_the_older(old: str, new: str) -> None:
    assert number_updated(old, new)


def test_a_size_asked_to_go_up_to_may_update_a_number_before_any_search() -> None:
    new = "The user says we need something much bigger; the user asks to go up to 12m x 18m."
    assert may_update_a_number(new)
    assert number_updated("The user asks for a 9m x 12m marquee for the show.", new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # an offer at a price revises no budget
        (
            "The user says that budget 410,000 max.",
            "The user says that in the end we made an offer at 395,000 for the loft.",
        ),
        # an amount ten times larger is another amount
        ("The user says that around £1,800 a month.", "The user says that now it's £25,000 max."),
        # nothing says it changed
        ("The user says that around £18,000 in total.", "The user says that 21,500 max."),
        # a street's number counts nothing
        (
            "The user says that we live at 12 Larch Close with the kids.",
            "The user says that finally the kids want 9 lengths, so 9 metres then.",
        ),
        # a rank counts nothing: "a 3rd café" is no third count of cafés
        (
            "The user says that we run 2 cafés in Derby.",
            "The user says that we open a 3rd café on the 14th now.",
        ),
        # the minutes of a time of day count nothing
        (
            "The user says that we're a small team, nine of us; taxis move our drawings.",
            "The user agrees (in answer to: Shall we move the pickup to 2:30pm?).",
        ),
        # two sums of other things
        ("The user says that the deposit is £300.", "The user says that the band costs £400."),
        # a price a month counts no months, nor the day of the month
        (
            "L'utilisateur dit que sur les 12 mois on en fait deux de moins.",
            "L'utilisateur est d'accord (en réponse à « On peut vous proposer le modèle b1 à "
            "59 €/mois ? »).",
        ),
        (
            "L'utilisateur dit que le prélèvement se fait le 5 du mois.",
            "L'utilisateur est d'accord (en réponse à « Le modèle b1 à 59 €/mois, ça irait ? »).",
        ),
        # a weight is no count of what it weighs, a price no count of what it is for
        (
            "L'utilisateur dit que Griotte, une bouvier de 42 kg (en réponse à « Quel chien ? »).",
            "L'utilisateur est d'accord (en réponse à « Avec 2 chiens le ménage est à 80 € ? »).",
        ),
        # a time of day is held against times of day alone
        (
            "L'utilisateur dit que le mardi à 10h; budget max 50 € la séance.",
            "L'utilisateur dit qu'on décale la séance au jeudi 10h désormais.",
        ),
        # a firm count given otherwise without a word of change, for a person to settle
        ("The user says 40 guests are invited.", "The user says 52 guests are coming."),
        # an age is no head count, though its question asks about guests
        (
            "L'utilisateur dit qu'il y a deux enfants de moins de 10 ans (en réponse à « Des "
            "régimes particuliers chez vos invités ? »).",
            "L'utilisateur dit que les réponses arrivent, on sera finalement 80.",
        ),
        # a part of the group is not the whole group
        ("Il y a trois enfants de moins de 10 ans.", "On sera finalement 104."),
        # two units of their own count two things, whatever words they share nearby
        (
            "The user runs the front desk, we have two offices in Derby.",
            "The user says change of plan: make it 3,500 leaflets, the second office wants some.",
        ),
        # "there are two more panes" counts panes, not people
        (
            "The user says that before we open at 9 (in answer to: We cover your street on "
            "Mondays, which day suits?).",
            "The user says that the porch is finally finished, so there are two more panes.",
        ),
        # a thing named by its number is one of those counted, not a count of them
        (
            "The user says that we run 14 cargo vans across the city.",
            "The user says that van 9 has a flat tyre right now.",
        ),
        # how often one thing is done says nothing of how often another is
        (
            "The user agrees (in answer to: For the cottage we suggest every 8 weeks, ok?).",
            "The user agrees (in answer to: We could move the bakery to every 2 weeks, shall "
            "we switch it?).",
        ),
        # a day of the month named with its weekday counts nothing
        (
            "L'utilisateur dit que pour le 9 octobre à Vertou, on sera 38 avec les stagiaires.",
            "L'utilisateur dit que non, pas de livraison au bureau ce jour-là, tous seront à "
            "Vertou (en réponse à « Et ce vendredi 9 (Friday 9 October 2026), on maintient les "
            "paniers du bureau ? »).",
        ),
        (
            "The user says that we'll be 24 at the launch on 3 March.",
            "The user says that the hall is booked for Tuesday the 3rd, the caretaker opens at 8.",
        ),
        # a price turned down revises no price taken
        (
            "L'utilisateur dit qu'on part sur la formule Plume, ça a l'air top (en réponse à "
            "« La formule Plume à 14,50 € HT, ça vous irait ? »).",
            "L'utilisateur dit que non merci, on fait attention (en réponse à « Un dessert en "
            "plus à 2,50 € ? »).",
        ),
        # a number's words are those of its statement, not of the next one ("the contract")
        (
            "The user says that we're on Office 365, 12 staff so 12 licences; Anything about "
            "the contract comes to the user, ines@folio.example (in answer to: How should we "
            "reach you?).",
            "The user agrees (in answer to: That takes you to 10 laptops, so the contract goes "
            "from £300 to £380 a month, shall I update it?).",
        ),
        # a year and a price share no topic for an adverb they share
        (
            "The user says that 1934, the user has just lifted the lid and it's stamped inside.",
            "The user says that £380 is a bit steep right now, just sort the sticky key.",
        ),
        # a thing named by its number ("reception 2") counts nothing its name is near
        (
            "The user says that never restart reception while we're open, 8.30 to 5.30.",
            "The user says that reception 2, the new one (in answer to: Which PC will she use?).",
        ),
        # a while is no count of anything else, whatever name both hold
        (
            "L'utilisateur dit que Lubin a bien accroché avec Mael; Mael a attendu 40 min.",
            "L'utilisateur dit que Lubin a 13 de moyenne maintenant.",
        ),
        (
            "The user says that Lubin waited 25 minutes for the van.",
            "The user says that Lubin has 3 vans now.",
        ),
        # "10 min" is a while, no count of lessons, though both name the same weekday
        (
            "L'utilisateur dit que finalement on passe à deux séances par semaine : mercredi "
            "(Wednesday 14 October 2026) et samedi (Saturday 10 October 2026).",
            "L'utilisateur dit qu'on a déménagé; Lubin pourra venir dès mercredi prochain "
            "(Wednesday 25 November 2026), c'est à 10 min de l'ancienne maison.",
        ),
        # how often a thing comes is no count of the months a lease runs
        (
            "The user says that 24 months is fine (in answer to: Terms are 24 or 48 months; on "
            "24 months it's 80 euro a month).",
            "The user says that we're busier, can you bump it up to 8 boxes a month from now on.",
        ),
        # a sum added on to another is no new value of it
        (
            "L'utilisateur est d'accord (en réponse à « Le devis passe à 2 900 € pour "
            "l'enseigne de la vitrine, ça vous va ? »).",
            "L'utilisateur est d'accord (en réponse à « Noté, un film sur la vitrine, ça "
            "rajoute 180 € »).",
        ),
        (
            "The user agrees (in answer to: The awning comes to £1,200 fitted, ok?).",
            "The user agrees (in answer to: Sure, a side panel for the awning is £90 extra).",
        ),
        # words that say nothing on their own ("tout") tie no two counts together
        (
            "L'utilisateur dit que c'est une cuve de 6 m3, elle reprend tout le bâtiment.",
            "L'utilisateur dit que bonne nouvelle, 12 chambres de plus (40 chambres en tout), "
            "donc 40 en tout cette saison.",
        ),
        # an estimate of a thing, then a count in another unit
        (
            "The user says that roughly 60 aprons across the two cafés.",
            "The user says that the laundry count came back at 72 towels.",
        ),
        # the hours of a stretch of the day count nothing
        (
            "The user says that the choir practice moves to friday afternoon, 2 till 5.",
            "The user says that yes please (in answer to: Shall we send a second pianist for "
            "the Friday practice, so two of them?).",
        ),
    ],
)
def test_other_figures_update_nothing(old: str, new: str) -> None:
    assert not number_updated(old, new)


def test_thousands_apart_by_a_blank_are_one_number() -> None:
    """ "410 000" and "450 000", not 410, 450 and the same 000 twice (which would veto)."""
    assert number_updated(
        "L'utilisateur dit que budget 410 000 max.",
        "L'utilisateur dit que finalement plutôt 450 000 max.",
    )
    assert numbers_given("L'utilisateur dit que plutôt 450 000, et 2 chambres.") == 2


def test_how_often_one_thing_is_done_is_given_anew_wherever_it_is_named() -> None:
    old = (
        "The user says that the bakery front is grubby after the winter; the user would like "
        "it done regularly, every 4 weeks to start with, inside and out."
    )
    new = "The user agrees (in answer to: We could move the bakery to every 2 weeks, ok?)."
    assert number_updated(old, new)


@pytest.mark.parametrize(
    ("old", "new", "put_right"),
    [
        (
            "The user says that 12 trestles, 180 chairs and plates for 200.",
            "The user says that oops, the user said 180 chairs, it's 210.",
            True,
        ),
        (
            "L'utilisateur dit que 25 tables et 150 chaises.",
            "L'utilisateur dit que pardon, c'est 170 chaises, j'avais la liste de l'an dernier.",
            True,
        ),
        # the mistaken figure named again, the right one said far from what it counts
        (
            "L'utilisateur dit que 140 m² à peu près, sur deux niveaux.",
            "L'utilisateur a dit 140 m² mais avec la véranda on est plutot à 160.",
            True,
        ),
        # no mistake owned: another order, not a count put right
        (
            "The user says that 12 trestles, 180 chairs and plates for 200.",
            "The user says that we'll also need 210 cups.",
            False,
        ),
        # a reference of the same shape put right
        (
            "The user says that the order number is TR-20931, please quote it.",
            "Sorry, the user got the order number wrong last time, the user meant TR-20391.",
            True,
        ),
        (
            "L'utilisateur dit que le bon de commande c'est BC7741.",
            "L'utilisateur dit que pardon je voulais dire BC7714 pour le bon de commande.",
            True,
        ),
        # a day of the month is no reference
        (
            "The user passed the theory test on the 14th (Thursday 14 May 2026).",
            "Sorry, the user meant the 18th (Friday 18 September 2026) for the practical.",
            False,
        ),
        # another reference, no mistake owned: a second order
        (
            "The user says that the order number is TR-20931, please quote it.",
            "The user says that the next order is TR-20977.",
            False,
        ),
    ],
)
def test_a_count_put_right_replaces_the_mistaken_one(old: str, new: str, put_right: bool) -> None:
    assert number_put_right(old, new) is put_right
    assert gives_anew(old, new, same_session=True) is put_right


def test_a_time_of_day_counts_its_minutes() -> None:
    assert number_updated("Départ du club à 7h30.", "Finalement le départ du club sera à 7h15.")
    assert corrects_the_question(
        "Pardon je me suis trompée, c'est 7h15 le départ.", "Toujours départ 7h30 ?", FRENCH
    )


def test_a_sum_named_again_with_another_is_given_anew() -> None:
    old = "The user says that anything under £150 just do it, above that check first."
    assert number_updated(old, "The user says that that £150 limit is too low; make it £250.")
    assert not number_updated(old, "The user says that the £150 job went well, thanks.")


def test_a_count_told_before_an_elided_word_measures_nothing() -> None:
    """ "ils sont 4 l'utilisateur avait oublié…" counts four of something, not four litres."""
    [four] = numbers_in("En fait ils sont 4 l'utilisateur avait oublié la stagiaire.")
    [litres] = numbers_in("Il faut 4 l de lait.")
    assert four.unit != litres.unit


def test_a_new_price_said_yes_to_in_one_session_replaces_the_first() -> None:
    """Said in one session, a price given anew replaces the first only when the client
    says a bare yes to it; two counts said yes to are often of two things."""
    signed = "The user says that the quote at 3,900 € is fine, we sign."
    assert gives_anew(
        signed,
        "The user agrees (in answer to: With 4 more desks the quote goes to 4,280 €, ok?).",
        same_session=True,
    )
    assert not gives_anew(
        signed,
        "The user says that ooh let me ask (in answer to: Cake at 2.50 € a head, fancy it?).",
        same_session=True,
    )
    assert not gives_anew(
        "The user says that 120 people, seated (in answer to: How many guests?).",
        "The user agrees (in answer to: For 120 seated, 12 tables of 10, would that suit?).",
        same_session=True,
    )


def test_an_answer_that_counts_against_the_question_keeps_it_and_one_with_a_value_does_not() -> (
    None
):
    asked = "Is it still 12 riders for the fitting day?"
    # "five more than I said" says of what only with the question: it stays
    assert not corrects_the_question("Ha no, five more than I said.", asked, ENGLISH, "ha no")
    # a value of its own, whatever idiom follows it: the question's old value goes
    assert corrects_the_question(
        "On monte à 19 500 mais pas un centime de plus.",
        "Le devis monte à environ 19 400 €, ça vous convient ?",
        FRENCH,
    )


def test_a_length_said_in_metres_and_centimetres_is_one_number() -> None:
    """ "1m20" is 1.20 m, not one metre and a count of twenty."""
    said = "On le monterait plus haut, 1m20; the gate is 2 m 50."
    assert [(n.value, n.unit) for n in numbers_in(said)] == [
        (1.2, "<measure>"),
        (2.5, "<measure>"),
    ]


@pytest.mark.parametrize(
    ("old", "new", "anew"),
    [
        (
            "The user says that its QL-4417 for the bills.",
            "The PO is QL-5203, finance sent it.",
            True,
        ),
        ("L'utilisateur dit que le bon de commande c'est BC-7741.", "Nouveau bon : BC-8120.", True),
        # another kind of reference, or the same one said again
        ("The user says that its QL-4417 for the bills.", "The booking ref is BK-5203.", False),
        ("The user says that its QL-4417 for the bills.", "Yes, QL-4417 on every bill.", False),
        # a code that opens a door, given anew in a message that names it
        (
            "The user says that key safe by the side door, code 5182; Wilf does the beds.",
            "The user says that the user had to change the key safe code, a guest posted a "
            "photo of it; its 7309.",
            True,
        ),
        (
            "L'utilisateur dit que portail côté rue, digicode 4815B.",
            "L'utilisateur dit que le syndic a changé le digicode : 7302B depuis lundi.",
            True,
        ),
        # another count in a message that names the code
        (
            "The user says that key safe by the side door, code 5182.",
            "The user says that the code worked fine; 120 guests came through.",
            False,
        ),
    ],
)
def test_a_reference_of_the_same_kind_given_anew_replaces_the_older_one(
    old: str, new: str, anew: bool
) -> None:
    assert code_given_anew(old, new) is anew
    assert gives_anew(old, new) is anew


def test_a_word_a_month_opens_is_counted_not_read_as_a_date() -> None:
    """ "12 markers", "60 aprons": the month cut short ("mar", "apr") is no date's."""
    assert [n.value for n in numbers_in("12 markers and 60 aprons, on 16 Mar 2026")] == [12, 60]
