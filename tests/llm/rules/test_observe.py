"""RulesLLM's observations: what a speaker said, retold, dated and quoted; and the seed's
business categories (decisions, how a client wants to be reached), in English and French."""

from __future__ import annotations

from datetime import date

import pytest

from somna.llm import EXTRACT, RulesLLM, SessionDigest
from somna.llm.rules.contacts import reached_elsewhere
from somna.llm.rules.dates import resolve_dates
from somna.llm.rules.observe import ITEMS_PER_MESSAGE
from somna.llm.rules.remainder import rest_of
from tests.llm.helpers import transcript


def _extract(*turns: tuple[str, str | None, str], user: str = "user") -> SessionDigest:
    return RulesLLM().structured(EXTRACT, transcript(*turns, user=user)).value


def _observations(digest: SessionDigest) -> list[str]:
    return [fact.text for fact in digest.facts if fact.category == "observation"]


def test_an_observation_names_the_speaker_the_listener_and_the_date() -> None:
    said = "Yesterday I finally repaired the old sailboat you lent me. It handles waves well again!"
    digest = _extract(("user", "Tariq", "Hello Odile!"), ("user", "Odile", said), user="Odile")
    (fact,) = digest.facts
    assert fact.category == "observation"
    assert fact.subject == "Odile"
    assert fact.text == (
        "Yesterday (Saturday 2 May 2026) Odile finally repaired the old sailboat Tariq lent Odile; "
        "It handles waves well again."
    )
    assert fact.quote == said  # both sentences, verbatim
    assert fact.message_index == 1


def test_a_french_observation_is_retold_and_dated() -> None:
    said = "J'ai commencé la clarinette la semaine dernière avec un professeur du quartier."
    digest = _extract(("user", "Tariq", "Salut !"), ("user", "Odile", said), user="Odile")
    assert _observations(digest) == [
        "Odile a commencé la clarinette la semaine dernière (week of 20 April 2026) "
        "avec un professeur du quartier."
    ]


@pytest.mark.parametrize(
    ("said", "told"),
    [
        # the speaker asked of the listener, after the verb
        ("Rappelez-moi mardi vers 9h pour le devis.", "Rappelez Le client mardi"),
        ("Envoyez-moi le devis signé demain.", "Envoyez à Le client le devis signé"),
        ("Renvoyez les moi par la poste, bien emballés.", "Renvoyez-les à Le client par la"),
        ("refaites moi des coussins neufs en lin", "Refaites à Le client des coussins neufs"),
        # "chez" is no verb: "chez nous" is the speaker's place, not asked of the listener
        (
            "au fait, Bruno part de chez nous fin mai, mettez Lina en copie",
            "part de chez Le client fin",
        ),
        ("le colis est arrivé chez moi hier", "arrivé chez Le client hier"),
        # "moi je" stresses the speaker, who is named once
        ("le mardi c'est Lubin qui ouvre, moi je rentre tard", "ouvre, Le client rentre tard"),
        ("Moi appelez-moi le matin avant 9h", "Appelez Le client le matin avant 9h"),
        ("on sera une vingtaine. Moi c'est Léa Morvan au fait", "Le client est Léa Morvan"),
        # a request that names who or what is the speaker's decision, put to the listener
        ("Please invoice Bruno Varga, our treasurer, not me.", "asks Tariq to invoice Bruno"),
        ("Merci d'envoyer les factures à Lina, notre comptable.", "demande à Tariq d'envoyer"),
        ("Please don't post any photos of Noa online.", "asks Tariq not to post any photos"),
        # a statement, then a request of the listener tagged on after a comma: both told
        ("je ne pourrai pas jeudi, on peut décaler à vendredi 14h ?", "demande de décaler à"),
        ("can the driver ring the buzzer at the back from now on?", "asks that the driver ring"),
        # a thing put where the speaker wants it, after a statement
        (
            "her favourite was the lily, could you put some in the bridal bouquet?",
            "asks Tariq to put some in the bridal bouquet",
        ),
        (
            "sa fleur préférée c'était le lilas, est ce que vous pouvez en mettre dans le "
            "bouquet de la mariée ?",
            "demande à Tariq d'en mettre dans le bouquet de la mariée",
        ),
        # a request that the listener's people do something, with where to
        ("can your fitters head to 12 Quarry Lane for the install?", "asks that Tariq's fitters"),
        # a day of the month a correction replaces goes, with the date it was given
        (
            "finalement la fête ce sera le samedi 5 décembre, pas le 12, la salle était prise",
            "le samedi 5 décembre, la salle était prise.",
        ),
        # a day put right is in the month of the date the message itself names as wrong
        ("oops, I meant the 18th, not 8 September, sorry", "18th (Friday 18 September 2026)"),
        # the day a change replaces goes with the date it was given
        ("le tournoi est décalé au dimanche 26 juillet au lieu du samedi", "26 juillet."),
        # an emoji before a capital ends a sentence: the question after it is a request
        (
            "on a eu la salle gratuitement 😄 Vous pourrez livrer au 4 allée des Tilleuls ?",
            "demande à Tariq de livrer au 4 allée des Tilleuls",
        ),
        # a request whose number is put right after its question mark
        (
            "the crates fly out, can we go up to 16 a week? sorry, 15, no room for 16",
            "asks to go up to 15 a week, no room",
        ),
        # a request after "par contre" is still one
        ("Par contre vous pourriez m'envoyer des photos après chaque passage ?", "demande à Tariq"),
        ("I can't make it Thursday, can we move it to Friday at 2pm?", "asks to move it to"),
        ("Noa has a do on the Saturday so could we do Friday the 5th?", "asks to do Friday"),
        ("Noa a un repas samedi donc on pourrait faire vendredi 5 ?", "demande de faire vendredi"),
        # "que" joined to a vowel is written as one
        ("il est dyslexique, donc pas de dictées", "Le client dit qu'il est dyslexique"),
        ("on a rendez-vous à la banque mardi", "Le client dit qu'on a rendez-vous"),
        # "je me …" is reflexive: "se", whoever is named
        ("au fait, je m'occupe des devis pour l'atelier", "Le client s'occupe des devis"),
        ("du coup je ne me déplace plus le lundi", "Le client ne se déplace plus le lundi"),
        # "le mien" is the speaker's
        ("Je cherche un comptable, le mien part à la retraite.", "le sien part à la retraite"),
        # a capital within its sentence names someone: it stays
        ("au fait, Bruno part à la fin du mois", "Le client dit que Bruno part"),
        ("by the way, Bruno leaves us in June", "Le client says that Bruno leaves"),
        # an order is no question, though it opens as one might
        ("go ahead, move me to the yearly plan from June", "move Le client to the yearly"),
        # what the speaker needs is given to them: "il me faut" is "il lui faut"
        ("pour l'ouverture il me faudrait une banderole", "il lui faudrait une banderole"),
        # a remark on "c'est" that names a date dates what was said before it
        (
            "il me faut une banderole pour la façade. c'est le samedi 19 septembre",
            "il lui faut une banderole pour la façade; c'est le samedi 19 septembre",
        ),
    ],
)
def test_a_retold_statement_reads_as_written(said: str, told: str) -> None:
    digest = _extract(("user", "Tariq", "Salut !"), ("user", "Le client", said), user="Le client")
    [text] = _observations(digest)
    assert told in text


def test_a_name_the_conversation_writes_keeps_its_capital_opening_a_statement() -> None:
    digest = _extract(
        ("assistant", None, "Any special requirements?"),
        ("user", None, "Noa can't have sesame at all, the hotel must know"),
        ("assistant", None, "Noted, we will tell the hotel about Noa."),
    )
    assert _observations(digest)[0].startswith("The user says that Noa can't have sesame")


@pytest.mark.parametrize(
    "said",
    [
        "Did you ever try making fresh pasta at home with the kids?",
        "Hey Tariq, good to see you again!",
        "Thanks so much for the lovely recipe!",
        "Wow, that's so cool, congrats!",
        "You're amazing, what a great idea!",
        "Me too!",
        "brilliant, thanks",
        "great shout thx",
        "Have a nice weekend!",
        "That's it, cheers.",
        "nickel merci",
        "Top, merci beaucoup !",
        # questions written without their question mark
        "do you ship to Norway or only within the EU",
        "hows the new office btw",
        "est-ce que vous livrez aussi le samedi",
    ],
)
def test_questions_greetings_thanks_and_reactions_give_no_observation(said: str) -> None:
    digest = _extract(
        ("user", "Tariq", "I rebuilt a bicycle from spare parts."), ("user", "Odile", said)
    )
    assert [fact.message_index for fact in digest.facts if fact.category == "observation"] == [0]


