"""RulesLLM on EXTRACT in casual conversation: the patterns of chat between two people.

Each pattern has cases that must give one fact (with its text and category) and cases
that must give none: a verb with nothing after it, a question, a hypothetical, a word of
encouragement, a "we" nobody can name.
"""

from __future__ import annotations

import pytest

from somna.llm import SessionDigest
from somna.llm.rules.extract import typed_facts
from somna.model import FactType
from tests.llm.helpers import transcript


def _said(content: str, speaker: str = "Camille") -> SessionDigest:
    """What ``speaker`` said to Tariq, both users (as in a conversation between two people)."""
    session = transcript(("user", "Tariq", "Hi there!"), ("user", speaker, content), user=speaker)
    typed, _, _ = typed_facts(session)  # observations have their own tests
    return SessionDigest(summary="", facts=[fact for _, fact in typed])


@pytest.mark.parametrize(
    ("said", "text", "category"),
    [
        # preferences and values
        (
            "Wow, I'm really into woodworking these days!",
            "Camille is really into woodworking these days.",
            "preference",
        ),
        (
            "I cherish time with my family.",
            "Camille cherishes time with their family.",
            "preference",
        ),
        (
            "Family is really important to me.",
            "Family is really important to Camille.",
            "preference",
        ),
        ("Family time matters to me.", "Family time matters to Camille.", "preference"),
        (
            "Painting helps me relax after work.",
            "Painting helps Camille relax after work.",
            "preference",
        ),
        ("Blue calms me.", "Blue calms Camille.", "preference"),
        ("Dance is my passion.", "Dance is Camille's passion.", "preference"),
        ("Guitar's mostly my thing.", "Guitar is mostly Camille's thing.", "preference"),
        (
            "Painting's a fun way to express my feelings.",
            "Painting is a fun way to express Camille's feelings.",
            "preference",
        ),
        (
            "For me, running is a way to clear my head.",
            "For Camille, running is a way to clear their head.",
            "preference",
        ),
        (
            "My favourite band is Queen.",
            "Camille's favourite band is Queen.",
            "preference",
        ),
        # relationships and belongings
        ("My husband got a new job.", "Camille's husband got a new job.", "relationship"),
        ("My kids love the beach.", "Camille's kids love the beach.", "relationship"),
        ("I have three kids.", "Camille has three kids.", "relationship"),
        (
            "I'm lucky to have my husband and kids; they keep me going.",
            "Camille is lucky to have their husband and kids.",
            "relationship",
        ),
        ("I've got lots of kids' books.", "Camille has got lots of kids' books.", "event"),
        ("My goal is to open a studio.", "Camille's goal is to open a studio.", "identity"),
        ("I've been a nurse for ten years.", "Camille has been a nurse for ten years.", "identity"),
        # plans
        ("I'm thinking about getting a dog.", "Camille is thinking about getting a dog.", "plan"),
        ("I'm planning to visit Japan.", "Camille is planning to visit Japan.", "plan"),
        (
            "Gonna start a woodworking class.",
            "Camille is going to start a woodworking class.",
            "decision",
        ),
        ("I wanna open a bakery.", "Camille wants to open a bakery.", "plan"),
        (
            "I'm off to go swimming with the kids.",
            "Camille is off to go swimming with the kids.",
            "plan",
        ),
        (
            "I'm on the hunt for a bigger studio.",
            "Camille is on the hunt for a bigger studio.",
            "plan",
        ),
        # events, past and ongoing
        ("I just adopted a puppy named Max!", "Camille just adopted a puppy named Max.", "event"),
        (
            "I volunteered at the animal shelter last weekend.",
            "Camille volunteered at the animal shelter last weekend.",
            "event",
        ),
        ("I've been painting a lot lately.", "Camille has been painting a lot lately.", "event"),
        ("Been practicing my routines.", "Camille has been practicing their routines.", "event"),
        ("Just got a new bike!", "Camille just got a new bike.", "event"),
        ("I'm learning the piano.", "Camille is learning the piano.", "event"),
        ("I haven't tried woodworking yet.", "Camille has not tried woodworking yet.", "event"),
        (
            "It was my first time going sailing!",
            "It was Camille's first time going sailing.",
            "event",
        ),
        (
            "I made this bowl in my woodworking class.",
            "Camille made a bowl in their woodworking class.",
            "event",
        ),
        (
            "Here's a pic of my family at the beach.",
            "Camille shared a pic of their family at the beach.",
            "event",
        ),
        ("I mentor a teen just like me.", "Camille mentors a teen just like Camille.", "activity"),
        ("I play clarinet.", "Camille plays clarinet.", "activity"),
        # "we", when the message says who
        (
            "We went sailing with my kids last week.",
            "Camille and their family went sailing with their kids last week.",
            "event",
        ),
        (
            "We roasted marshmallows with our kids.",
            "Camille and their family roasted marshmallows with their kids.",
            "event",
        ),
        (
            "My kids and I painted a mural.",
            "Camille and their kids painted a mural.",
            "event",
        ),
        (
            "Yeah, my husband and I moved to Lyon.",
            "Camille and their husband moved to Lyon.",
            "event",
        ),
        (
            "I had a day out with the gang; we went biking along the river.",
            "Camille and their friends went biking along the river.",
            "event",
        ),
    ],
)
def test_english_conversation_states_facts(said: str, text: str, category: str) -> None:
    facts = _said(said).facts
    assert [fact.text for fact in facts][-1:] == [text]
    fact = facts[-1]
    assert fact.category == category
    assert fact.subject == "Camille"
    assert fact.quote in said
    assert fact.message_index == 1


