"""A name given anew in its slot: the slot of the question an answer gave one to, or the
words the name stood among."""

from __future__ import annotations

import pytest

from somna.llm.rules.asked import slot_renamed

_DERBY = "The user says that Derby suits us (in answer to: From which station will you leave?)."
_LILLE = "L'utilisateur dit que Lille c'est mieux (en réponse à « Vous partez de quelle gare ? »)."
_IN_COPY = "The user wants the invoices by email, with Bruno in copy."
_EN_COPIE = "L'utilisateur veut les factures par mail, avec son associé Bruno en copie."


@pytest.mark.parametrize(
    ("old", "new", "renamed"),
    [
        # the slot of the question answered
        (_DERBY, "The user asks to leave from York instead.", True),
        (_LILLE, "L'utilisateur dit que finalement on part de Grenoble.", True),
        # the words the name stood among
        (_IN_COPY, "The user says that Bruno is leaving, put Lina in copy from now on.", True),
        (_EN_COPIE, "L'utilisateur dit que désormais, mettez Lina en copie, Bruno change.", True),
        ("Our contact is Bruno for the Derby site.", "Our contact is Lina now.", True),
        # nothing says it changed
        (_DERBY, "The user asks to leave from York.", False),
        (_IN_COPY, "The user says to put Lina in copy of the quotes.", False),
        # another slot or frame, or the same name again
        (_DERBY, "The user now travels with Nour.", False),
        (_DERBY, "The user will leave from Derby after all.", False),
        (_IN_COPY, "The user now travels with Lina to the fair.", False),
        # the words of any retold statement are no frame: a move names a new town beside
        # "l'utilisateur" as the portrait named the user beside it
        (
            "L'utilisateur s'appelle Nour Varga, l'utilisateur a un chien qui s'appelle Nino.",
            "L'utilisateur dit qu'on a déménagé à Poitiers; l'utilisateur veut un rendez-vous.",
            False,
        ),
        (
            "The user is Nour Varga, the user owns a dog called Nino.",
            "The user says they moved to Exeter now, the user wants a new slot.",
            False,
        ),
        # an address given anew for the same thing
        (
            "The user says email them to noa@varga.example please (in answer to: How should "
            "we send the user's invoices?).",
            "The user says send invoices to books@varga.example from now on.",
            True,
        ),
        (
            "L'utilisateur dit que pour le joindre, c'est le 06 12 34 56 78.",
            "L'utilisateur dit que pour le joindre désormais, c'est le 07 98 76 54 32.",
            True,
        ),
        # a value said for now, given anew
        (
            "The user says that hot desk for now, 3 days a week is plenty.",
            "The user would like to move to a fixed desk from October.",
            True,
        ),
        (
            "L'utilisateur dit que poste nomade pour l'instant, ça suffit.",
            "L'utilisateur dit que finalement on passe à un poste fixe.",
            True,
        ),
        (
            "The user says that hot desk for now, 3 days a week is plenty.",
            "The user would like to move the meeting to Friday.",
            False,
        ),
        ("The user uses a hot desk.", "The user would like to move to a fixed desk now.", False),
        # "for now" is no word of the thing held for now
        (
            "The user is the landlord, just the one building, well for now.",
            "The user says that not right now thanks (in answer to: Would the user like our "
            "lock service?).",
            False,
        ),
        # the other of the choices a question offered
        (
            "The user says that Bronze should do (in answer to: Which package, Bronze or Silver?).",
            "The user decided to upgrade to the Silver package.",
            True,
        ),
        (
            "L'utilisateur dit que le studio ira très bien (en réponse à « Vous préférez, le "
            "studio ou le deux-pièces ? »).",
            "L'utilisateur dit que finalement on part sur le deux-pièces.",
            True,
        ),
        (
            "The user says that Bronze should do (in answer to: Which package, Bronze or Silver?).",
            "The user now wants the Bronze with an extra hour.",
            False,
        ),
        # the other option taken, with no word of change
        (
            "L'utilisateur dit qu'une tringle en laiton (en réponse à « Vous préférez une "
            "tringle ou un rail ? »).",
            "L'utilisateur dit que d'accord, va pour le rail alors.",
            True,
        ),
        # the offer taken names the one it replaces: what the client said does not
        (
            "L'utilisateur dit qu'une tringle en laiton (en réponse à « Vous préférez une "
            "tringle ou un rail ? »).",
            "L'utilisateur dit que d'accord, va pour le rail alors (en réponse à « Je vous "
            "conseillerais un rail, plus solide qu'une tringle »).",
            True,
        ),
        (
            "The user says that Bronze should do (in answer to: Which package, Bronze or Silver?).",
            "The user says we'll take the Silver, the team grew.",
            True,
        ),
        (
            "The user says that Bronze should do (in answer to: Which package, Bronze or Silver?).",
            "The user says we'll take the Bronze again.",
            False,
        ),
        # among more than two choices, or with no comma before the first
        (
            "The user says that medium for now (in answer to: Small, medium or large crate?).",
            "The user says that we'll need the large crate going forward.",
            True,
        ),
        (
            "L'utilisateur dit que l'essentielle suffira (en réponse à « Vous prenez la formule "
            "essentielle ou intégrale ? »).",
            "L'utilisateur dit que finalement on prend la formule intégrale.",
            True,
        ),
        # the old choice named again as the one left, or still taken
        (
            "The user says that medium for now (in answer to: Small, medium or large crate?).",
            "The user wants the large crate instead of the medium from now on.",
            True,
        ),
        (
            "The user says that medium for now (in answer to: Small, medium or large crate?).",
            "The user now wants a medium crate and a large lid.",
            False,
        ),
        # the same place named otherwise, after the same word
        (
            "The user says that we collect the vans at your branch in town.",
            "The user says that actually the pickup will be at the branch in Exeter.",
            True,
        ),
        (
            "The user says that we collect the vans at your branch in town.",
            "The user says the staff in Exeter are nice now.",
            False,
        ),
        # a question asking who or where answered again with another name
        (
            "L'utilisateur dit que sa mère, Lina Varga (en réponse à « Qui sera votre "
            "accompagnateur ? »).",
            "L'utilisateur dit que ce sera son père, Bruno, qui l'accompagnera finalement.",
            True,
        ),
        (
            "The user says that at the Old Mill in Derby, in the blue room (in answer to: "
            "Where will the user be getting ready?).",
            "The user says the venue changed our room, we'll be getting ready in the Oak Room "
            "instead.",
            True,
        ),
        # a question answered with a name, answered again with another who took over
        (
            "L'utilisateur dit qu'à l'attention de notre trésorier Corentin Labadie (en "
            "réponse à « Et pour la facture ? »).",
            "L'utilisateur dit que mettez la facture au nom de Maïwenn Gorse, c'est elle qui "
            "a repris la trésorerie.",
            True,
        ),
        (
            "The user says that to our treasurer Corentin Labadie (in answer to: And the "
            "invoice?).",
            "The user says that please make the invoice out to Maiwenn Gorse, she's taken "
            "over the accounts.",
            True,
        ),
        (
            "The user says that to our treasurer Corentin Labadie (in answer to: And the "
            "invoice?).",
            "The user says that Maiwenn Gorse loved the invoice layout, it reads well.",
            False,
        ),
        # the speaker's own name, asked for, is no slot another name takes
        (
            "The user says that Corentin Labadie, manager at Quillon Joinery (in answer to: "
            "May the assistant have the user's name, to pull up the user's account?).",
            "The user says that the new hire starts monday; set up her account; Maiwenn Gorse.",
            False,
        ),
        # a question asking what answers no name anew; a name asked about is no word of it
        (
            "The user says that 5 years already (in answer to: How long has Noa been married?).",
            "The user says Lina now runs the shop, it's been married to the old bakery.",
            False,
        ),
        (
            "The user says that the kids keep the user going (in answer to: Who supports "
            "Noa, Noa?).",
            "The user says that Noa took the kids to see Lina's new show now.",
            False,
        ),
        # swapped for another
        (
            "The user says that a small locker would be handy (in answer to: Any storage?).",
            "The user asks to swap the small locker for a large one.",
            True,
        ),
        # what was paid otherwise, named as the one left ("instead of paying by card")
        (
            "The user says that card on the day is easiest (in answer to: How does the user "
            "prefer to pay?).",
            "The user says invoices monthly instead of paying by card, please.",
            True,
        ),
        # a choice named in the plural ("mornings" for "Morning or afternoon?")
        (
            "The user says that late afternoon, after 4pm (in answer to: Morning or afternoon?).",
            "The user has a new job, mornings before 9 suit the user better now.",
            True,
        ),
        # what asks before the first comma offers nothing ("user" is in every retelling)
        (
            "The user says that Bronze should do (in answer to: Which package suits the user, "
            "Bronze or Silver?).",
            "The user says the new user badge is ready.",
            False,
        ),
        # what was taken, dropped in its words
        (
            "The user says that the rye loaf, sliced, every Friday (in answer to: Which bread?).",
            "The user says scratch the rye loaf, customers want the spelt one.",
            True,
        ),
        (
            "L'utilisateur dit que le lavage des vitres et le repassage, le mardi.",
            "L'utilisateur dit : annulez le lavage des vitres, on déménage.",
            True,
        ),
        (
            "The user says that yes, sign them up for the Sunday canal walk too.",
            "The user says please forget the Sunday canal walk, the twins hated the last one.",
            True,
        ),
        (
            "L'utilisateur dit que oui, avec l'option fromage (en réponse à « Une option ? »).",
            "L'utilisateur dit que laisse tomber l'option fromage, on en a trop.",
            True,
        ),
        (
            "The user says that yes, sign them up for the Sunday canal walk too.",
            "The user says don't forget the Sunday canal walk, they love it.",
            False,
        ),
        (
            "The user says that a piano, an upright one, and a big sofa (in answer to: "
            "Anything bulky?).",
            "The user says we sold the piano to a neighbour, one less thing.",
            True,
        ),
        (
            "L'utilisateur dit qu'on a un piano droit et un canapé d'angle.",
            "L'utilisateur dit qu'on a vendu le piano à un voisin.",
            True,
        ),
        (
            "The user says that the rye loaf, sliced, every Friday.",
            "The user says drop off the rye loaf at the back door.",
            False,
        ),
        (
            "The user says that the rye loaf, sliced, every Friday.",
            "The user says cancel the spelt order.",
            False,
        ),
        (
            "The user says that the rye loaf, sliced, every Friday.",
            "The user says we won't cancel the rye loaf, it sells well.",
            False,
        ),
        # "that" dropped is what was said just before, not what follows "and"
        (
            "The user wants to be contacted by email at noa@varga.example.",
            "The user can't make the visit now; the user asks to cancel that and just do it "
            "by email.",
            False,
        ),
        # the same address, or another about something else, or nothing says it changed
        (
            "The user says email the invoices to noa@varga.example.",
            "The user says the invoices go to noa@varga.example from now on.",
            False,
        ),
        (
            "The user says email the invoices to noa@varga.example.",
            "The user says the tickets now go to desk@varga.example.",
            False,
        ),
        (
            "The user says email the invoices to noa@varga.example.",
            "The user says email the invoices to books@varga.example.",
            False,
        ),
        # a capital that opens a statement frames nothing: any word may stand there
        (
            "Dora says that we ate out; Weekends like that make the whole month.",
            "Dora says that Evenings like that make the new flat a home.",
            False,
        ),
        (
            "Dora says that Honestly, Lina's bakery smells great.",
            "Dora says that Truly, Lina's new sign is lovely.",
            False,
        ),
        # the old name stays beside the new one
        (_IN_COPY, "The user wants Bruno and Lina in copy from now on.", False),
        # a month or a day is no name
        (_DERBY, "The user will now leave from Monday.", False),
        # the old answer named nothing
        (
            "The user says that the early one (in answer to: From which station?).",
            "The user asks to leave from York instead.",
            False,
        ),
        # the same two words beside, none of them saying anything ("to it with …")
        ("The user went to it with Bruno.", "The user now goes to it with Lina.", False),
        # another person's number, about nothing the first way was for ("par" ties nothing)
        (
            "L'utilisateur dit que par SMS au 06 12 34 56 78 (en réponse à « Comment "
            "préférez-vous être contactée ? »).",
            "L'utilisateur dit que par contre c'est Ondine qui ouvre maintenant; Son portable : "
            "07 98 76 54 32.",
            False,
        ),
        # "not for now" turns an offer down: no value held for now
        (
            "The user says that not for now thanks; Email is best, ines@folio.example (in "
            "answer to: Would you like a quote for a humidity unit?).",
            "The user says that the tuning made a world of difference, she practises now.",
            False,
        ),
        # someone else does what another did, in the same words, said to change or not
        (
            "The user says that our caretaker Ambrose Quilling has the keys.",
            "The user says that Seraphine Dallow has the keys, ring her on arrival.",
            True,
        ),
        (
            "The user says that our stage manager Bruno will sign for the kit.",
            "The user says that Lina will sign for the kit on Saturday.",
            True,
        ),
        (
            "L'utilisateur dit que Anatole Vicq, notre gardien, va vous ouvrir, il a les clés.",
            "L'utilisateur dit que c'est Bérénice Oudart qui vous ouvrira le 13.",
            True,
        ),
        # a value held for now is the one its clause gives, not another statement's
        (
            "The user says that the alarms are touchy, leave that for now; no strobe please, "
            "one of our cast has epilepsy.",
            "The user says that there's no lift, everything goes up 9 steps, tell our crew.",
            False,
        ),
        # both named, or another deed: nothing taken over
        (
            "The user says that our caretaker Ambrose Quilling has the keys.",
            "The user says that Ambrose Quilling and Seraphine Dallow have the keys.",
            False,
        ),
        (
            "The user says that our caretaker Ambrose Quilling has the keys.",
            "The user says that Seraphine Dallow has the van on Fridays.",
            False,
        ),
        # what was said named again, and the same thing chosen with another word beside it
        (
            "L'utilisateur dit qu'une nuit, en chambres individuelles (en réponse à « Et pour "
            "dormir ? »).",
            "L'utilisateur dit que les chambres individuelles coûtent trop, on part sur des "
            "chambres doubles.",
            True,
        ),
        (
            "The user says standard rooms for everyone (in answer to: Which rooms?).",
            "The user says the standard rooms are full, so we'll go with superior rooms.",
            True,
        ),
        (
            "The user says blue paint for the hall.",
            "The user says we'll go with the blue tiles for the bathroom.",
            False,
        ),
        # a verb opening a statement is no name ("Say 10am"), nor a value the new one renames
        (
            "The user asks the assistant to do Wednesday 14th October, in the morning; Say "
            "10am (in answer to: Walnut it is, shall we book the hanging too?).",
            "The user says that re the hanging day, Gwen obviously can't help at the new "
            "house; the user's son Basile will be there with the keys.",
            False,
        ),
        # an offer put off "right now" renames nothing of what came "for a start"
        (
            "The user says that a fascia board over the front for a start; it's 4.2m wide "
            "(in answer to: What did the user have in mind?).",
            "The user says that not right now ta (in answer to: We also do matching A-board "
            "pavement signs, would the user like one?).",
            False,
        ),
        # a word of the question said far from the new name, about another thing
        (
            "The user says that the bursar, Ysaline Thornquist, pays (in answer to: For "
            "billing, is it the user personally or the school?).",
            "The user says that can the parcel go to Hollis Hall on Mere Lane instead, "
            "reception at school is shut all summer.",
            False,
        ),
    ],
)
def test_a_name_given_anew_in_its_slot(old: str, new: str, renamed: bool) -> None:
    assert slot_renamed(old, new) is renamed


