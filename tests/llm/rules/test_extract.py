"""RulesLLM on EXTRACT: which sentences become facts, in English and French, and how they read."""

from __future__ import annotations

import pytest

from somna.errors import LLMError
from somna.llm import EXTRACT, LLM, REWRITE, RewriteRequest, RulesLLM, SessionDigest, Task
from somna.llm.rules.extract import typed_facts
from somna.llm.tasks import RewrittenQuery
from somna.model import FactType
from tests.llm.helpers import SESSION_DATE, transcript, typical_transcript


def _facts(content: str, *, speaker: str | None = None, user: str = "user") -> SessionDigest:
    """What the typed rules find in one message (observations have their own tests)."""
    typed, _, _ = typed_facts(transcript(("user", speaker, content), user=user))
    return SessionDigest(summary="", facts=[fact for _, fact in typed])


@pytest.mark.parametrize(
    ("speaker", "said", "text", "category", "type_"),
    [
        ("Odile", "I love hiking.", "Odile loves hiking.", "preference", FactType.FACT),
        (None, "I love hiking.", "The user loves hiking.", "preference", FactType.FACT),
        (
            "Odile",
            "I don't like spicy food.",
            "Odile does not like spicy food.",
            "preference",
            FactType.FACT,
        ),
        (
            "Odile",
            "I'm a big fan of jazz!",
            "Odile is a big fan of jazz.",
            "preference",
            FactType.FACT,
        ),
        (
            "Odile",
            "My favorite color is blue.",
            "Odile's favorite color is blue.",
            "preference",
            FactType.FACT,
        ),
        (
            "Odile",
            "I work as a nurse at the city hospital.",
            "Odile works as a nurse at the city hospital.",
            "identity",
            FactType.PERSONA,
        ),
        ("Odile", "I'm a nurse.", "Odile is a nurse.", "identity", FactType.PERSONA),
        (None, "I live in Berlin.", "The user lives in Berlin.", "identity", FactType.PERSONA),
        (
            None,
            "My last name is Lindqvist.",
            "The user's last name is Lindqvist.",
            "identity",
            FactType.PERSONA,
        ),
        (
            "Odile",
            "My sister Emma lives in Lyon.",
            "Odile's sister Emma lives in Lyon.",
            "relationship",
            FactType.FACT,
        ),
        (
            "Odile",
            "I'm married to John.",
            "Odile is married to John.",
            "relationship",
            FactType.FACT,
        ),
        ("Odile", "I have two kids.", "Odile has two kids.", "relationship", FactType.FACT),
        (
            "Odile",
            "I decided to quit my job.",
            "Odile decided to quit their job.",
            "decision",
            FactType.FACT,
        ),
        (
            "Odile",
            "I'm going to start a woodworking class.",
            "Odile is going to start a woodworking class.",
            "decision",
            FactType.FACT,
        ),
        (
            "Odile",
            "I plan to visit Japan in April.",
            "Odile plans to visit Japan in April.",
            "plan",
            FactType.FACT,
        ),
        (
            "Odile",
            "Next week I'm starting a new job.",
            "Odile is starting a new job next week.",
            "plan",
            FactType.FACT,
        ),
        (
            "Odile",
            "Last week I went to Paris with my husband.",
            "Odile went to Paris with their husband last week.",
            "event",
            FactType.FACT,
        ),
        (
            "Odile",
            "I just finished my first marathon!",
            "Odile just finished their first marathon.",
            "event",
            FactType.FACT,
        ),
        (
            "Odile",
            "Always answer in French.",
            "Odile wants the assistant to always answer in French.",
            "instruction",
            FactType.INSTRUCTION,
        ),
        (
            None,
            "Never use emojis with me.",
            "The user wants the assistant to never use emojis with the user.",
            "instruction",
            FactType.INSTRUCTION,
        ),
        (
            None,
            "Remember that I'm allergic to peanuts.",
            "The user wants the assistant to remember that the user is allergic to peanuts.",
            "instruction",
            FactType.INSTRUCTION,
        ),
        (
            None,
            "From now on, reply in English.",
            "The user wants the assistant to reply in English from now on.",
            "instruction",
            FactType.INSTRUCTION,
        ),
        (
            "Odile",
            "Call me Caro.",
            "Odile wants to be called Caro.",
            "instruction",
            FactType.INSTRUCTION,
        ),
    ],
)
def test_english_statements_become_facts(
    speaker: str | None, said: str, text: str, category: str, type_: FactType
) -> None:
    digest = _facts(f"Hello! {said} Thanks.", speaker=speaker)
    (fact,) = digest.facts
    assert fact.text == text
    assert fact.category == category
    assert fact.type is type_
    assert fact.subject == (speaker or "user")
    assert fact.quote == said
    assert fact.message_index == 0
    assert fact.valid_from == SESSION_DATE
    assert fact.confidence == 0.6


