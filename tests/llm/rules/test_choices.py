"""Choices among a few values of one kind (a plan's billing, a way to be reached), made
anew in either language: what a statement chooses, and how a newer choice stands to an
older one."""

from __future__ import annotations

import pytest

from somna.llm.rules.choices import choice_verdict, chosen
from somna.model import Verdict


@pytest.mark.parametrize(
    ("text", "choice"),
    [
        ("The user is on the quarterly plan.", {"billing": {"quarterly"}}),
        ("L'utilisateur a choisi la formule annuelle.", {"billing": {"annual"}}),
        ("Prefers to be reached by text, never by phone.", {"channel": {"text"}}),
        ("Préfère qu'on l'appelle plutôt que par mail.", {"channel": {"phone"}}),
        # a value the question offered is not chosen by the answer
        (
            "The user says that the cheaper one (in answer to: Monthly or annual plan?).",
            {},
        ),
        # what is chosen may be said by the question answered, or by how to write
        (
            "Appelez l'utilisateur après 17h (en réponse à « Comment préférez-vous qu'on "
            "vous recontacte ? »).",
            {"channel": {"phone"}},
        ),
        ("Finalement écrivez-lui sur WhatsApp plutôt.", {"channel": {"whatsapp"}}),
        # the question asked how to reach, in a conjugated form
        (
            "L'utilisateur dit que par SMS au 06 12 34 56 78; pas d'appel le midi (en réponse "
            "à « Comment on vous joint le plus facilement ? »).",
            {"channel": {"text"}},
        ),
        # nothing says what is chosen
        ("The user sends a monthly report to the board.", {}),
    ],
)
def test_what_a_statement_chooses(text: str, choice: dict[str, set[str]]) -> None:
    assert chosen(text) == choice