def test_the_word_of_change_may_be_in_the_words_said_only() -> None:
    old = "The user says that we collect the vans at your branch in town."
    new = "The user says the pickup will be at the branch in Exeter."
    assert not slot_renamed(old, new)
    assert slot_renamed(old, new, said="Actually the pickup will be at the branch in Exeter.")


@pytest.mark.parametrize(
    ("new", "renamed"),
    [
        # an offer to keep it, answered with something else
        (
            "The user says that oiled oak; we saw it at a friend's (in answer to: Shall the "
            "assistant keep the painted pine on the plans?).",
            True,
        ),
        # answered yes, or asked to go on doing something
        ("The user agrees (in answer to: Shall the assistant keep the painted pine?).", False),
        ("The user says that yes keep it (in answer to: Still with the painted pine?).", False),
        (
            "The user says that two more to find (in answer to: Shall we keep searching for "
            "pine furniture?).",
            False,
        ),
    ],
)
def test_an_offer_to_keep_a_choice_answered_with_another(new: str, renamed: bool) -> None:
    old = "The user says that painted pine is fine; budget 9k (in answer to: Any budget?)."
    assert slot_renamed(old, new) is renamed


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "L'utilisateur dit qu'une benne de 8 m3 pour les gravats.",
            "L'utilisateur dit que mettez une 15 cette fois, y a la cuisine (en réponse à « On "
            "remet la même, 8 m3 pour les gravats ? »).",
        ),
        (
            "The user says that the large crate, fortnightly.",
            "The user says that the small one this time (in answer to: Same again, the large "
            "crate?).",
        ),
        # a time offered to keep, answered with why not
        (
            "The user says that about 10am, she has had her breakfast by then (in answer to: "
            "What time suits?).",
            "The user says that mornings will be busy with his physio (in answer to: Would the "
            "user like to keep 10am for all five days?).",
        ),
    ],
)
def test_an_offer_of_the_same_again_answered_with_another(old: str, new: str) -> None:
    assert slot_renamed(old, new)
