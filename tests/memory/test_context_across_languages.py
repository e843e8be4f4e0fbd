"""A question asked in one language reaches the facts written in the other, with an embedder
that matches meaning across languages, while an unrelated question still brings none."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from somna import Memory, Settings
from somna.embed import BundledEmbedder, crosses_languages, languages_read
from somna.embed.cache import CachedEmbedder
from somna.embed.multilingual import MultilingualEmbedder

FACTS = [
    "The user keeps four beehives on the roof of the print shop.",
    "The user's invoices go to the accounts office on the first floor.",
    "The user wants the honey in small 125 g jars.",
    "The user's caretaker, Odilon Verhaeren, holds the roof key.",
    "The user plays squash on Thursday evenings.",
    "The user asked for a workshop for twelve staff in spring.",
    "The user's van is parked in the back yard.",
    "The user prefers to be called after 5 pm.",
]
KEY = "Qui a la clé du toit ?"


@pytest.fixture(scope="module")
def multilingual() -> MultilingualEmbedder:
    return MultilingualEmbedder()


def _memory(
    embedder: MultilingualEmbedder, floor_across: float, facts: list[str] = FACTS
) -> Memory:
    settings = Settings(db=":memory:", embedder="multilingual", context_floor_across=floor_across)
    memory = Memory(embedder=embedder, settings=settings)
    memory.create_profile("roofs")
    for fact in facts:
        memory.add_fact("roofs", fact)
    return memory


@pytest.fixture
def memory(multilingual: MultilingualEmbedder) -> Iterator[Memory]:
    with _memory(multilingual, Settings().context_floor_across) as memory:
        yield memory


def test_a_french_question_brings_the_english_fact_that_answers_it(memory: Memory) -> None:
    assert "Odilon Verhaeren, holds the roof key" in memory.context("roofs", KEY)


UP_TOP = "The user's caretaker, Odilon Verhaeren, lets visitors up onto the rooftop."
"""A fact that shares no word with "Qui nous ouvre le toit ?", in either language."""


@pytest.mark.parametrize(
    ("floor", "found"), [(Settings().context_floor_across, True), (Settings().context_floor, False)]
)
def test_the_lower_floor_is_what_lets_a_fact_through_by_meaning_alone(
    multilingual: MultilingualEmbedder, floor: float, found: bool
) -> None:
    """At the floor a question in the fact's own language needs, an English fact that no
    word of the French question finds, even read in English, is too far from it."""
    facts = [UP_TOP if "roof key" in fact else fact for fact in FACTS]
    with _memory(multilingual, floor, facts) as memory:
        assert ("rooftop" in memory.context("roofs", "Qui nous ouvre le toit ?")) is found


def test_an_unrelated_question_in_the_other_language_brings_no_fact(memory: Memory) -> None:
    for question in ("Quelle est la capitale du Pérou ?", "Combien de temps cuire un œuf dur ?"):
        assert "The user" not in memory.context("roofs", question)


def test_only_an_embedder_that_crosses_languages_says_so(
    multilingual: MultilingualEmbedder, embedder: BundledEmbedder
) -> None:
    assert crosses_languages(multilingual) and crosses_languages(CachedEmbedder(multilingual))
    assert not crosses_languages(embedder) and not crosses_languages(CachedEmbedder(embedder))


def test_the_bundled_embedder_says_it_reads_english_and_the_multilingual_one_any_language(
    multilingual: MultilingualEmbedder, embedder: BundledEmbedder
) -> None:
    assert languages_read(embedder) == languages_read(CachedEmbedder(embedder)) == {"en"}
    assert languages_read(multilingual) is None
    assert languages_read(CachedEmbedder(multilingual)) is None