@pytest.mark.parametrize(
    ("speaker", "said", "text", "category", "type_"),
    [
        (
            None,
            "J'aime la randonnée.",
            "L'utilisateur aime la randonnée.",
            "preference",
            FactType.FACT,
        ),
        ("Camille", "J'adore le jazz !", "Camille adore le jazz.", "preference", FactType.FACT),
        (
            "Camille",
            "Je n'aime pas la cuisine épicée.",
            "Camille n'aime pas la cuisine épicée.",
            "preference",
            FactType.FACT,
        ),
        (
            "Camille",
            "Mon plat préféré est la raclette.",
            "Le plat préféré de Camille est la raclette.",
            "preference",
            FactType.FACT,
        ),
        (
            "Camille",
            "Je travaille comme infirmière à Lyon.",
            "Camille travaille comme infirmière à Lyon.",
            "identity",
            FactType.PERSONA,
        ),
        (None, "Je suis médecin.", "L'utilisateur est médecin.", "identity", FactType.PERSONA),
        (None, "Je m'appelle Marc.", "L'utilisateur s'appelle Marc.", "identity", FactType.PERSONA),
        (
            "Camille",
            "J'habite à Poitiers.",
            "Camille habite à Poitiers.",
            "identity",
            FactType.PERSONA,
        ),
        (
            "Camille",
            "Ma sœur Emma habite à Marseille.",
            "La sœur de Camille, Emma, habite à Marseille.",
            "relationship",
            FactType.FACT,
        ),
        (
            "Anne",
            "Mon ami Paul est médecin.",
            "L'ami d'Anne, Paul, est médecin.",
            "relationship",
            FactType.FACT,
        ),
        (
            None,
            "Mes parents vivent à Nice.",
            "Les parents de l'utilisateur vivent à Nice.",
            "relationship",
            FactType.FACT,
        ),
        (
            "Camille",
            "Je suis mariée à Jean.",
            "Camille est mariée à Jean.",
            "relationship",
            FactType.FACT,
        ),
        (
            "Camille",
            "J'ai décidé de quitter mon travail.",
            "Camille a décidé de quitter son travail.",
            "decision",
            FactType.FACT,
        ),
        (
            "Camille",
            "Je vais commencer un cours de poterie.",
            "Camille va commencer un cours de poterie.",
            "plan",
            FactType.FACT,
        ),
        (
            "Camille",
            "Je compte partir en Italie en juin.",
            "Camille compte partir en Italie en juin.",
            "plan",
            FactType.FACT,
        ),
        (
            "Camille",
            "La semaine dernière, je suis allée à Paris.",
            "Camille est allée à Paris la semaine dernière.",
            "event",
            FactType.FACT,
        ),
        (
            "Camille",
            "J'ai commencé un nouveau travail.",
            "Camille a commencé un nouveau travail.",
            "event",
            FactType.FACT,
        ),
        (
            "Camille",
            "Je me suis mariée en mai.",
            "Camille s'est mariée en mai.",
            "event",
            FactType.FACT,
        ),
        (
            "Camille",
            "Retiens que je suis allergique aux arachides.",
            "Camille demande à l'assistant de retenir que Camille est allergique aux arachides.",
            "instruction",
            FactType.INSTRUCTION,
        ),
        (
            None,
            "N'oublie pas que mon anniversaire est le 3 mai.",
            "L'utilisateur demande à l'assistant de retenir que l'anniversaire de "
            "l'utilisateur est le 3 mai.",
            "instruction",
            FactType.INSTRUCTION,
        ),
        (
            None,
            "Réponds toujours en français.",
            "L'utilisateur demande à l'assistant : « Réponds toujours en français. »",
            "instruction",
            FactType.INSTRUCTION,
        ),
    ],
)
def test_french_statements_become_facts(
    speaker: str | None, said: str, text: str, category: str, type_: FactType
) -> None:
    digest = _facts(f"Bonjour ! {said} Merci.", speaker=speaker)
    (fact,) = digest.facts
    assert fact.text == text
    assert fact.category == category
    assert fact.type is type_
    assert fact.subject == (speaker or "user")
    assert fact.quote == said