@pytest.mark.parametrize(
    ("said", "told"),
    [
        (
            "New shifts at work, so evenings are out. Can we move my lessons to 7.15am?",
            "The user says that new shifts at work, so evenings are out; the user asks to move "
            "the user's lessons to 7.15am.",
        ),
        (
            "could you send the invoices to my partner Ilse instead?",
            "The user asks the assistant to send the invoices to the user's partner Ilse instead.",
        ),
        ("Is it possible to pay yearly from now on?", "The user asks to pay yearly from now on."),
        (
            "Quick question: so could we meet in Dundee instead?",
            "The user asks to meet in Dundee instead.",
        ),
        (
            "I never read my email, can you just call me?",
            "The user never reads the user's email; the user asks the assistant to call the user.",
        ),
        (
            "On peut décaler la livraison à 17h ?",
            "L'utilisateur demande de décaler la livraison à 17h.",
        ),
        (
            "Pouvez-vous mettre Gaspard en copie des devis ?",
            "L'utilisateur demande à l'assistant de mettre Gaspard en copie des devis.",
        ),
        (
            "Can the stock count be moved to Thursdays?",
            "The user asks that the stock count be moved to Thursdays.",
        ),
        # a deed asked of someone of the business's, named in words
        (
            "can your guy put a couple of bait boxes out in the yard by the bins?",
            "The user asks that the assistant's guy put a couple of bait boxes out in the yard "
            "by the bins.",
        ),
        (
            "could one of your fitters take the old boiler away?",
            "The user asks that one of the assistant's fitters take the old boiler away.",
        ),
        # a thing to have done, named in words
        (
            "can you do that feather wrap round the foam like the hotel ones?",
            "The user asks the assistant to do that feather wrap round the foam like the "
            "hotel ones.",
        ),
        # a colour or a material chosen is a value
        (
            "can the stools be charcoal grey? it matches our logo",
            "The user asks that the stools be charcoal grey; it matches our logo.",
        ),
        (
            "can friday's drop come round to the back door on Quarry Mews?",
            "The user asks that friday's drop come round to the back door on Quarry Mews.",
        ),
        (
            "can thursdays order go to our new unit, 4 Ashby Passage?",
            "The user asks that thursdays order go to our new unit, 4 Ashby Passage.",
        ),
        # no value named, but how things go changes: each time, moved, or otherwise
        (
            "Could you add a thank-you card to every order?",
            "The user asks the assistant to add a thank-you card to every order.",
        ),
        ("On peut décaler mes cours ?", "L'utilisateur demande de décaler ses cours."),
        # an address is a value
        (
            "Merci d'envoyer le devis à notre service achats, achats@exemple.fr.",
            "L'utilisateur demande à l'assistant d'envoyer le devis à notre service achats, "
            "achats@exemple.fr.",
        ),
        # a thing to have, named in words
        (
            "For the fitting, could you bring that linen waistcoat you mentioned?",
            "The user asks the assistant to bring that linen waistcoat the assistant mentioned.",
        ),
        (
            "Can we have the lemon tart with the almond crust?",
            "The user asks to have the lemon tart with the almond crust.",
        ),
        (
            "Est-ce qu'on peut avoir la formule du midi pour tout le monde ?",
            "L'utilisateur demande d'avoir la formule du midi pour tout le monde.",
        ),
        (
            "Can you send the quotes to the office manager instead?",
            "The user asks the assistant to send the quotes to the office manager instead.",
        ),
        # how or where a thing is to be done, in enough words
        (
            "Could you wash the curtains with an unscented powder?",
            "The user asks the assistant to wash the curtains with an unscented powder.",
        ),
        (
            "c possible de mettre sa chaise près de la fenêtre ?",
            "L'utilisateur demande de mettre sa chaise près de la fenêtre.",
        ),
    ],
)
def test_a_question_asking_for_a_named_value_is_what_the_user_asks_for(
    said: str, told: str
) -> None:
    """ "Can we move it to 6pm?" is the client's decision put to the business: told as asked,
    not as done."""
    digest = _extract(("assistant", None, "Welcome back to the studio."), ("user", None, said))
    assert _observations(digest) == [told]


@pytest.mark.parametrize(
    ("asked", "said", "told"),
    [
        (
            "Weekly or monthly invoices?",
            "Monthly, that suits us.",
            "The user says that monthly, that suits us "
            "(in answer to: Weekly or monthly invoices?).",
        ),
        (
            "Which day suits you for the fitting?",
            "Ok, Tuesday then!",
            "The user says that Tuesday (Tuesday 5 May 2026) then "
            "(in answer to: Which day suits the user for the fitting?).",
        ),
        (
            "Facturation mensuelle ou à la livraison ?",
            "Mensuelle, ça nous va.",
            "L'utilisateur dit que mensuelle, ça nous va (en réponse à « Facturation mensuelle ou "
            "à la livraison ? »).",
        ),
        # a time asked for, no deed
        (
            "Ça vous va ?",
            "Le mercredi ne va plus. Ce serait possible le samedi à 10h ?",
            "L'utilisateur dit que le mercredi ne va plus; l'utilisateur demande le samedi à "
            "10h (en réponse à « Ça vous va ? »).",
        ),
        # a name with a capital within keeps it, and opens no question ("whats …")
        (
            "How should we send you the photos?",
            "WhatsApp please, it's quicker.",
            "The user says that WhatsApp please, it's quicker "
            "(in answer to: How should we send the user the photos?).",
        ),
    ],
)
def test_a_short_answer_that_names_a_value_is_kept(asked: str, said: str, told: str) -> None:
    digest = _extract(("assistant", None, asked), ("user", None, said))
    assert _observations(digest) == [told]


def test_a_french_negation_before_a_vowel_is_elided_once_retold() -> None:
    digest = _extract(("assistant", None, "Bonjour !"), ("user", None, "Je ne suis plus en congé."))
    assert [fact.text for fact in digest.facts] == ["L'utilisateur n'est plus en congé."]


@pytest.mark.parametrize(
    ("said", "told"),
    [
        (
            "We'd prefer to pay monthly if possible.",
            "The user says that we'd prefer to pay monthly if possible.",
        ),
        (
            "Je préfère être livrée le matin si possible.",
            "L'utilisateur préfère être livrée le matin si possible.",
        ),
        (
            "I should be grateful if you would send the proofs to ada@lovell.example.",
            "The user should be grateful if the assistant would send the proofs to "
            "ada@lovell.example.",
        ),
    ],
)
def test_a_polite_if_possible_is_no_condition(said: str, told: str) -> None:
    digest = _extract(("assistant", None, "Welcome back to the studio."), ("user", None, said))
    assert [fact.text for fact in digest.facts] == [told]


@pytest.mark.parametrize(
    ("asked", "said", "told"),
    [
        ("Any pets?", "No, no pets.", "The user says that no, no pets (in answer to: Any pets?)."),
        (
            "Des animaux ?",
            "Non, pas d'animaux.",
            "L'utilisateur dit que non, pas d'animaux (en réponse à « Des animaux ? »).",
        ),
    ],
)
def test_a_short_answer_that_rules_something_out_is_kept(asked: str, said: str, told: str) -> None:
    digest = _extract(("assistant", None, asked), ("user", None, said))
    assert _observations(digest) == [told]


@pytest.mark.parametrize(
    ("asked", "said", "told"),
    [
        (
            "Could we do the feeds at 8am and 8pm instead of 7am and 7pm?",
            "Perfect, the trainer says that's no problem at all.",
            "The user says that perfect, the trainer says that's no problem at all "
            "(in answer to: Could we do the feeds at 8am and 8pm?).",
        ),
        (
            "On pourrait passer le mardi plutôt que le lundi ?",
            "Parfait, le mardi ça nous arrange.",
            "L'utilisateur dit que parfait, le mardi ça nous arrange "
            "(en réponse à « On pourrait passer le mardi ? »).",
        ),
        (  # a time written with a dot is one value, left out whole
            "So 9 o'clock instead of 9.30, starting Monday. Shall I book it?",
            "yes",
            "The user agrees (in answer to: So 9 o'clock, starting Monday (Monday 4 May "
            "2026), shall the assistant book it?).",
        ),
    ],
)
def test_an_answer_carries_its_question_without_the_value_it_proposed_to_replace(
    asked: str, said: str, told: str
) -> None:
    digest = _extract(("assistant", None, asked), ("user", None, said))
    assert _observations(digest) == [told]


@pytest.mark.parametrize(
    ("asked", "said", "told"),
    [
        (
            "The closest is Bracken, same weave. Would Bracken work for the stools?",
            "Perfect, go with Bracken",
            "The user says that perfect, go with Bracken (in answer to: Would Bracken work "
            "for the stools?).",
        ),
        (
            "Le plus proche est Graphite. Est-ce que le Graphite vous irait pour les tabourets ?",
            "Parfait, partez sur le Graphite",
            "L'utilisateur dit que parfait, partez sur le Graphite (en réponse à « Est-ce que "
            "le Graphite vous irait pour les tabourets ? »).",
        ),
        # a yes that goes on with what is wanted answers
        (
            "Anything special for the ironing?",
            "yes: sharp creases, light starch",
            "The user says that sharp creases, light starch (in answer to: Anything special "
            "for the ironing?).",
        ),
        (
            "Des consignes pour le repassage ?",
            "oui, pli marqué, amidon léger",
            "L'utilisateur dit que pli marqué, amidon léger (en réponse à « Des consignes pour "
            "le repassage ? »).",
        ),
    ],
)
def test_a_short_yes_naming_what_the_question_proposed_is_kept(
    asked: str, said: str, told: str
) -> None:
    digest = _extract(("assistant", None, asked), ("user", None, said))
    assert _observations(digest) == [told]


