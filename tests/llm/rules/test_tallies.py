"""A count given against an older one: "one more than I said", "deux de plus"."""

from __future__ import annotations

import pytest

from somna.llm.rules.tallies import count_added, may_add_to_a_count, with_the_count_made


@pytest.mark.parametrize(
    ("old", "new", "made"),
    [
        (
            "The user says that a stove in the lounge and an open hearth, so two flues.",
            "The user says that we found another hearth upstairs, that's one more flue "
            "than the user told the assistant.",
            "The user says that we found another hearth upstairs, that's one more flue "
            "(3 flues in all) than the user told the assistant.",
        ),
        (
            "The user says that it's 12 stacking stools, pine seats.",
            "The user says that two more stools turned up in the shed, so add those.",
            "The user says that two more stools (14 stools in all) turned up in the shed, "
            "so add those.",
        ),
        # people added, counted as guests before
        (
            "L'utilisateur dit qu'on part sur 70 invités environ.",
            "L'utilisateur dit que rajoute 12 personnes, ses collègues viennent finalement.",
            "L'utilisateur dit que rajoute 12 personnes (82 invités en tout), ses collègues "
            "viennent finalement.",
        ),
        # the one count of a statement on the topic, the thing unnamed in the newer
        (
            "The user says that our lunch menus need a reprint; 60 copies, A4, both sides.",
            "The user says that print 15 more than the user said for the lunch menus.",
            "The user says that print 15 more (75 copies in all) than the user said for the "
            "lunch menus.",
        ),
        # a measure added to, its unit written short
        (
            "L'utilisateur dit que façade côté cour, à peu près 90 m², hauteur 7 m.",
            "L'utilisateur dit que faut rajouter 30 m² d'échafaudage pour le pignon.",
            "L'utilisateur dit que faut rajouter 30 m² (120 m² en tout) d'échafaudage pour le "
            "pignon.",
        ),
        (
            "The user says that 30 guests confirmed for the lunch.",
            "The user says that two fewer guests, the Hartleys cannot come.",
            "The user says that two fewer guests (28 guests in all), the Hartleys cannot come.",
        ),
        (
            "L'utilisateur dit qu'il vous amène 4 bottes de foin.",
            "L'utilisateur dit qu'il amène deux bottes de plus que prévu.",
            "L'utilisateur dit qu'il amène deux bottes de plus (6 bottes en tout) que prévu.",
        ),
        (
            "The user says that the starter pack is 4 lessons.",
            "The user asks to add 2 lessons on top of the pack.",
            "The user asks to add 2 lessons (6 lessons in all) on top of the pack.",
        ),
        (
            "L'utilisateur dit qu'on part sur 3 mois pour tester.",
            "L'utilisateur dit que tant que t'y es rajoute 3 mois à l'abonnement.",
            "L'utilisateur dit que tant que t'y es rajoute 3 mois (6 mois en tout) à l'abonnement.",
        ),
        (
            "L'utilisateur dit qu'il faut 6 tréteaux.",
            "L'utilisateur dit qu'il faut un tréteau en moins.",
            "L'utilisateur dit qu'il faut un tréteau en moins (5 tréteaux en tout).",
        ),
        # made a multiple: the older count as it was written, its number made anew
        (
            "The user says that the block of 6 please (in answer to: We do a 6-session block "
            "at 200 pounds).",
            "The user asks whether we can double the block too.",
            "The user asks whether we can double the block (12-session block in all) too.",
        ),
        (
            "The user orders 4 crates of apples a week.",
            "The user says twice as many crates from June.",
            "The user says twice as many crates (8 crates in all) from June.",
        ),
        # unnamed: the one count of what the newer statement names too
        (
            "L'utilisateur pensait à 5 bocaux de 250 g par semaine pour commencer.",
            "L'utilisateur dit qu'à partir de mai vous nous mettez le double de bocaux.",
            "L'utilisateur dit qu'à partir de mai vous nous mettez le double de bocaux (10 "
            "bocaux en tout).",
        ),
        (
            "L'utilisateur commande 8 bouquets par mois.",
            "L'utilisateur dit que pour les bouquets on passe à la moitié, c'est plus calme.",
            "L'utilisateur dit que pour les bouquets on passe à la moitié (4 bouquets en tout), "
            "c'est plus calme.",
        ),
        # the count the client gave, not one the question offered
        (
            "L'utilisateur part sur 4 mois pour tester (en réponse à « Sur 4, 8 ou 12 mois ? »).",
            "L'utilisateur dit de rajouter 4 mois à l'abonnement.",
            "L'utilisateur dit de rajouter 4 mois (8 mois en tout) à l'abonnement.",
        ),
    ],
)
def test_a_count_given_against_an_older_one_replaces_it_with_the_total(
    old: str, new: str, made: str
) -> None:
    assert may_add_to_a_count(new)
    assert count_added(old, new)
    assert with_the_count_made(old, new) == made


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # no older count of the same thing
        ("The user says that a stove in the lounge.", "That's one more flue than I said."),
        ("The user has 3 dogs.", "Two more stools turned up in the shed."),
        # a thing, not a count
        ("The user has 3 dogs.", "One more thing: the dogs stay in the kitchen."),
        # those already known, moved elsewhere: no count changes
        ("The user wants 12 panels.", "Put the two extra panels on the back roof instead."),
        ("L'utilisateur veut 12 panneaux.", "Mettez les deux panneaux en plus sur l'autre toit."),
        # taking away more than there were
        ("The user has 2 flues.", "Three fewer flues than I said."),
        # "one more thing" adds to no "anything"
        ("The user says that the code is 582; no chicken anything.", "One more thing, we're away."),
        # a price for each is no count of them
        ("L'utilisateur prend la formule à 24 € par personne.", "Rajoutez une personne."),
        ("The user pays £30 per bike.", "One more bike please."),
    ],
)
def test_no_count_is_made_without_an_older_count_of_that_thing(old: str, new: str) -> None:
    assert not count_added(old, new)
    assert with_the_count_made(old, new) is None


