"""The context block keeps to the few facts that matter: at most `context_facts`, each bearing
on the question (a topic it asks about, or closeness above the question's background), none
faded away; an unrelated question brings no fact at all."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from somna import Memory
from somna.config import Settings
from somna.embed import BundledEmbedder, OpenAIEmbedder
from somna.ranking import HEADER
from somna.store import Store
from tests.memory.test_degraded import dead_url
from tests.support import Clock

FACTS = [
    "Lives in a flat near the old harbour in Porto.",
    "Works as a structural engineer on bridges.",
    "Plays the cello in an amateur orchestra.",
    "Is learning Japanese on weekday evenings.",
    "Drives an old green hatchback.",
    "Has a younger brother who studies geology.",
    "Prefers window seats on long flights.",
    "Runs a half marathon every autumn.",
    "Is allergic to penicillin.",
    "Collects vintage fountain pens.",
    "Volunteers at the public library on Saturdays.",
    "Dislikes crowded shopping centres.",
    "Takes the tram to work.",
    "Grew up in a village in the mountains.",
    "Keeps a vegetable garden on the balcony.",
    "Reads detective novels before sleeping.",
    "Studied civil engineering in Lisbon.",
    "Prefers tea to coffee in the morning.",
    "Is saving money for a sailing boat.",
    "Wears glasses for reading.",
    "Speaks Portuguese, English and some French.",
    "Has a season ticket for the local football club.",
]


@pytest.fixture
def odile(store: Store, embedder: BundledEmbedder, clock: Clock) -> Iterator[Memory]:
    memory = Memory(store=store, embedder=embedder, settings=Settings(), clock=clock)
    memory.create_profile("odile")
    for text in FACTS:
        memory.add_fact("odile", text)
    yield memory
    memory.flush()


def _facts(block: str) -> list[str]:
    lines = block.splitlines()
    return lines[lines.index(HEADER) + 1 :] if HEADER in lines else []


def test_an_unrelated_question_brings_no_fact(odile: Memory) -> None:
    assert _facts(odile.context("odile", "what pet food should I buy?")) == []


def test_a_related_question_brings_at_most_five_facts_the_closest_first(odile: Memory) -> None:
    facts = _facts(odile.context("odile", "what does she do for work as an engineer?"))
    assert 1 <= len(facts) <= 5
    assert "Works as a structural engineer on bridges." in facts[0]


def test_the_number_of_facts_is_a_setting(
    store: Store, embedder: BundledEmbedder, clock: Clock, odile: Memory
) -> None:
    narrow = Memory(store=store, embedder=embedder, settings=Settings(context_facts=1), clock=clock)
    assert len(_facts(narrow.context("odile", "engineering studies and bridges"))) == 1
    assert len(_facts(odile.context("odile", "engineering studies and bridges", k=3))) <= 3


def test_a_faded_fact_leaves_the_block_but_stays_searchable(odile: Memory, clock: Clock) -> None:
    question = "is she allergic to any medicine?"
    assert any("penicillin" in line for line in _facts(odile.context("odile", question)))
    clock.advance(days=600)  # recalled once, then never: exp(-600 / (2 * 90)), under 0.05
    odile.consolidate("odile", now=clock.now)
    [fact] = [f for f in odile.list_facts("odile", limit=100) if "penicillin" in f.text]
    assert fact.strength < odile.settings.context_strength_floor
    assert not any("penicillin" in line for line in _facts(odile.context("odile", question)))
    assert odile.search("odile", "penicillin allergy", k=1)[0].fact.text == fact.text


def test_a_word_every_observation_is_told_in_brings_no_fact(memory: Memory) -> None:
    memory.create_profile("remi")
    memory.add_fact("remi", "L'utilisateur dit que son fourgon dort dans un garage fermé.")
    memory.add_fact("remi", "L'utilisateur dit que le chantier de la piscine démarre en mai.")
    memory.add_fact("remi", "L'utilisateur dit que sa femme tient la comptabilité.")
    assert _facts(memory.context("remi", "Comment dit-on merci en italien ?")) == []


def test_standing_instructions_come_with_any_question(odile: Memory) -> None:
    odile.add_fact("odile", "Always answer in French.", type="instruction", verified=True)
    block = odile.context("odile", "what pet food should I buy?")
    assert _facts(block) == [f"- [{odile.now().date().isoformat()}] Always answer in French."]


@pytest.fixture
def client(store: Store, embedder: BundledEmbedder, clock: Clock) -> Iterator[Memory]:
    """A small client profile, the size a chat agent's client has after a few sessions."""
    memory = Memory(store=store, embedder=embedder, settings=Settings(), clock=clock)
    memory.create_profile("ines")
    for text in [
        "The user is Ines Varga, head of logistics at Corvell Freight.",
        "The user prefers to be contacted by email and never by phone.",
        "The user is vegetarian.",
        "The user is allergic to hazelnuts.",
        "The user's office is at 4 Quayside Road in Exeter.",
        "The user's team has a budget of 3,000 euros per month.",
        "The user plays chess online on Sunday mornings.",
    ]:
        memory.add_fact("ines", text)
    yield memory
    memory.flush()