@pytest.mark.parametrize(
    ("offered", "said", "told"),
    [
        # one of the options offered, taken
        (
            "Noted. There's room on the Tuesday at 5pm, or the Friday at 10am.",
            "5pm is great, school is out by then",
            "The user says that 5pm is great, school is out by then (in answer to: There's "
            "room on the Tuesday at 5pm, or the Friday at 10am).",
        ),
        # the day proposed, okayed: what it was proposed for goes with it
        (
            "Pour le ravalement, on peut venir la semaine du 14 septembre.",
            "semaine du 14 septembre ok pour nous",
            "Semaine du 14 septembre ok pour l'utilisateur (en réponse à « Pour le ravalement, "
            "on peut venir la semaine du 14 septembre »).",
        ),
    ],
)
def test_an_answer_taking_what_a_statement_offers_carries_it(
    offered: str, said: str, told: str
) -> None:
    digest = _extract(("assistant", None, offered), ("user", None, said))
    assert _observations(digest) == [told]


def test_a_yes_that_goes_on_about_the_thing_offered_carries_the_offer() -> None:
    digest = _extract(
        (
            "assistant",
            None,
            "Bonne nouvelle. On a une carte de 10 entrées à 90 €, ça pourrait vous intéresser.",
        ),
        ("user", None, "Ok ça me va, on part sur la carte alors."),
    )
    assert _observations(digest) == [
        "L'utilisateur dit que ça le va, on part sur la carte alors (en réponse à « On a une "
        "carte de 10 entrées à 90 €, ça pourrait vous intéresser »)."
    ]


def test_words_to_write_quoted_in_a_short_answer_are_kept() -> None:
    digest = _extract(
        ("assistant", None, "Vous souhaitez une inscription ?"),
        ("user", None, "oui « Bon anniversaire Lisette » svp"),
    )
    assert _observations(digest) == [
        "L'utilisateur dit que « Bon anniversaire Lisette » svp (en réponse à « Vous "
        "souhaitez une inscription ? »)."
    ]


def test_the_listener_named_in_the_question_is_nothing_proposed() -> None:
    digest = _extract(
        ("assistant", None, "Did the fitting go well, Dilys?"),
        ("user", None, "Thanks Dilys, lovely"),
    )
    assert _observations(digest) == []


@pytest.mark.parametrize(
    ("offered", "said", "told"),
    [
        (
            "Would you like to add descaler tablets to the order?",
            "not yet, we've a few spares",
            ["The user says that not yet, we've a few spares."],
        ),
        (
            "On propose aussi un contrat d'entretien à 90 € par an, ça vous intéresse ?",
            "on verra plus tard, là on a déjà pas mal de dépenses",
            ["L'utilisateur dit qu'on verra plus tard, là on a déjà pas mal de dépenses."],
        ),
        ("Would you like to add descaler tablets to the order?", "no thanks", []),
        # an offer asked about, turned down or put off in other words: its name stays out
        (
            "Have you thought about a smart doorbell for the side entrance?",
            "no, my lodgers are all in their eighties. a plain buzzer is fine",
            ["The user says that no, the user's lodgers are all in their eighties; a plain "
             "buzzer is fine."],
        ),
        (
            "We also do gutter clearing, would you like to add that to the visit?",
            "ha, maybe next spring, I'll let you know",
            ["The user says that ha, maybe next spring, the user will let the assistant know."],
        ),
        # written in haste, without the apostrophe
        (
            "By the way, have you thought about illuminated letters on the fascia?",
            "ill have a think, money's a bit tight with the move",
            ["The user says that ill have a think, money's a bit tight with the move."],
        ),
        (
            "Souhaitez-vous aussi un passage le samedi ?",
            "pas cette année, le budget est serré",
            ["L'utilisateur dit que pas cette année (2026), le budget est serré."],
        ),
        (
            "On a une formule avec goûter, ça pourrait vous plaire ?",
            "bah je sais pas, je verrai plus tard",
            ["L'utilisateur sait pas, l'utilisateur verra plus tard."],
        ),
        # what a reply goes on to tell after taking a price would go when the price changes
        (
            "Full livery is 480 € a month, hay included.",
            "ok on part sur ça. Attention il tousse, il lui faut du foin trempé",
            ["L'utilisateur dit qu'attention il tousse, il lui faut du foin trempé."],
        ),
        # another value proposed is an answer
        (
            "Would you like the fitting on Saturday?",
            "no, Monday please",
            [
                "The user says that no, Monday (Monday 4 May 2026) please (in answer to: Would "
                "the user like the fitting on Saturday (Saturday 9 May 2026)?)."
            ],
        ),
    ],
)  # fmt: skip
def test_what_a_reply_goes_on_to_say_after_an_offer_answers_nothing(
    offered: str, said: str, told: list[str]
) -> None:
    """A client who turns down the descaler has not taken it: the offer stays out of what
    the reply goes on to say, or the block for "what did they order?" would name it; and
    what follows a price taken is no answer to it."""
    digest = _extract(("assistant", None, offered), ("user", None, said))
    assert _observations(digest) == told


def test_thanks_to_someone_named_is_no_answer(said: str = "Thanks so much, Odile!") -> None:
    digest = _extract(("assistant", None, "Did you like the recipe?"), ("user", None, said))
    assert _observations(digest) == []


@pytest.mark.parametrize(
    ("said", "told"),
    [
        (
            "hi, the movers come monday, can you leave the gate open?",
            "Odile says that the movers come monday (Monday 4 May 2026).",
        ),
        ("Bonsoir, la commande de bois est arrivée ce matin.", "Odile dit que la commande"),
        ("Re bonjour, nous avons signé le bail hier.", "Odile dit que nous avons signé"),
        ("hi there, we opened the second shop yesterday", "Odile says that we opened"),
        # a name after the greeting's comma is who the sentence is about, not who is greeted
        ("Coucou, Noé a fini son stage de voile !", "Odile dit que Noé a fini"),
    ],
)
def test_a_greeting_opening_a_sentence_that_goes_on_is_left_out(said: str, told: str) -> None:
    digest = _extract(("user", "Tariq", "Salut !"), ("user", "Odile", said), user="Odile")
    [text] = _observations(digest)
    assert text.startswith(told)


@pytest.mark.parametrize(
    ("said", "told"),
    [
        ("I handle purchasing for the whole bakery.", "handles purchasing"),
        ("I usually commute by ferry on weekdays.", "usually commutes by ferry"),
        ("I also fix old radios in my spare time.", "also fixes old radios"),
        ("I finished the kitchen tiles at the weekend.", "finished the kitchen tiles"),
        ("I can bring the samples on my next visit.", "can bring the samples"),
        ("I don't open parcels on weekends.", "does not open parcels"),
        ("I usually dont answer calls after six.", "usually does not answer calls"),
        ("I wasn't sure about the oak at first, now I love it.", "was not sure about the oak"),
        ("I completely forgot the shed door has a lock.", "completely forgot the shed door"),
        ("I honestly need the shed finished by May.", "honestly needs the shed finished"),
        ("I usually apply the oil myself in spring.", "usually applies the oil themselves"),
    ],
)
def test_a_retold_verb_agrees_with_the_speaker_named(said: str, told: str) -> None:
    digest = _extract(("user", "Tariq", "Hello Odile!"), ("user", "Odile", said), user="Odile")
    [text] = _observations(digest)
    assert f"Odile {told}" in text


@pytest.mark.parametrize(
    "said",
    [
        "Can you help me with my order?",
        "Could you tell me more about it?",
        "Pouvez-vous m'aider ?",
        "Could you check all the settings?",
        "Can I get some help?",
    ],
)
def test_a_question_asking_for_help_without_a_value_gives_no_observation(said: str) -> None:
    digest = _extract(("assistant", None, "Welcome back to the studio."), ("user", None, said))
    assert _observations(digest) == []


def test_a_session_keeps_at_most_its_budget_of_items_per_message() -> None:
    said = [
        "I spent the morning sorting {} boxes of old letters.",  # a typed event
        "The ferry to the island now leaves at {} o'clock every Sunday.",  # no rule knows it
    ]
    turns = [("user", "Odile" if i % 2 else "Tariq", said[i % 2].format(i)) for i in range(20)]
    digest = _extract(*turns)
    assert len(digest.facts) <= ITEMS_PER_MESSAGE * len(turns)
    assert len(_observations(digest)) >= 1
    for fact in digest.facts:
        assert fact.quote in turns[fact.message_index or 0][2]

    statements = [("user", "Odile", said[0].format(i)) for i in range(10)]
    assert len(_extract(*statements).facts) == int(ITEMS_PER_MESSAGE * len(statements))


def test_an_observation_takes_the_place_of_its_message_s_events_but_not_of_its_preferences() -> (
    None
):
    said = "I love jazz. Last week I visited the harbour museum with my cousin Ines."
    digest = _extract(
        ("user", "Tariq", "Hi!"),
        ("user", "Odile", said),
        ("user", "Tariq", "Nice."),
        ("user", "Tariq", "Which one?"),
        user="Odile",
    )
    assert [(fact.category, fact.text) for fact in digest.facts] == [
        ("preference", "Odile loves jazz."),
        (
            "observation",
            "Last week (week of 20 April 2026) Odile visited the harbour museum with "
            "Odile's cousin Ines.",
        ),
    ]