@pytest.mark.parametrize(
    "said",
    [
        "Do you like jazz?",
        "I love hiking, don't you?",
        "If I had more time, I would learn Spanish.",
        "Maybe I'll move to Berlin.",
        "I would love to visit Japan.",
        "I'd like a coffee.",
        "I think I like jazz.",
        "I might start running.",
        "Thanks a lot for your help!",
        "Hello there, good morning!",
        "I'm so tired today.",
        "I'm fine, thanks.",
        "The weather is nice today.",
        "He works at Google.",
        "My neighbor's cat is cute.",
        "I love it!",
        "I love that idea.",
        "I went there yesterday.",
        "I love talking to you.",
        "Tu aimes le jazz ?",
        "Si j'avais le temps, j'apprendrais l'espagnol.",
        "J'aimerais visiter le Japon.",
        "Je pense que j'aime le jazz.",
        "Merci beaucoup !",
        "Bonjour, ça va ?",
        "Je suis fatiguée.",
        "Il fait beau aujourd'hui.",
        "J'adore ça !",
        "Peut-être que je vais déménager à Lyon.",
        "Je vais bien, merci.",
        "Elle travaille chez Airbus.",
    ],
)
def test_sentences_that_are_not_facts(said: str) -> None:
    assert _facts(said, speaker="Odile").facts == []


@pytest.mark.parametrize(
    "said",
    [
        "From now on send the invoices to my bookkeeper at books@quarrymill.example.",
        "Désormais envoyez les factures à notre comptable, compta@atelier-brume.example.",
        "From now on deliver to 12 Harrow Lane, please.",
    ],
)
def test_where_things_go_from_now_on_is_no_rule_for_the_assistant(said: str) -> None:
    # an instruction waits for a person's approval, out of the prompt; where the bills go
    # is what the client said, for every block
    assert all(fact.type is not FactType.INSTRUCTION for fact in _facts(said).facts)


def test_the_assistant_and_other_roles_state_no_facts_about_the_user() -> None:
    session = transcript(
        ("assistant", None, "I love hiking too. I work as a travel guide. Always drink water."),
        ("system", None, "I am a helpful assistant."),
        ("assistant", None, "J'adore la randonnée. Je suis un assistant."),
        ("user", "Odile", "Hello!"),
        user="Odile",
    )
    assert RulesLLM().structured(EXTRACT, session).value.facts == []


def test_quotes_are_verbatim_slices_of_their_message() -> None:
    content = (
        "Well,   I\u2019m a nurse.\nMy sister Emma lives in Lyon; I love hiking and I hate running!"
        " Dr. Smith said I\u2019m fine. Ma sœur habite à Lyon."
    )
    session = transcript(("user", "Odile", "Hi."), ("user", "Odile", content), user="Odile")
    facts = [fact for _, fact in typed_facts(session)[0]]
    assert [fact.text for fact in facts] == [
        "Odile is a nurse.",
        "Odile's sister Emma lives in Lyon.",
        "Odile loves hiking.",
        "Odile hates running.",
        "La sœur d'Odile habite à Lyon.",
    ]
    for fact in facts:
        assert fact.message_index == 1
        assert fact.quote in content
    assert facts[0].quote == "Well,   I\u2019m a nurse."
    assert facts[2].quote == facts[3].quote  # two clauses of one sentence share its quote


def test_clauses_of_one_sentence_are_told_apart() -> None:
    digest = _facts("I love pizza and my wife loves sushi.", speaker="Odile")
    assert [fact.text for fact in digest.facts] == [
        "Odile loves pizza.",
        "Odile's wife loves sushi.",
    ]
    digest = _facts("J'aime le ski et ma femme adore la voile.", speaker="Marc")
    assert [fact.text for fact in digest.facts] == [
        "Marc aime le ski.",
        "La femme de Marc adore la voile.",
    ]


