"""What a new statement says of the value it replaces is history: the older fact keeps it,
and the prompt reads only what holds now."""

from __future__ import annotations

import pytest

from somna.llm.rules.history import without_the_old


@pytest.mark.parametrize(
    ("old", "new", "kept"),
    [
        (
            "The user says that quarterly visits for the vans.",
            "The user says that we're switching to monthly visits, quarterly wasn't enough.",
            "The user says that we're switching to monthly visits.",
        ),
        (
            "The user says that the bikes live at Unit 4, Tanyard Row.",
            "The user says that the Tanyard lease has ended; the bikes live at 9 Quay Street now.",
            "The user says that the bikes live at 9 Quay Street now.",
        ),
        (
            "L'utilisateur dit que par WhatsApp c'est le plus simple.",
            "Écrivez à l'utilisateur par mail maintenant, WhatsApp l'utilisateur le regarde "
            "plus trop.",
            "Écrivez à l'utilisateur par mail maintenant.",
        ),
        (
            "L'utilisateur dit qu'on part sur le forfait annuel.",
            "L'utilisateur dit que finalement on repasse au forfait mensuel, l'annuel est trop "
            "cher.",
            "L'utilisateur dit que finalement on repasse au forfait mensuel.",
        ),
        # the old thing dropped in so many words, whatever its length
        (
            "The user was thinking plain oak, nothing fussy (in answer to: Any thoughts on "
            "the frames?).",
            "The user says the walnut one looks better with the greens; let's go with that "
            "and forget the oak.",
            "The user says the walnut one looks better with the greens; let's go with that.",
        ),
        (
            "The user says that silver-grey thread for the crest.",
            "The user says that the governors voted to go gold on the crest, so scrap the "
            "silver-grey.",
            "The user says that the governors voted to go gold on the crest.",
        ),
        # a word of no elsewhere ("trop vite") beside a value of its own, which keeps the
        # unit of the clause that goes
        (
            "L'utilisateur dit qu'il lui faudrait 30 bougies par mois.",
            "L'utilisateur dit que la vitrine se vide trop vite, 30 bougies c'est pas assez; on "
            "monte à 45 par mois.",
            "L'utilisateur dit que la vitrine se vide trop vite, on monte à 45 bougies par mois.",
        ),
    ],
)
def test_the_clause_saying_the_old_value_no_longer_holds_goes(
    old: str, new: str, kept: str
) -> None:
    assert without_the_old(old, new) == kept


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the clause names a value of its own: the new one
        (
            "The user says that we're back on the 21st (Sunday 21 June 2026).",
            "The user says that our flight moved, we're now back on the 23rd (Tuesday 23 June "
            "2026) not the 21st (Sunday 21 June 2026).",
        ),
        (
            "L'utilisateur dit qu'on sera 18 postes.",
            "L'utilisateur dit qu'on a recruté, du coup on sera 22 postes et pas 18.",
        ),
        # a case, not history
        (
            "The user says that leave the crates with Ambrose at the gate.",
            "The user says that Seraphine opens up now, if nobody's at the gate leave the "
            "crates in the porch.",
        ),
        # the change itself, beside nothing that holds now
        (
            "L'utilisateur dit que Brindille et Pacôme : bain, séchage au souffleur.",
            "L'utilisateur dit que jusqu'à ses 6 mois; Autre chose, Pacôme supporte plus le "
            "souffleur, il panique.",
        ),
        # a no throughout: what is left says no as well
        (
            "The user says that maybe a banner (in answer to: A banner for the fête too?).",
            "The user says that no banner in the end, the committee said no.",
        ),
        # the thing dropped is the change itself, or one the old statement never named
        ("The user says that the rye loaf and two croissants.", "The user says scratch the rye."),
        # a thing dropped with nothing of its kind in its place is the news
        (
            "The user says that 4 treadmills and 2 rowing machines.",
            "The user says that we've had a rethink: 8 treadmills, and drop the rowing "
            "machines, nobody used them.",
        ),
        (
            "The user says that the rye loaf and two croissants.",
            "The user says two more croissants, and forget the seeded batch.",
        ),
        # "plus tard" is later, no "no longer"
        (
            "L'utilisateur dit que le rendez-vous à 10h.",
            "L'utilisateur dit que les rendez-vous une heure plus tard (11h), l'utilisateur "
            "finit plus tard le matin.",
        ),
    ],
)
def test_a_statement_keeps_what_is_no_history(old: str, new: str) -> None:
    assert without_the_old(old, new) in (None, new)