@pytest.mark.parametrize(
    ("said", "category", "text"),
    [
        (
            "We decided to go with the annual plan.",
            "decision",
            "The user decided to go with the annual plan.",
        ),
        (
            "So we've chosen the blue model for our office.",
            "decision",
            "The user chose the blue model for their office.",
        ),
        (
            "Please always contact me by email.",
            "client_info",
            "The user wants to be contacted by email.",
        ),
        (
            "My billing address is 4 Elm Row, Galway.",
            "client_info",
            "The user's billing address is 4 Elm Row, Galway.",
        ),
        (
            "Nous avons décidé de prendre l'offre annuelle.",
            "decision",
            "L'utilisateur a décidé de prendre l'offre annuelle.",
        ),
        (
            "Merci de toujours me contacter par email.",
            "client_info",
            "L'utilisateur veut être contacté par email.",
        ),
        # the way is kept with the number: "text me on …" is no call
        (
            "Text me on 07700 900 318, I can't pick up at work.",
            "client_info",
            "The user wants to be contacted by text on 07700 900 318, the user cannot pick up "
            "at work.",
        ),
        (
            "Hey, this is Nour Varga from the corner cafe on Quay Street.",
            "client_info",
            "The user is Nour Varga from the corner cafe on Quay Street.",
        ),
        # a way to be reached asked for from now on is how to reach them, no instruction
        (
            "Écrivez-moi plutôt par SMS maintenant, je ne décroche jamais.",
            "client_info",
            "Écrivez à l'utilisateur plutôt par SMS maintenant, l'utilisateur ne décroche jamais.",
        ),
        (
            "Hi, I'm Ines Varga from Corvell Freight, I handle purchasing.",
            "client_info",
            "The user is Ines Varga from Corvell Freight, the user handles purchasing.",
        ),
        (
            # a clause of its own after the name is observed, not joined to it
            "Bonjour, je suis Léa Fontaine, je gère la boulangerie de mon père.",
            "client_info",
            "L'utilisateur est Léa Fontaine.",
        ),
    ],
)
def test_seed_categories_are_first_class(said: str, category: str, text: str) -> None:
    digest = _extract(("user", None, said), ("assistant", None, "Noted."))
    assert [
        (fact.category, fact.text) for fact in digest.facts if fact.category != "observation"
    ] == [(category, text)]


@pytest.mark.parametrize(
    ("said", "told"),
    [
        ("I moved yesterday.", "I moved yesterday (Tuesday 11 March 2031)."),
        ("We meet tomorrow.", "We meet tomorrow (Thursday 13 March 2031)."),
        ("It opened last month.", "It opened last month (February 2031)."),
        ("It closes next month.", "It closes next month (April 2031)."),
        ("I left last year.", "I left last year (2030)."),
        ("They came two weeks ago.", "They came two weeks ago (week of 24 February 2031)."),
        ("See you next Friday.", "See you next Friday (Friday 14 March 2031)."),
        ("Je suis arrivée hier.", "Je suis arrivée hier (Tuesday 11 March 2031)."),
        ("On part le mois prochain.", "On part le mois prochain (April 2031)."),
        (
            "Il est venu il y a trois jours.",
            "Il est venu il y a trois jours (Sunday 9 March 2031).",
        ),
        ("Nothing relative here.", "Nothing relative here."),
    ],
)
def test_relative_dates_are_resolved_from_the_day_they_were_said(said: str, told: str) -> None:
    assert resolve_dates(said, date(2031, 3, 12)) == told


def test_a_bare_day_of_the_month_is_the_date_the_reply_writes_out() -> None:
    # said in May: "the 22nd" is the 22nd of November that the reply names, not of May
    digest = _extract(
        ("user", None, "The gala's been moved forward a week to the 22nd, the mayor is coming."),
        ("assistant", None, "Sunday 22 November for the gala then, noted."),
    )
    assert _observations(digest) == [
        "The user says that the gala's been moved forward a week to the 22nd (Sunday 22 "
        "November 2026), the mayor is coming."
    ]


def test_a_bare_day_answering_a_question_is_the_date_the_question_writes_out() -> None:
    # said in May: "the 14th" answers for the 14th of September the question names
    digest = _extract(
        ("assistant", None, "We could fit the new boiler on Monday 14 September, does that suit?"),
        ("user", None, "The 14th works for us, the side gate will be open."),
        ("assistant", None, "Great, see you then."),
    )
    [answer] = _observations(digest)
    assert "(Monday 14 September 2026)" in answer


def test_someone_put_forward_by_name_is_no_introduction() -> None:
    said = "C'est Oriane Valbuisson à l'accueil qui signera les bons."
    digest = _extract(("user", None, said), ("assistant", None, "Noté."))
    assert [fact.text for fact in digest.facts] == [
        "L'utilisateur dit que c'est Oriane Valbuisson à l'accueil qui signera les bons."
    ]


def test_a_pronoun_opening_a_fact_is_the_person_the_untold_sentence_before_named() -> None:
    said = "Has your man met Tamsin Orrow yet? She runs production, she's the one to ask."
    assert _observations(_extract(("user", None, said))) == [
        "The user says that Tamsin Orrow runs production, she's the one to ask."
    ]
    # told in the same fact, the name stays where it was said
    said = "Bills go to our bursar, Gordon Fyfe. He's strict about PO numbers."
    assert _observations(_extract(("user", None, said))) == [
        "The user says that bills go to our bursar, Gordon Fyfe; He's strict about PO numbers."
    ]


def test_a_request_with_vous_written_short_is_kept() -> None:
    said = "Vs pouvez dire à l'équipe de passer le jeudi et pas avant 9h30 ?"
    assert _observations(_extract(("user", None, said))) == [
        "L'utilisateur demande à l'assistant de dire à l'équipe de passer le jeudi et pas "
        "avant 9h30."
    ]


def test_a_request_that_someone_named_does_something_is_kept() -> None:
    said = "And can Tobiah do the rounds after half three from now on? We bake later now."
    assert _observations(_extract(("user", None, said))) == [
        "The user asks that Tobiah do the rounds after 3:30 from now on; We bake later now."
    ]


@pytest.mark.parametrize(
    ("said", "told"),
    [
        (
            "Can the lads shrink-wrap the boat for winter, like the one next to her?",
            "The user asks that the lads shrink-wrap the boat for winter, like the one next to "
            "her.",
        ),
        (
            "Could you repaint the side gate before the tenants move in?",
            "The user asks the assistant to repaint the side gate before the tenants move in.",
        ),
        (
            "Vous pourriez tailler la haie du fond avant l'été ?",
            "L'utilisateur demande à l'assistant de tailler la haie du fond avant l'été.",
        ),
        (
            "Could you screw the 4 mirrors straight into the hall wall?",
            "The user asks the assistant to screw the 4 mirrors straight into the hall wall.",
        ),
        (
            "Vous pourriez visser les cadres de l'entrée au mur ?",
            "L'utilisateur demande à l'assistant de visser les cadres de l'entrée au mur.",
        ),
        (
            "Vous pouvez rajouter une étagère pour le micro-ondes ?",
            "L'utilisateur demande à l'assistant de rajouter une étagère pour le micro-ondes.",
        ),
    ],
)
def test_a_request_of_a_job_on_something_of_theirs_is_kept(said: str, told: str) -> None:
    """A job the client asks for, with no time nor number, is still what they want done: a
    later "no plastic on her" is set against the shrink-wrap."""
    assert _observations(_extract(("user", None, said))) == [told]


def test_a_request_for_help_alone_is_left_out() -> None:
    assert _observations(_extract(("user", None, "Can you help me with my order?"))) == []


def test_each_item_names_the_rule_that_found_it() -> None:
    said = "I love jazz. Last week I visited the harbour museum with my cousin Ines."
    digest = _extract(
        ("user", "Tariq", "Hi!"),
        ("user", "Odile", said),
        ("user", "Tariq", "We decided to go with the annual plan."),
        ("user", "Tariq", "Which one?"),
        ("user", "Odile", "The blue one."),
        ("user", "Tariq", "Good."),
        user="Odile",
    )
    rules = [fact.rule or "" for fact in digest.facts]
    assert rules[0].startswith("en.preference.") and rules[1] == "observation"
    assert "en.seed.decision" in rules


def test_an_answer_carries_the_question_it_answers_retold() -> None:
    asked = "Nice! What did you build with your brother last weekend?"
    said = "We finally finished the cedar greenhouse behind the garage."
    digest = _extract(("user", "Tariq", asked), ("user", "Odile", said), user="Odile")
    assert _observations(digest) == [
        "Odile says that we finally finished the cedar greenhouse behind the garage "
        "(in answer to: What did Odile build with Odile's brother last weekend "
        "(week of 20 April 2026)?)."
    ]
    assert digest.facts[0].quote == said  # the quote stays the answer alone, verbatim