def test_a_question_about_reaching_someone_brings_their_contact_preference(
    client: Memory,
) -> None:
    facts = _facts(client.context("ines", "How should I get in touch with Ines?"))
    assert any("email" in line for line in facts)


def test_a_cooking_question_brings_the_diet_and_the_allergy(client: Memory) -> None:
    facts = _facts(client.context("ines", "What should I cook for her on Friday?"))
    assert any("vegetarian" in line for line in facts)
    assert any("hazelnuts" in line for line in facts)
    assert len(facts) <= 5


@pytest.mark.parametrize(
    ("answer", "other", "question"),
    [
        # a food commonly ruled out, for dietary needs
        (
            "For the team dinner: no alcohol at the table, several guests abstain.",
            "The team dinner is at the riverside hall on the 12th.",
            "Any dietary needs I should know about?",
        ),
        # an ingredient to leave out, asked about in French
        (
            "The user says that the groom's father is allergic to sesame.",
            "The user says that the reception starts at 7pm in the orangery.",
            "Y a-t-il un ingrédient interdit ?",
        ),
        # an allergy, asked about as such
        (
            "The user says that just so you know, the user is allergic to latex.",
            "The user says that late afternoon, after 4pm, the user works in town.",
            "Does the patient have any allergies?",
        ),
        # a number written short, asked for as whom to call
        (
            "L'utilisateur dit que sa voisine Ombeline ouvrira, son num : 06 41 20 77 58.",
            "L'utilisateur dit que le portail du fond grince un peu.",
            "Qui appeler le jour de la livraison ?",
        ),
        # a diet among a group, asked in French in the plural
        (
            "L'utilisateur dit que pour le séjour, Basile Ondet est cœliaque, sans gluten strict.",
            "L'utilisateur dit que le car part de la mairie à 8h.",
            "Des régimes particuliers pour le groupe ?",
        ),
        # how the client pays, asked in French
        (
            "L'utilisateur a choisi le prélèvement mensuel pour l'atelier.",
            "L'utilisateur garde son fourgon dans un garage fermé.",
            "Comment est-il facturé ?",
        ),
        # how many will come, asked in French over an English fact
        (
            "The user says that in the end 64 guests are coming to the launch.",
            "The launch is in the old tram depot near the station.",
            "Combien de personnes pour le lancement ?",
        ),
    ],
)
def test_a_topic_question_brings_the_fact_that_names_it(
    memory: Memory, answer: str, other: str, question: str
) -> None:
    memory.create_profile("remi")
    memory.add_fact("remi", answer)
    memory.add_fact("remi", other)
    facts = _facts(memory.context("remi", question))
    assert answer in facts[0]


