"""The context block keeps to the few facts that matter: at most `context_facts`, each close
enough to the question, none faded away; an unrelated question brings no fact at all."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from somna import Memory
from somna.config import Settings
from somna.embed import BundledEmbedder
from somna.ranking import HEADER
from somna.store import Store
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
    clock.advance(days=400)  # never recalled since: strength exp(-400 / 30), far under 0.05
    odile.consolidate("odile", now=clock.now)
    [fact] = [f for f in odile.list_facts("odile", limit=100) if "penicillin" in f.text]
    assert fact.strength < odile.settings.context_strength_floor
    assert not any("penicillin" in line for line in _facts(odile.context("odile", question)))
    assert odile.search("odile", "penicillin allergy", k=1)[0].fact.text == fact.text


def test_standing_instructions_come_with_any_question(odile: Memory) -> None:
    odile.add_fact("odile", "Always answer in French.", type="instruction", verified=True)
    block = odile.context("odile", "what pet food should I buy?")
    assert _facts(block) == [f"- [{odile.now().date().isoformat()}] Always answer in French."]