def test_an_answer_to_the_assistant_names_the_user() -> None:
    asked = "Happy to help. What budget do you have for the new laptop?"
    said = "Around nine hundred euros, and it must weigh under one and a half kilos."
    digest = _extract(("assistant", None, asked), ("user", None, said))
    assert _observations(digest) == [
        "The user says that around nine hundred euros, and it must weigh under one and a half "
        "kilos (in answer to: What budget does the user have for the new laptop?)."
    ]


@pytest.mark.parametrize(
    "offer", ["Welcome aboard! How can I help?", "Anything else I can do for you today?",
              "Bonjour ! Comment puis-je vous aider ?", "Autre chose ?",
              "Good morning, Larkspur Glass, what can we cut for you?",
              "Bonjour, Sorbier et Fils, que puis-je vous préparer ?",
              "Swiftline Vans, what can we do for you?"]
)  # fmt: skip
def test_an_answer_to_an_offer_of_help_does_not_carry_it(offer: str) -> None:
    said = "We finally finished the cedar greenhouse behind the garage."
    digest = _extract(("assistant", None, offer), ("user", None, said))
    assert _observations(digest) == [
        "The user says that we finally finished the cedar greenhouse behind the garage."
    ]


def test_a_message_after_its_own_speaker_s_question_answers_nothing() -> None:
    said = "We finally finished the cedar greenhouse behind the garage."
    digest = _extract(
        ("user", "Tariq", "Hello!"),
        ("user", "Odile", "Guess what?"),
        ("user", "Odile", said),
        user="Odile",
    )
    assert _observations(digest) == [
        "Odile says that we finally finished the cedar greenhouse behind the garage."
    ]


def test_a_session_keeps_answers_before_other_statements_of_the_same_weight() -> None:
    volunteered = [
        "The ferry to the island now leaves at seven every Sunday morning in summer.",
        "The bakery on the corner now bakes rye bread every Tuesday morning in winter.",
        "The library by the canal now opens at nine every Saturday morning in spring.",
    ]
    answer = "The market near the old station sells the freshest figs in town."
    turns = [
        *[("user", "Odile", said) for said in volunteered],
        ("user", "Tariq", "Where do you buy fruit these days?"),
        ("user", "Odile", answer),
    ]
    digest = _extract(*turns, user="Odile")
    assert int(ITEMS_PER_MESSAGE * len(turns)) == 3  # room for three of the four...
    assert len(_observations(digest)) == 3
    assert 4 in [fact.message_index for fact in digest.facts]  # ...and the answer is one


def test_a_french_answer_carries_its_question_in_french() -> None:
    asked = "Qu'est-ce que tu as construit le week-end dernier ?"
    said = "Nous avons enfin terminé la serre en cèdre derrière le garage."
    digest = _extract(("user", "Tariq", asked), ("user", "Odile", said), user="Odile")
    assert _observations(digest) == [
        "Odile dit que nous avons enfin terminé la serre en cèdre derrière le garage "
        "(en réponse à « Qu'est-ce que tu as construit le week-end dernier "
        "(week of 20 April 2026) ? »)."
    ]


@pytest.mark.parametrize(
    "said", ["I'm OK thanks, just busy.", "I'm Sorry for the delay.", "Je suis Désolée du retard."]
)
def test_a_state_after_i_am_is_no_name(said: str) -> None:
    digest = _extract(("user", None, said), ("assistant", None, "Noted."))
    assert [fact.category for fact in digest.facts if fact.category == "client_info"] == []


def test_an_answer_that_chooses_a_way_to_be_reached_is_client_info() -> None:
    digest = _extract(
        ("assistant", None, "Vous préférez être contactée comment ?"),
        ("user", None, "Par SMS uniquement, jamais d'appel pendant les cours."),
    )
    [fact] = digest.facts
    assert fact.category == "client_info"
    assert "dit que par SMS uniquement" in fact.text


@pytest.mark.parametrize(
    ("asked", "said", "told"),
    [
        (
            "Lovely. Are you still 30 for the dinner?",
            "36 in the end, my cousins come too.",
            "The user says that 36 in the end, the user's cousins come too.",
        ),
        (
            "C'est toujours 12 places pour l'atelier ?",
            "Deux collègues viennent aussi, donc 15 finalement.",
            "L'utilisateur dit que deux collègues viennent aussi, donc 15 finalement.",
        ),
        # a no, then another number: the unit the question counted in is kept
        (
            "Is it still 12 riders for the fitting?",
            "ha no, 15, the juniors want in too",
            "The user says that ha no, 15 riders, the juniors want in too.",
        ),
        (
            "Toujours 40 couverts samedi ?",
            "non, 46, ma cousine vient avec ses enfants",
            "L'utilisateur dit que non, 46 couverts, sa cousine vient avec ses enfants.",
        ),
        # another count for what a question offered to keep, said with no yes
        (
            "And still the two vans?",
            "picked up another one at auction so theres three to do",
            "The user says that picked up another one at auction so theres three vans to do.",
        ),
        # a time put right, the mistaken one named again after it
        (
            "Toujours départ 8h30 du dépôt ?",
            "Ah je me suis trompée, c'est 8h15 le départ, pas 8h30.",
            "L'utilisateur s'est trompée, c'est 8h15 le départ.",
        ),
    ],
)
def test_an_answer_that_gives_the_asked_number_anew_leaves_the_old_one_out(
    asked: str, said: str, told: str
) -> None:
    """The question held the old value ("still 30?"): carried with the answer, it would
    keep it in memory beside the new one."""
    digest = _extract(("assistant", None, asked), ("user", None, said))
    assert _observations(digest) == [told]


def test_another_time_than_the_slot_a_question_proposed_keeps_the_question() -> None:
    asked = "On lance la valse d'ouverture vers 21h ?"
    digest = _extract(("assistant", None, asked), ("user", None, "plutôt 21h30, après le dessert"))
    assert _observations(digest) == [
        "L'utilisateur dit que plutôt 21h30, après le dessert (en réponse à « On lance la "
        "valse d'ouverture vers 21h ? »)."
    ]


def test_an_answer_that_confirms_the_asked_value_keeps_the_question() -> None:
    asked = "Should 9 Quay Road be your delivery address from now on?"
    digest = _extract(("assistant", None, asked), ("user", None, "From now on, yes."))
    [told] = _observations(digest)
    assert "9 Quay Road" in told


@pytest.mark.parametrize(
    ("said", "told"),
    [
        (
            "the board asked for quarterly invoices from now on, ok for you?",
            "The user says that the board asked for quarterly invoices from now on.",
        ),
        (
            "We'll drop the van off at the depot on Monday, right?",
            "The user says that we'll drop the van off at the depot on Monday (Monday 4 May 2026).",
        ),
        # a word of tone with no comma before it
        (
            "les gars peuvent passer par l'échelle du verger, ça ira plus vite non ?",
            "L'utilisateur dit que les gars peuvent passer par l'échelle du verger, ça ira plus "
            "vite.",
        ),
    ],
)
def test_a_statement_with_a_short_question_in_its_tone_is_kept(said: str, told: str) -> None:
    digest = _extract(("assistant", None, "Welcome back."), ("user", None, said))
    assert _observations(digest) == [told]


def test_a_question_with_commas_is_no_statement() -> None:
    said = "Do you deliver to Rennes, Lille, or Tours?"
    assert _observations(_extract(("assistant", None, "Hello!"), ("user", None, said))) == []


@pytest.mark.parametrize(
    ("observation", "rest"),
    [
        (
            "The user says that Ines Varga here; budget about 18,000 in total (in answer to: "
            "May the assistant have the user's name and budget?).",
            "The user says that Ines Varga here (in answer to: May the assistant have the "
            "user's name and budget?).",
        ),
        (
            "No, Basic; billed monthly the user thinks.",
            "No, Basic.",
        ),
        ("The user says that budget about 18,000 in total.", None),  # one statement
        ("The user says that Ines Varga here; the loft has 2 rooms.", None),  # none replaced
        ("The user says that budget 18,000; monthly billing.", None),  # all replaced
        # an opening elided before the statement that went is written whole again
        (
            "L'utilisateur dit qu'à l'atelier, budget 18,000; pour le joindre c'est par mail.",
            "L'utilisateur dit que pour le joindre c'est par mail.",
        ),
    ],
)
def test_the_rest_of_an_observation_is_what_a_newer_fact_leaves(
    observation: str, rest: str | None
) -> None:
    def replaced(part: str) -> bool:
        return "18,000" in part or "monthly" in part

    assert rest_of(observation, replaced) == rest