@pytest.mark.parametrize(
    ("profile", "question", "answer"),
    [
        # the newer day shares no word with the question and little of its sense
        (
            [
                "The user is Noa Lindqvist, 2 Mill Row, Derby.",
                "The user's partner is moving in, so we'll need the family crate going forward.",
                "The user says that we're away from 3 to 17 July, please pause the deliveries.",
                "Mondays are tricky now that the user is back at the studio; the user asks to "
                "make it Wednesdays.",
                "The user says that please leave the crate by the shed if nobody answers.",
                "The user says the sourdough in the last crate was lovely.",
            ],
            "What day does Noa's crate arrive?",
            "Wednesdays",
        ),
        # "inauguration" and "fête d'ouverture" share no word
        (
            [
                "L'utilisateur est Noa Moreau, boulanger à Derby.",
                "L'utilisateur dit que la fête d'ouverture est le 14 mars, avec un buffet.",
                "L'utilisateur préfère un appel avant midi.",
                "L'utilisateur dit que la commande de farine est de 40 kilos par semaine.",
                "L'utilisateur demande de laisser la clé du fourgon sous le paillasson.",
            ],
            "Quand a lieu l'inauguration chez Noa ?",
            "14 mars",
        ),
        # "every other week" answers "how often", among many facts about the box
        (
            [
                "The user is Noa Lindqvist, a box customer at 2 Mill Row, Derby.",
                "The user says the box should be left by the shed.",
                "The user's last box had bruised apples in it.",
                "The user wants no mushrooms in the box.",
                "The user pays for the box by card.",
                "The user likes the recipe card that comes in the box.",
                "The user asks for an extra box at Christmas.",
                "The user's children love the fruit in the box.",
                "The user says that we eat less now; the user asks to switch to every other week.",
            ],
            "How often does Noa's box come?",
            "every other week",
        ),
        # the key is "the spare one"
        (
            [
                "The user is Noa Lindqvist, 2 Mill Row, Derby.",
                "The user would like a cleaner for the flat, every other Monday.",
                "The user says the hall gets muddy with the dog in winter.",
                "The user says that the spare one is now in a lockbox by the bins, code 3318.",
                "The user says only eco-friendly products, please.",
                "The user says the sourdough in the last crate was lovely.",
            ],
            "How do we get into Noa's flat?",
            "lockbox",
        ),
    ],
)
def test_a_question_on_a_topic_that_only_fills_brings_the_fact_that_names_it(
    memory: Memory, profile: list[str], question: str, answer: str
) -> None:
    """A weekday for "which day…?", a month for "when…?", a key or a code for "how do we get
    in?": the facts that name the client say the question is about this client."""
    memory.create_profile("noa")
    for text in profile:
        memory.add_fact("noa", text)
    assert any(answer in line for line in _facts(memory.context("noa", question)))


def test_a_question_asking_which_day_of_nothing_of_the_client_brings_no_fact(
    client: Memory,
) -> None:
    assert _facts(client.context("ines", "What day is the winter solstice this year?")) == []


@pytest.mark.parametrize(
    "question",
    ["Comment la joindre ?", "On a du retard, comment je la préviens ?", "Je la rappelle quand ?"],
)
def test_a_french_question_about_contact_brings_the_contact_preference(
    client: Memory, question: str
) -> None:
    facts = _facts(client.context("ines", question))
    assert any("email" in line for line in facts)


CELLAR = [
    "The user is Ysmay Corrigall, she runs the Tollgate Cellar wine bar.",
    "The user says that the invoices go to accounts@tollgatecellar.example.",
    "The user says that deliveries go to the side gate on Pellow Street, never the front.",
    "The user says that the bar is closed on Mondays.",
    "The user would like six cases of the house red every fortnight.",
    "The user's budget is 900 pounds a month.",
    "The user says that the cellar stairs are steep, so no kegs over 30 litres.",
    "The user's head chef is allergic to shellfish.",
    "The user wants the quiz night posters printed in A3.",
    "The user says that the jukebox broke again last week.",
    "The user plans a tasting evening for 40 guests in the spring.",
    "The user's sommelier prefers dry whites from the Loire.",
    "The user says that parking outside is free after 6pm.",
    "The user says that the terrace heaters run on propane.",
]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Elle veut combien de caisses de rouge ?", "six cases"),
        ("Les escaliers de la cave sont comment ?", "stairs are steep"),
        ("Les affiches, on les imprime en quel format ?", "posters"),
        ("Le stationnement devant, c'est gratuit ?", "parking"),
    ],
)
def test_a_french_question_finds_an_english_fact_by_its_words_in_english(
    memory: Memory, question: str, answer: str
) -> None:
    """The bundled embedder matches no French to English, and no word is shared: the
    question's words, read in English (`glossary.toml`), find the fact."""
    memory.create_profile("ysmay")
    for text in CELLAR:
        memory.add_fact("ysmay", text)
    assert any(answer in line for line in _facts(memory.context("ysmay", question)))