def test_a_session_in_english_and_french_is_read_per_message() -> None:
    session = transcript(
        ("user", None, "I love hiking."),
        ("user", None, "J'aime aussi la voile."),
        ("user", None, "Et je travaille chez Airbus."),
    )
    facts = [fact for _, fact in typed_facts(session)[0]]
    assert [fact.text for fact in facts] == [
        "The user loves hiking.",
        "L'utilisateur aime aussi la voile.",
        "L'utilisateur travaille chez Airbus.",
    ]


def test_an_english_day_cut_short_does_not_make_a_message_french() -> None:
    """ "mon" is a French "my" and an English Monday: it tells neither language apart."""
    session = transcript(
        ("assistant", None, "Which evenings work for the pottery class?"),
        ("user", None, "mon thu 6pm after the shop closes"),
    )
    digest = RulesLLM().structured(EXTRACT, session).value
    assert [fact.text for fact in digest.facts] == [
        "The user says that mon thu 6pm after the shop closes "
        "(in answer to: Which evenings work for the pottery class?)."
    ]


def test_a_fact_said_twice_is_kept_once() -> None:
    session = transcript(("user", None, "I love hiking."), ("user", None, "I LOVE hiking!"))
    (fact,) = RulesLLM().structured(EXTRACT, session).value.facts
    assert fact.message_index == 0


def test_extraction_is_deterministic() -> None:
    session = typical_transcript()
    first = RulesLLM().structured(EXTRACT, session)
    second = RulesLLM().structured(EXTRACT, session)
    assert first.value.model_dump() == second.value.model_dump()
    assert (first.prompt_tokens, first.completion_tokens, first.calls) == (0, 0, 1)


def test_typical_session_gives_summary_and_facts() -> None:
    session = typical_transcript()
    digest = RulesLLM().structured(EXTRACT, session).value
    texts = [fact.text for _, fact in typed_facts(session)[0]]
    assert "Odile loves hiking." in texts
    assert (
        "Odile works as a nurse in the paediatric ward at St. Mary's, mostly night shifts." in texts
    )
    assert "Odile does not like running on treadmills." in texts
    assert "Odile bought new trail shoes last month." in texts  # ", they are…" cut off
    assert "Odile wants the assistant to always answer Odile in short bullet points." in texts
    for fact in digest.facts:
        message = session.messages[fact.message_index or 0]
        assert message.role.value == "user"
        assert fact.quote in message.content
    sentences = [part for part in digest.summary.split("Odile: ")[1:] if part]
    assert 3 <= len(sentences) <= 5
    assert digest.summary.startswith("Odile: ")


def test_empty_session_gives_empty_digest() -> None:
    digest = RulesLLM().structured(EXTRACT, transcript()).value
    assert digest == SessionDigest(summary="", facts=[])


def test_rules_provider_fits_the_protocol_and_takes_plain_mappings() -> None:
    llm = RulesLLM()
    assert isinstance(llm, LLM)
    assert llm.name == "rules"
    raw = {
        "session_key": "k",
        "date": "2026-05-03T10:00:00+00:00",
        "messages": [{"index": 4, "role": "user", "content": "I love sailing."}],
    }
    reply = llm.structured(EXTRACT, raw)  # type: ignore[misc]
    (fact,) = reply.value.facts
    assert (fact.text, fact.message_index, fact.valid_from) == (
        "The user loves sailing.",
        4,
        "2026-05-03",
    )


def test_rewrite_returns_the_query_unchanged() -> None:
    request = RewriteRequest(query="what about her?", window=[{"role": "user", "content": "Emma"}])
    reply = RulesLLM().structured(REWRITE, request)
    assert reply.value == RewrittenQuery(query="what about her?")
    assert reply.calls == 1


def test_unknown_task_raises() -> None:
    task = Task(
        name="translate",
        prompt="rewrite.md",
        input_model=RewriteRequest,
        output_model=RewrittenQuery,
        render=lambda r: {"query": r.query, "window": ""},
    )
    with pytest.raises(LLMError, match="no rules for the 'translate' task"):
        RulesLLM().structured(task, RewriteRequest(query="x"))