@pytest.mark.parametrize(
    ("observation", "rest"),
    [
        (
            "The user says that two of us can't have sesame, it's a real allergy, and 4 are vegan.",
            "The user says that 4 are vegan.",
        ),
        (
            "L'utilisateur dit que ma sœur ne supporte pas le sésame, c'est grave, et 4 vegans.",
            "L'utilisateur dit que 4 vegans.",
        ),
        # nothing left once what leans on the clause in dispute goes with it
        ("The user says that the user can't have sesame, has been since May.", None),
        # a clause on a pronoun leans on the one before; one that only frames tells nothing
        ("The user says that for Friday's visit, mind the sesame jar, it sits by the door.", None),
        # a clause that opens with the pronoun the one before opened with says more of its
        # subject: it stays
        (
            "L'utilisateur dit qu'il ne supporte pas le sésame, il adore les tartes.",
            "L'utilisateur dit qu'il adore les tartes.",
        ),
        (
            "The user says that he can't have sesame, he loves pear tarts.",
            "The user says that he loves pear tarts.",
        ),
        ("The user says that our son can't have sesame, he's very careful with it.", None),
        # another subject after "and" parts a statement as a comma would
        (
            "The user says that one of us is coeliac and we never have sesame at home.",
            "The user says that one of us is coeliac.",
        ),
        # what follows from a clause ("so", "donc") parts from it
        (
            "The user says that the user works nights so sesame-free mornings suit best.",
            "The user says that the user works nights.",
        ),
        (
            "L'utilisateur est infirmière de nuit donc pas de sésame le matin.",
            "L'utilisateur est infirmière de nuit.",
        ),
        # a span of time is no count to part at
        (
            "L'utilisateur dit que sa sœur ne supporte pas le sésame, et trois enfants de "
            "moins de 10 ans.",
            "L'utilisateur dit que trois enfants de moins de 10 ans.",
        ),
    ],
)
def test_a_clause_that_leans_on_one_in_dispute_goes_with_it(
    observation: str, rest: str | None
) -> None:
    def disputed(part: str) -> bool:
        return "sesame" in part or "sésame" in part

    assert rest_of(observation, disputed, disputed) == rest


def test_a_few_words_left_without_the_first_clause_go_with_it() -> None:
    def replaced(part: str) -> bool:
        return "14th" in part or "calcaire" in part

    observation = (
        "The user asks the assistant to do Wednesday 14th October, in the morning; Say 10am "
        "(in answer to: Shall we book the hanging too?)."
    )
    assert rest_of(observation, replaced, replaced) == (
        "Say 10am (in answer to: Shall we book the hanging too?)."
    )
    observation = "L'utilisateur dit que du calcaire blond, comme la maison; 14 m de long."
    assert rest_of(observation, replaced, replaced) == "L'utilisateur dit que 14 m de long."


def test_an_address_given_anew_takes_its_statement_whole() -> None:
    # its commas part the address, not clauses: no "unit 4, Rope Yard" left behind
    new = "The user says that finished kit now goes to the user's flat, 17 Tolbooth Street."

    def moved(text: str) -> bool:
        return reached_elsewhere(text, new)

    observation = "The user says that unit 4, Rope Yard, 31 Quarry Rd, G3; buzzer at the side."
    assert rest_of(observation, moved, moved) == "The user says that buzzer at the side."


def test_an_address_given_anew_leaves_who_the_speaker_is() -> None:
    new = "The user says that please deliver to the new offices, 47 Quayside Row, 3rd floor."

    def moved(text: str) -> bool:
        return reached_elsewhere(text, new)

    observation = "The user is Ines Varga, buyer at Folio Prints, we're at 4 Mill Road in Leeds."
    assert rest_of(observation, moved, moved) == "The user is Ines Varga, buyer at Folio Prints."


@pytest.mark.parametrize(
    ("said", "told"),
    [
        (
            "Can we switch to paying monthly instead of per class?",
            "The user asks to switch to paying monthly.",
        ),
        (
            "Je préfère qu'on m'appelle le soir plutôt que par email.",
            "L'utilisateur préfère qu'on l'appelle le soir.",
        ),
    ],
)
def test_the_value_a_choice_replaces_is_left_out(said: str, told: str) -> None:
    """ "instead of per class" is history: kept, it would answer "how do they pay?" too."""
    digest = _extract(("assistant", None, "Welcome back."), ("user", None, said))
    assert [f.text for f in digest.facts] == [told]


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("Weekly or monthly visits?", "Not sure yet, I'll think about it."),
        ("Oak or walnut?", "I'm not sure, I'll think about it."),
        ("Franchise à 300 € ou à 600 € ?", "Je sais pas, je vais réfléchir."),
        ("Would you like the extended warranty too?", "Maybe later, thanks."),
        ("Vous voulez la livraison express ?", "Pas pour l'instant, merci."),
    ],
)
def test_an_answer_that_decides_nothing_yet_gives_no_observation(asked: str, said: str) -> None:
    """Kept, it would carry the question's values as if one were chosen."""
    assert _observations(_extract(("assistant", None, asked), ("user", None, said))) == []


def test_a_statement_closed_by_thanks_is_kept() -> None:
    said = "We booked the barn for the reception, thanks."
    [told] = _observations(_extract(("assistant", None, "Any news?"), ("user", None, said)))
    assert "booked the barn" in told


def test_an_undecided_answer_that_names_a_value_is_kept() -> None:
    digest = _extract(
        ("assistant", None, "How many chairs?"),
        ("user", None, "Not sure yet, about 20 chairs I think."),
    )
    [told] = _observations(digest)
    assert "20 chairs" in told


def test_a_sentence_a_typed_fact_says_only_in_part_is_observed_too() -> None:
    """The preference says why; the choice in the same sentence is kept by the observation."""
    said = "We'll go with the 250 excess, I prefer to pay a bit more and sleep well."
    digest = _extract(
        ("assistant", None, "Welcome back."),
        ("user", None, "Hello again."),
        ("assistant", None, "Which excess?"),
        ("user", None, said),
    )
    texts = [f.text for f in digest.facts]
    assert any("250 excess" in text for text in texts)
    assert any(f.category == "preference" for f in digest.facts)


def test_a_replaced_statement_keeps_the_clauses_a_newer_number_leaves() -> None:
    def counts_staff(clause: str) -> bool:
        return "4 staff" in clause

    observation = "The user says that SARL, 4 staff, year end on 31 December (in answer to: Size?)."
    assert rest_of(observation, counts_staff, counts_staff) == (
        "The user says that SARL, year end on 31 December (in answer to: Size?)."
    )

    # a phrase that counts ("with 6 riders") goes, the clause it ends stays
    def counts_riders(clause: str) -> bool:
        return "6 riders" in clause

    firm = "The user says that Ines here; the user runs a courier firm in Exeter with 6 riders."
    assert rest_of(firm, counts_riders, counts_riders) == (
        "The user says that Ines here; the user runs a courier firm in Exeter."
    )

    # a verb after "and" with its subject left out starts a clause of its own
    def counts_vans(clause: str) -> bool:
        return "two vans" in clause

    fleet = "The user says that the user sends about 40 parcels a week and has two vans."
    assert rest_of(fleet, counts_vans, counts_vans) == (
        "The user says that the user sends about 40 parcels a week."
    )
    # replaced only with its question: no clause goes alone, so the statement goes whole
    address = "The user says that unit 4, Mill Lane; deliveries before 11am (in answer to: Where?)."
    assert rest_of(address, lambda part: "unit 4" in part and "Where" in part) == (
        "The user says that deliveries before 11am (in answer to: Where?)."
    )


def test_a_hedge_before_a_decision_keeps_the_decision() -> None:
    said = "Not sure about the colour, we'll take the oak."
    [told] = _observations(_extract(("assistant", None, "Oak or walnut?"), ("user", None, said)))
    assert "take the oak" in told


@pytest.mark.parametrize(
    ("said", "told"),
    [
        (
            "Le mardi je finis tard, je peux pas avant 19h.",
            "Le mardi l'utilisateur finit tard, l'utilisateur peut pas avant 19h.",
        ),
        (
            "Je sais pas trop pour le parquet, je prends le chêne clair.",
            "L'utilisateur sait pas trop pour le parquet, l'utilisateur prend le chêne clair.",
        ),
        # the listener as object, after the verb
        (
            "Je vous rappelle demain pour la pose du parquet.",
            "L'utilisateur rappelle l'assistant demain (Monday 4 May 2026) pour la pose du "
            "parquet.",
        ),
        (
            "Je vous envoie le plan de la cuisine ce soir.",
            "L'utilisateur envoie à l'assistant le plan de la cuisine ce soir (Sunday 3 May 2026).",
        ),
        (
            "Je vous en apporte deux cartons de plus que ce que je vous avais dit.",
            "L'utilisateur en apporte à l'assistant deux cartons de plus que ce que "
            "l'utilisateur avait dit à l'assistant.",
        ),
        # a reflexive verb before a vowel
        (
            "Je me suis occupée des clés, elles sont chez la voisine.",
            "L'utilisateur s'est occupée des clés, elles sont chez la voisine.",
        ),
        # the speaker moved somewhere is the object
        (
            "Pour la suite, passez-moi en formule mensuelle dès juin.",
            "L'utilisateur dit que pour la suite, passez l'utilisateur en formule mensuelle "
            "dès juin.",
        ),
        # the listener after an infinitive
        (
            "Je voulais vous dire que le portail ferme à clé le soir.",
            "L'utilisateur voulait dire à l'assistant que le portail ferme à clé le soir.",
        ),
        (
            "Je vais vous appeler pour la pose du parquet.",
            "L'utilisateur va appeler l'assistant pour la pose du parquet.",
        ),
        # the listener as subject
        (
            "Le gardien dit que vous pouvez passer jeudi avec la clé.",
            "L'utilisateur dit que le gardien dit que l'assistant peut passer jeudi (Thursday 7 "
            "May 2026) avec la clé.",
        ),
    ],
)
def test_a_french_verb_agrees_with_the_speaker_named(said: str, told: str) -> None:
    assert _observations(_extract(("assistant", None, "Bonjour !"), ("user", None, said))) == [told]