@pytest.mark.parametrize(
    "question",
    [
        "How many legs does a spider have?",
        "What is the boiling point of water at altitude?",
        "Comment s'appelle la femelle du renard ?",  # a name asked, no call
    ],
)
def test_unrelated_questions_bring_no_fact_from_a_small_profile(
    client: Memory, question: str
) -> None:
    assert _facts(client.context("ines", question)) == []


def test_a_question_pointing_at_the_client_brings_what_is_known_of_them(client: Memory) -> None:
    """Nothing stands near "anything I should know before I see her?" in meaning."""
    facts = _facts(client.context("ines", "Anything I should know before I see her?"))
    assert 3 <= len(facts) <= 5


def test_only_the_facts_in_the_block_are_reinforced(client: Memory) -> None:
    block = "\n".join(_facts(client.context("ines", "How should I get in touch with Ines?")))
    client.flush()
    used = {f.text: f.recall_count for f in client.list_facts("ines", limit=100)}
    assert used["The user prefers to be contacted by email and never by phone."] == 1
    left_out = [text for text in used if text not in block]
    assert left_out
    assert all(used[text] == (0 if text in left_out else 1) for text in used)


def test_a_client_back_after_half_a_year_of_silence_finds_their_facts(
    odile: Memory, clock: Clock
) -> None:
    """A client of a seasonal business comes back in the autumn: what they said in spring,
    never asked for since, has faded (exp(-180 / 90) = 0.14) but not out of the block."""
    clock.advance(days=180)
    odile.consolidate("odile", now=clock.now)
    [fact] = [f for f in odile.list_facts("odile", limit=100) if "penicillin" in f.text]
    assert odile.settings.context_strength_floor < fact.strength < 0.2
    question = "is she allergic to any medicine?"
    assert any("penicillin" in line for line in _facts(odile.context("odile", question)))


def test_a_faded_fact_left_out_of_the_block_is_not_reinforced(odile: Memory, clock: Clock) -> None:
    question = "is she allergic to any medicine?"
    clock.advance(days=400)
    odile.consolidate("odile", now=clock.now)
    before = next(f for f in odile.list_facts("odile", limit=100) if "penicillin" in f.text)
    assert not any("penicillin" in line for line in _facts(odile.context("odile", question)))
    odile.flush()
    after = odile.get("odile", before.id)
    assert (after.recall_count, after.strength) == (before.recall_count, before.strength)
    assert not any("penicillin" in line for line in _facts(odile.context("odile", question)))


def test_with_the_embedder_down_the_block_comes_from_full_text_and_says_so(
    client: Memory, embedder: BundledEmbedder
) -> None:
    down = OpenAIEmbedder("any", base_url=dead_url(), dim=embedder.dim, max_retries=0)
    m = Memory(store=client.store, embedder=down, settings=Settings(), clock=client._clock)
    block = m.context("ines", "Which budget does the team have?")
    assert any("3,000 euros" in line for line in _facts(block))
    assert block.degraded and "full text" in block.degraded[0]
    m.flush()


def test_an_open_contradiction_the_question_touches_is_shown_with_both_sides_marked(
    client: Memory,
) -> None:
    hazelnuts = next(f for f in client.list_facts("ines") if "hazelnuts" in f.text)
    cake = client.add_fact("ines", "The user ordered the hazelnut praline cake for Friday.")
    client.resolve("ines", cake.fact.id, hazelnuts.id, "contradicts")
    facts = _facts(client.context("ines", "What should I cook for her on Friday?"))
    marked = [line for line in facts if "(disputed" in line]
    assert len(marked) == 2 and any("allergic to hazelnuts" in line for line in marked)
    assert _facts(client.context("ines", "How many legs does a spider have?")) == []


def test_a_question_touching_an_open_contradiction_is_about_the_client(client: Memory) -> None:
    """ "Which cake is ordered?" points at no one and stands near nothing in particular, but
    it touches the contradiction the client left: what is known of them comes with it."""
    hazelnuts = next(f for f in client.list_facts("ines") if "hazelnuts" in f.text)
    cake = client.add_fact("ines", "The user ordered the hazelnut praline cake for Friday.")
    client.resolve("ines", cake.fact.id, hazelnuts.id, "contradicts")
    facts = _facts(client.context("ines", "Which praline cake is ordered?"))
    assert len([line for line in facts if "(disputed" not in line]) >= 3