@pytest.mark.parametrize(
    ("said", "text"),
    [
        # leading interjections go, trailing chatter and a closing question too
        (
            "Hey Bram! I went to a concert yesterday, it was so fun!",
            "Camille went to a concert yesterday.",
        ),
        ("I ran a 5k last weekend; it was tough.", "Camille ran a 5k last weekend."),
        (
            "I went to a support group yesterday and it was so powerful.",
            "Camille went to a support group yesterday.",
        ),
        (
            "I finished my first painting - want to see it?",
            "Camille finished their first painting.",
        ),
        (
            "Unfortunately, I lost my job at the bakery this month.",
            "Camille lost their job at the bakery this month.",
        ),
        (
            "I'm keen on nursing - I'd love to help people.",
            "Camille is keen on nursing.",
        ),
        (
            "Taking your advice, I'm rewriting my business plan.",
            "Camille is rewriting their business plan.",
        ),
        (
            "I've had some tough times with my business, Tariq.",
            "Camille has had some tough times with their business.",
        ),
        (
            "I've done an abstract painting too, take a look!",
            "Camille has done an abstract painting too.",
        ),
        ("I'm livin' my dream now.", "Camille is living their dream now."),
    ],
)
def test_english_clauses_are_cut_out_of_chatter(said: str, text: str) -> None:
    facts = _said(said).facts
    assert [fact.text for fact in facts] == [text]
    assert facts[0].quote in said  # the quote stays verbatim: the sentence, not the clause


@pytest.mark.parametrize(
    "said",
    [
        # a verb with nothing after it
        "Yeah, I love to.",
        "I did too.",
        "It was my first time.",
        "I'm planning a few.",
        # determination or encouragement with no content
        "I'll keep going!",
        "I'm gonna keep going and never quit.",
        "I won't give up!",
        "Never give up!",
        "Remember that staying positive is key.",
        "Remember, just do it!",
        "Gonna be awesome!",
        # "we" that nobody can name, and what "we" can do
        "We went to the beach.",
        "We can do it!",
        # moods, pleasantries, questions, hypotheticals
        "I'm staying positive.",
        "I'm so happy for you.",
        "I had a great time.",
        "I'm so excited!",
        "Been playing long?",
        "Did you know I went to Paris - it was great?",
        "I'd love to go sailing with my kids.",
        "If I had time I would paint more.",
        "Maybe I'll try yoga.",
        "I think I'll start running.",
        # leaning on someone else, or on a pronoun
        "I'll keep ya posted.",
        "I love their music.",
        "I love your painting!",
        "I painted it last week.",
        "I'm obsessed with those.",
    ],
)
def test_english_chatter_that_states_nothing(said: str) -> None:
    assert _said(said).facts == []


def test_a_clause_is_kept_when_another_clause_of_its_sentence_is_hypothetical() -> None:
    facts = _said("I used to ride horses with my dad, we'd go through the fields.").facts
    assert [fact.text for fact in facts] == ["Camille used to ride horses with their dad."]


def test_a_sentence_that_only_shares_a_french_word_is_read_in_english() -> None:
    (fact,) = _said("Hello! Dancing helps me de-stress.").facts
    assert fact.text == "Dancing helps Camille de-stress."


def test_both_speakers_of_a_conversation_are_read_and_named() -> None:
    session = transcript(
        ("user", "Bramwell", "Hey Odile! I painted a harbour at dawn last year."),
        ("user", "Odile", "Wow! I just joined a new activist group."),
        ("user", "Bramwell", "Do you like it?"),
        user="Bramwell",
    )
    facts = [fact for _, fact in typed_facts(session)[0]]
    assert [(fact.subject, fact.text, fact.message_index) for fact in facts] == [
        ("Bramwell", "Bramwell painted a harbour at dawn last year.", 0),
        ("Odile", "Odile just joined a new activist group.", 1),
    ]