def test_a_short_statement_is_kept_for_its_numbers() -> None:
    digest = _extract(
        ("assistant", None, "Great session today."),
        ("user", None, "ok good to know. Also I did sign up for that 5k on the 9th!"),
    )
    assert _observations(digest) == [
        "The user did sign up for that 5k on the 9th (Saturday 9 May 2026)."
    ]


@pytest.mark.parametrize(
    ("asked", "said", "told"),
    [
        (
            "Oh dear. So that's 6 hampers for the team then?",
            "yep",
            "The user agrees (in answer to: So that's 6 hampers for the team then?).",
        ),
        (
            "We have a fitting slot on Monday 11 May, shall I pencil you in?",
            "go on then",
            "The user agrees (in answer to: We have a fitting slot on Monday 11 May, shall "
            "the assistant pencil the user in?).",
        ),
        # a question that only asks to confirm takes the sentence it confirms
        (
            "Pas de souci, on passe au jeudi 14 mai à 9h. Ça vous convient ?",
            "parfait merci",
            "L'utilisateur est d'accord (en réponse à « Pas de souci, on passe au jeudi 14 mai à "
            "9h, ça vous convient ? »).",
        ),
        # a sound before the yes, "c parfait" written short; a weekday with its day of the
        # month is the next date that has both
        (
            "On peut aussi vous le livrer le vendredi 15 à 10h. Ça vous irait ?",
            "ah oui c parfait ça",
            "L'utilisateur est d'accord (en réponse à « On peut aussi vous le livrer le vendredi "
            "15 (Friday 15 May 2026) à 10h, ça vous irait ? »).",
        ),
        (
            "We can deliver on Friday 15 May at 10am. Would that suit?",
            "oh yes, perfect",
            "The user agrees (in answer to: We can deliver on Friday 15 May at 10am, would that "
            "suit?).",
        ),
        # a thing offered before the question is taken with it
        (
            "Good news! We can offer you the oak dresser at £40 a month. Saturday at 9am, "
            "would that suit?",
            "ok",
            "The user agrees (in answer to: We can offer the user the oak dresser at £40 a "
            "month, Saturday (Saturday 9 May 2026) at 9am, would that suit?).",
        ),
        (
            "On peut vous proposer le buffet en chêne à 40 €/mois. Samedi à 9h, ça irait ?",
            "ok",
            "L'utilisateur est d'accord (en réponse à « On peut vous proposer le buffet en chêne à "
            "40 €/mois, samedi (Saturday 9 May 2026) à 9h, ça irait ? »).",
        ),
        # a deed proposed on what the sentence before offers; a yes that grants a point
        (
            "We could move the hedge to every 6 weeks, same price. Shall I switch it?",
            "Yes go on, that's fine.",
            "The user agrees (in answer to: We could move the hedge to every 6 weeks, same "
            "price, shall the assistant switch it?).",
        ),
        (
            "Friday 19 June is free for a group your size. Shall I move the booking across?",
            "yes",
            "The user agrees (in answer to: Friday 19 June is free for a group the user's size, "
            "shall the assistant move the booking across?).",
        ),
        # a thing offered, and a bare yes to setting it up
        (
            "We could keep your spare keys in our safe. Shall I set that up?",
            "yes",
            "The user agrees (in answer to: We could keep the user's spare keys in our safe, "
            "shall the assistant set that up?).",
        ),
        # an offer that names its own value takes nothing before it (the old value there)
        (
            "The desk shuts at 4pm, so a 3pm pickup is tight. Shall I move the pickup to 2:30pm?",
            "yes",
            "The user agrees (in answer to: Shall the assistant move the pickup to 2:30pm?).",
        ),
        (
            "Since it's going to the depot, would the first Monday of the month work better?",
            "Oh good point, yes that works.",
            "The user agrees (in answer to: Since it's going to the depot, would the first "
            "Monday of the month work better?).",
        ),
        (
            "Since the yard opens early, could we start at 6:30 instead?",
            "Sure, do that.",
            "The user agrees (in answer to: Since the yard opens early, could we start at 6:30 "
            "instead?).",
        ),
        (
            "On peut passer la haie toutes les 6 semaines, même tarif. Je vous le change ?",
            "bonne idée, oui",
            "L'utilisateur est d'accord (en réponse à « On peut passer la haie toutes les 6 "
            "semaines, même tarif, je vous le change ? »).",
        ),
        # a yes, then only how the speaker feels about it
        (
            "Je vous conseille notre formule Cèdre à 19 € par personne. Ça vous irait ?",
            "ok parfait, ça a l'air top",
            "L'utilisateur est d'accord (en réponse à « Je vous conseille notre formule Cèdre "
            "à 19 € par personne, ça vous irait ? »).",
        ),
        (
            "Shall I put you down for the cedar menu at £19 a head?",
            "yes please, sounds lovely",
            "The user agrees (in answer to: Shall the assistant put the user down for the cedar "
            "menu at £19 a head?).",
        ),
        # a proposal made as a statement, with what it goes on to say
        (
            "We could come every two weeks from Monday 4 May. Since it's regular, we'd drop "
            "the call-out to £25.",
            "Go on then, sounds good.",
            "The user agrees (in answer to: We could come every two weeks from Monday 4 May; "
            "since it's regular, we'd drop the call-out to £25).",
        ),
        (
            "On peut passer à 4 tontes par mois, le contrat passerait à 980 € HT. Ça vous va ?",
            "ok va pour ça",
            "L'utilisateur est d'accord (en réponse à « On peut passer à 4 tontes par mois, le "
            "contrat passerait à 980 € HT, ça vous va ? »).",
        ),
        # a new figure told back, then a question that only asks to write it down
        (
            "D'accord, ça fait donc 7 fenêtres en tout, à 12 euros chacune. Je modifie ?",
            "oui",
            "L'utilisateur est d'accord (en réponse à « D'accord, ça fait donc 7 fenêtres en "
            "tout, à 12 euros chacune, je modifie ? »).",
        ),
        (
            "Right, that makes 7 windows in all at £12 each. Shall I update the booking?",
            "yes",
            "The user agrees (in answer to: Right, that makes 7 windows in all at £12 each, "
            "shall the assistant update the booking?).",
        ),
        (
            "On peut passer au grand modèle, 15 x 20 m, pour 140 personnes. On part là-dessus ?",
            "oui",
            "L'utilisateur est d'accord (en réponse à « On peut passer au grand modèle, 15 x 20 "
            "m, pour 140 personnes, on part là-dessus ? »).",
        ),
        (
            "On pourrait passer tous les quinze jours, le jeudi.",
            "ok parfait",
            "L'utilisateur est d'accord (en réponse à « On pourrait passer tous les quinze "
            "jours, le jeudi »).",
        ),
        # a price stated before a question the yes answers: taken at that price
        (
            "Full board is £180 a week per pony. Shall we start from Monday 4 May?",
            "yep",
            "The user agrees (in answer to: Full board is £180 a week per pony, shall we start "
            "from Monday 4 May?).",
        ),
        (
            "La pension complète est à 450 € par mois. On commence lundi 4 mai ?",
            "oui",
            "L'utilisateur est d'accord (en réponse à « La pension complète est à 450 € par "
            "mois, on commence lundi 4 mai ? »).",
        ),
        # a price quoted, said yes to
        (
            "Two more lamps are £30, so the kit comes to £450 for the week.",
            "fine",
            "The user agrees (in answer to: Two more lamps are £30, so the kit comes to £450 "
            "for the week).",
        ),
        # a price quoted, taken in so many words
        (
            "Good news on the sizes! The oak bench in 1.8 m comes to £1,240 fitted.",
            "ok go for that",
            "The user agrees (in answer to: The oak bench in 1.8 m comes to £1,240 fitted).",
        ),
        (
            "Il conseille une chaudière de 24 kW. Avec la pose, le devis est de 6 300 € TTC.",
            "ok ça nous va, on part là-dessus",
            "L'utilisateur est d'accord (en réponse à « Il conseille une chaudière de 24 kW; "
            "avec la pose, le devis est de 6 300 € TTC »).",
        ),
    ],
)
def test_a_bare_yes_to_a_value_proposed_agrees_to_it(asked: str, said: str, told: str) -> None:
    digest = _extract(("assistant", None, asked), ("user", None, said))
    assert _observations(digest) == [told]
    assert digest.facts[0].quote == said