@pytest.mark.parametrize(
    ("old", "new", "said", "verdict"),
    [
        ("Takes the annual plan.", "Switched to the monthly plan.", None, Verdict.SUPERSEDES),
        (
            "The user wants to be contacted by email, never by phone.",
            "L'utilisateur préfère qu'on l'appelle le matin plutôt que par email maintenant.",
            None,
            Verdict.SUPERSEDES,
        ),
        # the change may be in the words it was said in, not in the retold fact
        (
            "Pays for the plan yearly.",
            "Pays for the plan monthly.",
            "From now on I'll pay for the plan monthly.",
            Verdict.SUPERSEDES,
        ),
        ("Takes the annual plan.", "Is on the monthly plan.", None, Verdict.CONTRADICTS),
        ("Takes the annual plan.", "Still on the annual plan, happily.", None, None),
        ("Prefers to be contacted by email.", "Prefers email, or a call.", None, None),
        ("Takes the annual plan.", "Prefers to be contacted by email.", None, None),
        ("Takes the annual plan.", "Now reads the monthly newsletter.", None, None),
        # a meeting held by video "instead" chooses no way to be reached
        ("Par mail uniquement svp.", "Mardi 10h c'est bon, en visio plutôt.", None, None),
        # a plan's tier, and the size of a home sought
        (
            "We'd like the basic support plan to start.",
            "Let's upgrade to the premium plan with weekend cover.",
            None,
            Verdict.SUPERSEDES,
        ),
        (
            "Cherche un T2 à louer à Rennes.",
            "Préfère un T3, pour faire un bureau.",
            None,
            Verdict.CONTRADICTS,
        ),
        # what a choice passed over, taken after all, in so many words
        (
            "A buffet rather than a seated dinner, it's friendlier.",
            "Change of mind: it will be a seated dinner, for the grandparents.",
            None,
            Verdict.SUPERSEDES,
        ),
        ("A buffet rather than a seated dinner.", "The seated dinner hall is booked.", None, None),
        # how often a visit comes, in either language; a newsletter's frequency is no visit's
        (
            "L'utilisateur dit qu'un passage tous les quinze jours (en réponse à « À quelle "
            "fréquence ? »).",
            "L'utilisateur dit qu'avec l'été, on passe à un passage par semaine.",
            None,
            Verdict.SUPERSEDES,
        ),
        (
            "A cleaning visit every two weeks.",
            "A cleaning visit once a month.",
            None,
            Verdict.CONTRADICTS,
        ),
        ("A cleaning visit every two weeks.", "Reads the weekly newsletter now.", None, None),
        # how a bill is paid
        (
            "L'utilisateur dit qu'en trois fois par chèque (en réponse à « Et pour le paiement "
            "de la cotisation ? »).",
            "L'utilisateur dit que finalement on paiera la cotisation par virement.",
            None,
            Verdict.SUPERSEDES,
        ),
        # a move in so many words need not name again what it moves
        (
            "The user says that once a month, on a Monday (in answer to: How often?).",
            "The user says the sea air is worse than thought, let's switch to every two weeks.",
            None,
            Verdict.SUPERSEDES,
        ),
        # nor need the older, itself a move; a regime from a time on says it changed
        (
            "The user says that we eat less these days; the user asks to switch to every "
            "other month.",
            "The user says that the box was lovely; the user asks for one every month from May.",
            None,
            Verdict.SUPERSEDES,
        ),
        (
            "L'utilisateur dit qu'un colis par mois (en réponse à « Quel rythme d'envoi ? »).",
            "L'utilisateur dit qu'il voudrait un colis tous les deux mois à partir de juin.",
            None,
            Verdict.SUPERSEDES,
        ),
        # a count per month is no frequency chosen
        (
            "The user says that 6 bottles a month is plenty; one case, monthly.",
            "The user says that 6 bottles a month is plenty, one case.",
            None,
            None,
        ),
        (
            "L'utilisateur dit que l'essentiel suffira (en réponse à « Formule Essentiel ou "
            "Confort ? »).",
            "L'utilisateur a réfléchi, finalement on prend la formule Confort.",
            None,
            Verdict.SUPERSEDES,
        ),
        # what it moves from named again, though the older statement named no visit
        (
            "The user says that quarterly's fine to start, money is tight.",
            "The user says that quarterly really isn't enough, can we go monthly instead?",
            None,
            Verdict.SUPERSEDES,
        ),
        # a colour chosen anew for what is made
        (
            "The user has been through the swatches, going with the green wool, the thick one.",
            "The user keeps going back to the swatch book; let's do the charcoal instead.",
            None,
            Verdict.SUPERSEDES,
        ),
        (
            "L'utilisateur dit que vert sapin (en réponse à « Les volets, quelle couleur ? »).",
            "L'utilisateur dit que pour les volets, plutôt le gris anthracite finalement.",
            None,
            Verdict.SUPERSEDES,
        ),
        (
            "L'utilisateur dit que des lettres découpées sur la façade, en vert sapin.",
            "L'utilisateur dit que finalement on part sur du bleu canard pour les lettres.",
            None,
            Verdict.SUPERSEDES,
        ),
        (
            "L'utilisateur pensait à un tissu moutarde pour le canapé (en réponse à « Une idée "
            "du tissu ? »).",
            "L'utilisateur a réfléchi, le moutarde jure avec le tapis; on part sur un tissu "
            "violet foncé.",
            None,
            Verdict.SUPERSEDES,
        ),
        # the wood of what is made
        (
            "L'utilisateur dit que du hêtre massif (en réponse à « Quelle essence de bois ? »).",
            "L'utilisateur dit que finalement le hêtre fait trop clair, on prend du noyer.",
            None,
            Verdict.SUPERSEDES,
        ),
        # an address moved to, posting anything, is no way of reaching chosen
        (
            "The user says that 07700 900100; the user asks the assistant to text.",
            "The user has moved to 3 Elm Row, if the assistant posts anything.",
            None,
            None,
        ),
        # one word passed over is named too often to be taken back by it
        ("Email rather than phone, please.", "The phone line is new.", None, None),
        # what a statement is about is not what it chooses: the reminders go by text, the
        # client is still called
        (
            "L'utilisateur dit que le mardi c'est son jour de repos, appelez le mardi svp (en "
            "réponse à « Et par téléphone, quand est-ce qu'on peut vous joindre ? »).",
            "L'utilisateur dit que finalement pour les sms mettez 12h avant.",
            None,
            None,
        ),
        (
            "Call the user on Fridays (in answer to: How can we reach you?).",
            "The user says that for the texts, make it the evening before from now on.",
            None,
            None,
        ),
        # the value left named beside the one chosen, no word of change: it was the one before
        (
            "The user says that white upvc probably, keep it simple (in answer to: Any "
            "preference on frames?).",
            "The user says that Hollis has put his foot down about the white; he wants that "
            "dark anthracite grey, inside and out.",
            None,
            Verdict.SUPERSEDES,
        ),
        (
            "L'utilisateur dit qu'alu, noir mat, un truc moderne (en réponse à « Vous avez "
            "une idée du style ? »).",
            "L'utilisateur dit que la couleur, elle a montré le noir à l'équipe, ils trouvent "
            "ça triste; on part sur le bleu canard.",
            None,
            Verdict.SUPERSEDES,
        ),
        # the old value turned down, not spoken of: what holds, set against what was said
        (
            "The user always pays by card over the phone (in answer to: How does the user "
            "like to pay?).",
            "The user says that the user pays everything by bank transfer, the user never "
            "gives card details over the phone.",
            None,
            Verdict.CONTRADICTS,
        ),
        # what a worktop or a wall is made of
        (
            "The user says that solid oak; the user loves how warm it looks (in answer to: "
            "Any thoughts on the worktop?).",
            "The user says that the oak worktop by the sink will warp; let's go quartz instead.",
            None,
            Verdict.SUPERSEDES,
        ),
        (
            "L'utilisateur dit que du calcaire blond comme la maison (en réponse à « Quelle "
            "pierre pour le muret ? »).",
            "L'utilisateur dit que finalement plutôt du grès rose pour le muret.",
            None,
            Verdict.SUPERSEDES,
        ),
        # what it is of said only in the older one's question, the old value named again
        (
            "L'utilisateur dit que du stratifié, faut que ça reste raisonnable (en réponse à « "
            "Et pour le plan de travail ? »).",
            "L'utilisateur a vu les échantillons, le stratifié fait cheap à côté; on part sur "
            "la céramique.",
            None,
            Verdict.SUPERSEDES,
        ),
        # the material of a part of the house, chosen anew with nothing said of a change
        (
            "L'utilisateur dit que des descentes en zinc, assorties au toit.",
            "L'utilisateur dit que les descentes, on les prend en pvc gris pour finir.",
            None,
            Verdict.CONTRADICTS,
        ),
        # the roof's slate is no choice of what the gutters are made of
        (
            "L'utilisateur dit que des descentes en zinc, assorties au toit.",
            "L'utilisateur dit que finalement on part sur l'ardoise pour la toiture.",
            None,
            None,
        ),
        # thinking about another is no choice made against the first
        (
            "The user wants white frames.",
            "The user is thinking about the grey frames.",
            None,
            Verdict.CONTRADICTS,
        ),
    ],
)
def test_a_newer_choice_supersedes_when_it_says_so_and_contradicts_otherwise(
    old: str, new: str, said: str | None, verdict: Verdict | None
) -> None:
    assert choice_verdict(old, new, said) is verdict