@pytest.mark.parametrize(
    ("said", "text", "category"),
    [
        (
            "Coucou Bram ! J'ai repeint ma cuisine hier.",
            "Camille a repeint sa cuisine hier.",
            "event",
        ),
        (
            "Je suis en train de préparer une expo.",
            "Camille est en train de préparer une expo.",
            "event",
        ),
        (
            "Je viens de finir mon premier marathon !",
            "Camille vient de finir son premier marathon.",
            "event",
        ),
        (
            "Je me suis mise à la poterie.",
            "Camille s'est mise à la poterie.",
            "event",
        ),
        (
            "C'était la première fois que je faisais de la voile.",
            "C'était la première fois que Camille faisait de la voile.",
            "event",
        ),
        (
            "Voici une photo de ma famille à la plage.",
            "Camille a partagé une photo de sa famille à la plage.",
            "event",
        ),
        (
            "On est allés camper avec mes enfants.",
            "Camille et sa famille sont allés camper avec ses enfants.",
            "event",
        ),
        (
            "Nous avons fait une randonnée avec mes enfants.",
            "Camille et sa famille ont fait une randonnée avec ses enfants.",
            "event",
        ),
        (
            "Mes enfants et moi avons fini une peinture.",
            "Camille et ses enfants ont fini une peinture.",
            "event",
        ),
        (
            "Ouais, mon mari et moi sommes partis en Italie.",
            "Camille et son mari sont partis en Italie.",
            "event",
        ),
        (
            "La peinture m'aide à exprimer mes émotions.",
            "La peinture aide Camille à exprimer ses émotions.",
            "preference",
        ),
        (
            "La famille est très importante pour moi.",
            "La famille est très importante pour Camille.",
            "preference",
        ),
        ("La poterie me détend.", "La poterie détend Camille.", "preference"),
        ("La danse est ma passion.", "La danse est la passion de Camille.", "preference"),
        (
            "Pour moi, le bénévolat est une façon de donner de l'amour.",
            "Pour Camille, le bénévolat est une façon de donner de l'amour.",
            "preference",
        ),
        (
            "Je m'intéresse beaucoup à la photographie.",
            "Camille s'intéresse beaucoup à la photographie.",
            "preference",
        ),
        (
            "Mes enfants adorent la plage.",
            "Les enfants de Camille adorent la plage.",
            "relationship",
        ),
        (
            "J'ai la chance d'avoir un mari formidable.",
            "Camille a la chance d'avoir un mari formidable.",
            "relationship",
        ),
        ("Je pense à adopter un chien.", "Camille pense à adopter un chien.", "plan"),
        (
            "J'envisage de reprendre mes études.",
            "Camille envisage de reprendre ses études.",
            "plan",
        ),
        ("J'ai hâte de voir la mer.", "Camille a hâte de voir la mer.", "plan"),
        (
            "J'espère ouvrir mon studio l'an prochain.",
            "Camille espère ouvrir son studio l'an prochain.",
            "plan",
        ),
        ("Je fais du yoga depuis cinq ans.", "Camille fait du yoga depuis cinq ans.", "activity"),
        ("Ouais, je joue de la clarinette.", "Camille joue de la clarinette.", "activity"),
    ],
)
def test_french_conversation_states_facts(said: str, text: str, category: str) -> None:
    facts = _said(said).facts
    assert [fact.text for fact in facts] == [text]
    assert facts[0].category == category
    assert facts[0].type is FactType.FACT
    assert facts[0].quote in said


@pytest.mark.parametrize(
    "said",
    [
        "J'ai pensé à toi.",
        "J'aime bien.",
        "C'était la première fois.",
        "On est allés à la plage.",
        "On pourrait aller au cinéma.",
        "J'espère que tu vas bien.",
        "Je pense que c'est bien.",
        "Tu as fait de la voile ?",
        "Je suis tellement contente !",
        "Je me suis demandé pourquoi.",
        "N'abandonne jamais !",
        "Retiens que rester positif est important.",
        "Si je gagne, j'achèterai une maison.",
        "Ça me détend.",
    ],
)
def test_french_chatter_that_states_nothing(said: str) -> None:
    assert _said(said).facts == []


def test_a_fact_over_the_length_limit_is_dropped_not_cut() -> None:
    said = "I went to " + ", ".join(f"the museum number {n}" for n in range(60)) + "."
    assert _said(said).facts == []
    (fact,) = _said("I went to the museum of modern art in the old town yesterday.").facts
    assert "\n" not in fact.text and len(fact.text) <= 500