@pytest.mark.parametrize(
    ("offered", "said", "told"),
    [
        (
            "Noted. One more idea: a brass plate by the door, £90 fitted.",
            "Go on then, good shout, nobody finds us",
            "The user says that go on then, good shout, nobody finds us (in answer to: One more "
            "idea: a brass plate by the door, £90 fitted).",
        ),
        (
            "Noté. Une autre idée : une plaque en laiton à l'entrée, 90 € posée.",
            "ok vas-y, bonne idée",
            "L'utilisateur est d'accord (en réponse à « Une autre idée : une plaque en laiton à "
            "l'entrée, 90 € posée »).",
        ),
    ],
)
def test_a_yes_to_an_idea_put_forward_takes_it_with_why(offered: str, said: str, told: str) -> None:
    digest = _extract(("assistant", None, offered), ("user", None, said))
    assert _observations(digest) == [told]


@pytest.mark.parametrize(
    ("offered", "said", "value"),
    [
        (
            "Je refais le devis pour 4 stores : ça fait 2 300 € HT posé. Je vous l'envoie ?",
            "oui envoyez, si c'est bon je signe dans la foulée",
            "2 300 €",
        ),
        (
            "I've redone the quote for 4 blinds: £2,300 fitted. Shall I send it over?",
            "yes send it, if it's right I'll sign straight away",
            "£2,300",
        ),
    ],
)
def test_a_yes_that_goes_on_keeps_what_the_offer_to_do_it_was_about(
    offered: str, said: str, value: str
) -> None:
    digest = _extract(("assistant", None, offered), ("user", None, said))
    assert value in _observations(digest)[0]


def test_a_yes_that_denies_part_of_an_idea_takes_nothing() -> None:
    offered = "Noted. One more idea: a brass plate by the door, £90 fitted."
    digest = _extract(("assistant", None, offered), ("user", None, "ok, but not this year"))
    assert not any("brass plate" in fact.text for fact in digest.facts)


@pytest.mark.parametrize(
    ("asked", "said"),
    [("Anything else I can do?", "yes thanks"), ("Ça vous va ?", "oui"), ("Noted.", "ok")],
)
def test_a_bare_yes_to_nothing_proposed_tells_nothing(asked: str, said: str) -> None:
    assert _observations(_extract(("assistant", None, asked), ("user", None, said))) == []


def test_an_answer_to_which_of_several_carries_what_was_offered() -> None:
    asked = "We do a box of 6 or of 12, sent weekly or monthly. Which suits you?"
    digest = _extract(("assistant", None, asked), ("user", None, "6, weekly"))
    assert _observations(digest) == [
        "The user says that 6, weekly (in answer to: We do a box of 6 or of 12, sent weekly "
        "or monthly, which suits the user?)."
    ]


def test_an_answer_is_kept_without_its_question_when_they_would_make_two_sentences() -> None:
    # "500 g." ends the question's first sentence: joined, the fact would hold two
    digest = _extract(
        ("assistant", None, "We sell tins of 250 g or 500 g. Is it for you or for the café?"),
        ("user", None, "For the café. I was thinking of 6 tins a month to start with."),
    )
    [told] = _observations(digest)
    assert "6 tins a month" in told


def test_what_we_did_told_with_on_is_no_reaction_to_the_listener() -> None:
    # "on" is the French "we" of chat: a news of the speaker's, not a remark on "vous"
    digest = _extract(
        ("user", None, "Vous avez vu, on a déménagé l'atelier au 4 rue des Ormeaux !")
    )
    [told] = _observations(digest)
    assert "4 rue des Ormeaux" in told


def test_a_request_to_move_a_time_by_a_stretch_of_the_clock_is_kept() -> None:
    digest = _extract(("user", None, "Could the fitting be half an hour earlier than we said?"))
    assert _observations(digest) == [
        "The user asks that the fitting be half an hour earlier than we said."
    ]


@pytest.mark.parametrize(
    ("said", "told"),
    [
        (
            "We need 5 crates a week sorry typo, 6 crates, the café is busier.",
            "The user says that we need 6 crates a week, the café is busier.",
        ),
        (
            "Le code du portail c'est 2719... pardon, 2791.",
            "L'utilisateur dit que le code du portail c'est 2791.",
        ),
        # the slip taken back at the start of the next sentence
        (
            "It's an Ostermann, built in 1934. No wait, sorry, 1943, it says so inside.",
            "The user says that it's an Ostermann, built in 1943, it says so inside.",
        ),
        (
            "14... ah non 16 pardon, j'oublie toujours le stagiaire",
            "L'utilisateur dit que 16 pardon, l'utilisateur oublie toujours le stagiaire.",
        ),
        # the day put right before its date is read: not "the 18th" of the next month
        (
            "Le pot de départ c'est le 11 septembre, pardon le 13, un dimanche.",
            "L'utilisateur dit que le pot de départ c'est le 13 septembre, un dimanche.",
        ),
    ],
)
def test_a_value_put_right_in_the_same_breath_keeps_only_the_right_one(
    said: str, told: str
) -> None:
    assert _observations(_extract(("user", None, said))) == [told]


@pytest.mark.parametrize(
    ("proposed", "reply", "told"),
    [
        # a value proposed as a question, taken up by the reply: asked for
        (
            "Le 3 mai ?",
            "Le 3 mai c'est noté, on passera vers 9h.",
            ["L'utilisateur demande le 3 mai."],
        ),
        (
            "Thursdays at 6pm?",
            "Yes, Thursdays at 6pm are free, I'll book them.",
            ["The user asks for Thursdays at 6pm."],
        ),
        # a day of the week in the plural, taken up in the singular or the plural
        (
            "fortnightly suits us, fridays?",
            "Fridays it is. Anything else?",
            ["The user says that fortnightly suits us; the user asks for fridays."],
        ),
        ("Les mardis ?", "Va pour le mardi, à 10h.", ["L'utilisateur demande les mardis."]),
        # turned down, or a question asked with a question word: nothing decided
        ("Le 3 mai ?", "Malheureusement le 3 mai est complet.", []),
        ("Do you open at 9am on Saturdays?", "Yes, we open at 9am.", []),
    ],
)
def test_a_value_proposed_as_a_question_is_asked_for_once_the_reply_takes_it_up(
    proposed: str, reply: str, told: list[str]
) -> None:
    digest = _extract(("user", None, proposed), ("assistant", None, reply))
    assert _observations(digest) == told


@pytest.mark.parametrize(
    ("said", "told"),
    [
        # a request tagged on after a connective ("…, so can we…")
        (
            "The plasterer won't be done before the 20th, so can we push the fitting a week later?",
            "The user says that the plasterer won't be done before the 20th (Wednesday 20 May "
            "2026); the user asks to push the fitting a week later.",
        ),
        (
            "could we move the tasting a week later?",
            "The user asks to move the tasting a week later.",
        ),
        (
            "can you bring the handover two days earlier?",
            "The user asks the assistant to bring the handover two days earlier.",
        ),
    ],
)
def test_a_request_to_move_something_by_a_stretch_of_time_is_kept(said: str, told: str) -> None:
    assert _observations(_extract(("user", None, said))) == [told]


def test_a_french_si_that_answers_yes_is_not_a_condition() -> None:
    # "si," after a question put in the negative says yes: what follows is said, not supposed
    digest = _extract(
        ("assistant", None, "Rien d'autre ?"),
        ("user", None, "si, un détail : il faudrait que le chauffeur passe une heure plus tôt"),
    )
    assert _observations(digest) == [
        "L'utilisateur dit qu'un détail : il faudrait que le chauffeur passe une heure plus tôt."
    ]
    supposed = _extract(("user", None, "si le prix baisse, on prendrait deux vélos"))
    assert _observations(supposed) == []


@pytest.mark.parametrize(
    ("offered", "reply", "told"),
    [
        (
            "We can fit you in on Thursday 14 May at 10am.",
            "great, the 14th works.",
            "The user says that great, the 14th (Thursday 14 May 2026) works (in answer to: We "
            "can fit the user in on Thursday 14 May at 10am).",
        ),
        (
            "Oui, on peut livrer le mardi 19 mai.",
            "parfait le 19. Le portail sera ouvert.",
            "L'utilisateur dit que parfait le 19 (Tuesday 19 May 2026); Le portail sera ouvert "
            "(en réponse à « Oui, on peut livrer le mardi 19 mai »).",
        ),
    ],
)
def test_a_yes_to_a_value_the_listener_put_forward_keeps_it(
    offered: str, reply: str, told: str
) -> None:
    # the agent's statement names a date; the client takes it with a yes before naming it
    digest = _extract(("assistant", None, offered), ("user", None, reply))
    assert _observations(digest) == [told]


def test_a_value_named_after_a_yes_in_another_sentence_takes_up_nothing() -> None:
    digest = _extract(
        ("assistant", None, "The first visit will be Tuesday 7 April then."),
        ("user", None, "Perfect. Could you do my flat as well? It's 7 rooms."),
    )
    assert not any("in answer to" in told for told in _observations(digest))


@pytest.mark.parametrize(
    ("said", "told"),
    [
        ("sorry QL-2291 not 2219, fat fingers", "The user says that sorry QL-2291 fat fingers."),
        ("pardon, BC-7741 pas 7714", "L'utilisateur dit que pardon, BC-7741."),
    ],
)
def test_a_reference_put_right_after_a_word_of_sorry_is_no_pleasantry(said: str, told: str) -> None:
    assert _observations(_extract(("user", None, said))) == [told]