def test_a_total_made_against_one_older_count_is_not_made_again_against_another() -> None:
    made = with_the_count_made("We're 40 guests.", "Add one more guest, gluten free.")
    assert made == "Add one more guest (41 guests in all), gluten free."
    assert with_the_count_made("Around 38 guests.", made) == made


@pytest.mark.parametrize(
    ("old", "new", "made"),
    [
        # an amount against the one said, on the same topic
        (
            "The user says that we have £600 a month for the cleaning.",
            "The user says that for the cleaning we can go two hundred more than the user said.",
            "The user says that for the cleaning we can go two hundred more (£800 in all) "
            "than the user said.",
        ),
        (
            "L'utilisateur dit que le budget repas c'est 40 € par personne.",
            "L'utilisateur dit que pour le budget repas on peut mettre 5 € de plus que prévu.",
            "L'utilisateur dit que pour le budget repas on peut mettre 5 € de plus "
            "(45 € en tout) que prévu.",
        ),
        # the sum written as the older statement writes it
        (
            "L'utilisateur dit que le budget c'est 2 400 € tout compris.",
            "L'utilisateur dit que pour le budget on peut mettre 200 € de plus que prévu.",
            "L'utilisateur dit que pour le budget on peut mettre 200 € de plus (2 600 € en tout) "
            "que prévu.",
        ),
        # the thing unnamed: the older statement's one count, on the same topic
        (
            "L'utilisateur prend la carte de 12 entrées à la piscine.",
            "L'utilisateur dit que pour la carte piscine il en prendra trois de moins que prévu.",
            "L'utilisateur dit que pour la carte piscine il en prendra trois de moins "
            "(9 entrées en tout) que prévu.",
        ),
        # the count given before in the same sentence
        (
            "L'utilisateur dit qu'on part sur 8 semaines de cours.",
            "L'utilisateur dit que sur les 8 semaines on en fait deux de moins.",
            "L'utilisateur dit que sur les 8 semaines on en fait deux de moins "
            "(6 semaines en tout).",
        ),
        # people counted before, the one count of those the newer statement names
        (
            "L'utilisateur dit qu'on sera 30 adultes et 6 enfants (en réponse à « Combien de "
            "personnes ? »).",
            "L'utilisateur dit qu'on sera deux de plus côté adultes, les cousins viennent.",
            "L'utilisateur dit qu'on sera deux de plus (32 adultes en tout) côté adultes, les "
            "cousins viennent.",
        ),
        (
            "The user says that we will be 30 adults and 6 kids.",
            "The user says that we'll be two more adults, the cousins confirmed.",
            "The user says that we'll be two more adults (32 adults in all), the cousins "
            "confirmed.",
        ),
        # the thing named after its number
        (
            "The user says that we burn 5 sacks of coal a week.",
            "The user says that make it two sacks more than we have now.",
            "The user says that make it two sacks more (7 sacks in all) than we have now.",
        ),
        # a name with a number in it ("A3") counts nothing
        (
            "The user says that it is seven A3 posters for the fair.",
            "The user says that one more poster than the user said, for the entrance.",
            "The user says that one more poster (8 posters in all) than the user said, for the "
            "entrance.",
        ),
    ],
)
def test_a_count_or_amount_against_what_was_said_is_told_with_its_total(
    old: str, new: str, made: str
) -> None:
    assert may_add_to_a_count(new)
    assert with_the_count_made(old, new) == made


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # nothing of the same topic
        (
            "The user's garage holds 3 cars.",
            "For the flowers we can go a hundred more than I said.",
        ),
        # a date is no count
        (
            "L'utilisateur se marie le samedi 13 juin au château.",
            "L'utilisateur dit que pour le château ce sera deux de plus que prévu.",
        ),
        # "one more thing" opens another point; a year is no count of what follows it
        (
            "The user says that no budget this year (2026); one thing matters: nothing that "
            "flowers.",
            "The user says that one more thing, reception looks bare.",
        ),
        (
            "L'utilisateur passe à l'atelier le 19 (Tuesday 19 May 2026) et dépose les livres.",
            "L'utilisateur a déposé les livres à l'atelier ce matin, il en a amené 2 de plus que "
            "prévu.",
        ),
        # the one count of the older statement is of another thing than the newer names
        (
            "The user says that we have 4 treatment rooms upstairs.",
            "The user asks to go two fewer than the user said; the two corridor plants go.",
        ),
        # two amounts: which one grew is not said
        (
            "The user says the venue is £900 and the band £400 for the party.",
            "The user says for the party we can go a hundred more than I said.",
        ),
    ],
)
def test_no_total_is_made_where_what_was_said_is_not_known(old: str, new: str) -> None:
    assert with_the_count_made(old, new) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a double room, double glazing, twice as dear: no count made twice as large
        ("The user books 3 rooms.", "The user wants a double room this time."),
        ("L'utilisateur a 12 fenêtres.", "L'utilisateur veut le double vitrage partout."),
        ("L'utilisateur commande 4 cartons.", "L'utilisateur trouve ça deux fois plus cher."),
        # doubled, but nothing the older statement counts
        ("The user orders 4 crates of apples.", "The user asks to double it."),
        # an odd count halved is no count
        ("The user orders 5 crates of apples.", "The user wants half as many crates."),
    ],
)
def test_no_multiple_is_made_without_a_count_to_multiply(old: str, new: str) -> None:
    assert with_the_count_made(old, new) is None
