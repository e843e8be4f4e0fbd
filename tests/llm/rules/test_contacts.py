"""A way to reach a client given anew: a phone number, an email address, a street address
that replaces the one of its kind given before, in English and French."""

from __future__ import annotations

import pytest

from somna.llm.rules.contacts import reached_elsewhere
from somna.llm.rules.replaced import gives_anew


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # another person's number, with no word of change
        (
            "Ring the user on 07700 900100 but after 6 please (in answer to: Best way to "
            "reach the user?).",
            "For the delivery, just call the user's partner Sam on 07700 900200.",
        ),
        # another address to send to, whatever its street is called
        (
            "The user says that 12 Ferry Lane, Hull HU1 (in answer to: Where should we deliver?).",
            "The user asks the assistant to send the next ones to the user's studio, Unit 3 "
            "Tannery Yard.",
        ),
        (
            "L'utilisateur dit que 9 rue des Lilas à Albi, l'utilisateur est là le matin.",
            "L'utilisateur dit que l'adresse c'est 21 chemin du Moulin à Gaillac maintenant.",
        ),
        # a works unit, with commas between its parts, and a rise
        (
            "The user says that 8 Cooper Street, S2 4AB; nobody's in before 9.",
            "The user says that from May everything goes to Unit 2, Dyers Works, Mill Lane.",
        ),
        (
            "Letters for the user's mother to 3 Ash Road, please.",
            "Post for the user's mother to 12 Beacon Rise please, she lives with us now.",
        ),
        # a number that works on an app as well adds no number
        (
            "L'utilisateur dit que 06 11 22 33 44, et son mail noemie@exemple.fr.",
            "L'utilisateur dit que son numéro : 06 55 66 77 88, whatsapp aussi.",
        ),
        # the same document in other words ("bills", then "invoices")
        (
            "The user says that bills go to our bursar, Gordy Fell, bursar@elmfield.example.",
            "The user says that Gordy retired, invoices go to Amrit Kaur now, "
            "a.kaur@elmfield.example.",
        ),
        # the one before named as the other one, left
        (
            "L'utilisateur dit que Noé Garcin, noe.garcin@exemple.fr (en réponse à « Un moyen "
            "de vous joindre ? »).",
            "L'utilisateur dit que noe@garcin-atelier.fr c'est son adresse mail, l'autre "
            "l'utilisateur la relève plus.",
        ),
        # another email to write to
        (
            "L'utilisateur dit que envoyez le devis à paul.vidal@example.fr.",
            "L'utilisateur dit qu'envoie-le à Léa, lea.vidal@example.fr, elle gère les papiers.",
        ),
        # "si" of whether, no case the way is kept for
        (
            "L'utilisateur dit que livrez au 8 rue Vaneau.",
            "L'utilisateur dit qu'on verra si ça marche, par contre les livraisons mettez-les "
            "à son bureau : 3 place Bellecour.",
        ),
        (
            "The user says that deliver to 12 Mill Road.",
            "The user says we'll see if it sells, but send the deliveries to the shop, 4 Quay "
            "Street.",
        ),
        # another point of the message opened: no way added
        (
            "L'utilisateur dit qu'une facture par mois par mail à gite@example.fr (en réponse à "
            "« Pour la facturation, comment procède-t-on ? »).",
            "L'utilisateur dit qu'autre chose, les factures envoyez-les maintenant à notre "
            "comptable, compta@example.fr.",
        ),
        # a street of a kind other lands have ("wynd", "brae", "faubourg")
        (
            "The user says that home, 14 Ashgrove Road, Perth (in answer to: Where to?).",
            "Send the parcels to the user's workshop at 3 Kelpie Wynd from now on.",
        ),
        (
            "L'utilisateur dit que livrez au 8 rue Vaneau.",
            "L'utilisateur dit que livrez plutôt au 21 faubourg des Tanneurs.",
        ),
        # a document sent to someone else, said without a verb
        (
            "The user says that accounts@corbelrow.example (in answer to: Where should the "
            "invoices go?).",
            "The user says that Wenna Polkinghorne is our bookkeeper now, so bills to her please, "
            "wenna@corbelrow.example.",
        ),
        (
            "L'utilisateur dit que compta@lanterne.example (en réponse à « On envoie les "
            "factures où ? »).",
            "L'utilisateur dit que c'est Maëlys qui gère maintenant, factures à "
            "maelys@lanterne.example.",
        ),
        (
            "The user says that quotes go to buying@halyard.example.",
            "The user says that Oswin runs purchasing now, quotes to oswin@halyard.example.",
        ),
        # the answer to where a document goes: what it names is where to send it
        (
            "The user says that bills go to accounts@brindleworth.example, we pay on 30 days.",
            "The user says that Odile Marchbank, odile@brindleworth.example - she handles our "
            "books (in answer to: Who should we send that bill to?).",
        ),
        (
            "L'utilisateur dit que les factures à compta@ferronnerie.example svp.",
            "L'utilisateur dit que Maëlys Vantorre, maelys@ferronnerie.example (en réponse à "
            "« À qui j'envoie la facture ? »).",
        ),
        # another place to collect from
        (
            "The user says that the mowers are kept at 4 Tanyard Lane.",
            "The user says that please collect the mowers from 9 Ropewalk Street from now on.",
        ),
        # a document sent to someone named, then to another address
        (
            "L'utilisateur dit que la facture l'assistant l'envoyez à son associé Basile "
            "Thornquist, c'est lui qui gère les papiers.",
            "L'utilisateur dit que la facture de la pose envoyez la au cabinet Brisk, "
            "compta@brisk.example, c'est son nouveau comptable.",
        ),
        # a number given for whenever the client is needed: no case, the way to reach them
        (
            "The user says that 07700 900100, whatsapp is fine too (in answer to: What's the "
            "best number for the user?).",
            "If the assistant needs the user text 07700 900500, the user has got a new phone.",
        ),
        (
            "L'utilisateur dit que par SMS au 06 12 34 56 78.",
            "L'utilisateur dit que si besoin appelez le 07 98 76 54 32 maintenant.",
        ),
    ],
)
def test_a_number_or_an_address_given_anew_replaces_the_older(old: str, new: str) -> None:
    assert reached_elsewhere(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # one more way, not another
        (
            "Ring the user on 07700 900100.",
            "The user says they can also be texted on 07700 900200.",
        ),
        (
            "Ring the user on 07700 900100.",
            "You can also reach the user on 07700 900400, whatsapp too.",
        ),
        # a way kept for a case
        (
            "L'utilisateur dit que WhatsApp au 06 12 34 56 78, il répond vite.",
            "L'utilisateur dit que si le cheval se blesse, appelez Marc au 07 98 76 54 32.",
        ),
        # the number of another person the question asked about
        (
            "L'utilisateur dit que par SMS au 06 12 34 56 78.",
            "Son num c'est le 07 98 76 54 32 (en réponse à « Y a-t-il une autre personne à "
            "contacter le jour de la pose ? »).",
        ),
        # a document sent elsewhere than what the first address was for
        (
            "The user says that email the proofs to kit@example.com.",
            "The user asks the assistant to send the invoice to accounts@example.com.",
        ),
        # the same number again, or none to use
        (
            "Ring the user on 07700 900100.",
            "The user says to call on 07700 900100 after lunch.",
        ),
        (
            "Ring the user on 07700 900100.",
            "The user says the office moved to 4 Mill Road.",
        ),
        # a number given for someone a question asked about, no document named
        (
            "Ring the user on 07700 900100.",
            "The user says that yes, 07700 900300 (in answer to: Is there a number for the site "
            "manager?).",
        ),
        # where a document goes that the older way was not for
        (
            "The user says that email the proofs to kit@brindleworth.example.",
            "The user says that odile@brindleworth.example (in answer to: Where should we send "
            "the invoice?).",
        ),
        # someone else's way, told as theirs
        (
            "The user says that quotes and invoices go to ines@quarrymill.example.",
            "The user says that Tabitha approves repairs now; her email is "
            "t.rowe@quarrymill.example.",
        ),
        # a number for an emergency, while the client is away
        (
            "Best to text the user on 07700 900100, the user cannot answer in rehearsals.",
            "Emergency contact while the user is away is Perpetua, 07700 900500.",
        ),
        (
            "Appelez l'utilisateur au 06 12 34 56 78 après 18h.",
            "En cas d'urgence pendant son absence, appelez sa soeur au 06 98 76 54 32.",
        ),
        # someone else to ring if anything happens, though the client has just moved
        (
            "The user says that Ysaline again (Basile's daughter); sorry, the user gave the "
            "wrong number last time, it's 07700 900 184.",
            "The user says that the neighbour is moving to her daughter's in York; the user's "
            "brother has just moved back to Leeds; ring him if anything happens: 07700 900 457.",
        ),
        # the minutes of a time are no house number, a lane by them no street
        (
            "The user is Gwen Talbot, 14 Larkspur Row in Leeds.",
            "The user says that pls tell the drivers no drops at lunch; one turned up at 12:30 "
            "and blocked the passage with the van.",
        ),
    ],
)
def test_a_number_or_an_address_that_does_not_replace_the_older(old: str, new: str) -> None:
    assert not reached_elsewhere(old, new)
    assert not gives_anew(old, new)
