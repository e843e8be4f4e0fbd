"""The multilingual embedder: French and English meet by meaning, offline, from pinned files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from somna.embed import create_embedder
from somna.embed.cache import CachedEmbedder
from somna.embed.multilingual import DIM, NAME, MultilingualEmbedder
from somna.errors import ConfigurationError, EmbeddingError, InvalidInputError

PAIRS = [  # a stored fact, and a question about it in the other language
    ("L'utilisateur est allergique aux arachides.", "Does the user have any allergies?"),
    ("Le client a choisi le forfait annuel.", "Which plan did the client choose?"),
    ("Her cat is called Pistache.", "Comment s'appelle son chat ?"),
    ("Elle préfère être contactée par courriel.", "How does she want to be contacted?"),
    ("Drinks green tea every morning.", "Que boit-elle le matin ?"),
    ("Owns a vintage motorbike.", "Quel véhicule possède-t-il ?"),
]


@pytest.fixture(scope="module")
def multilingual() -> MultilingualEmbedder:
    return MultilingualEmbedder()


def test_a_question_in_one_language_finds_its_fact_in_the_other(
    multilingual: MultilingualEmbedder,
) -> None:
    facts = multilingual.embed([fact for fact, _ in PAIRS])
    questions = multilingual.embed_queries([question for _, question in PAIRS])
    best = (questions @ facts.T).argmax(axis=1)
    assert best.tolist() == list(range(len(PAIRS)))


def test_a_paraphrase_is_a_neighbour_and_an_unrelated_fact_is_far(
    multilingual: MultilingualEmbedder,
) -> None:
    tea, tea_again, bees = multilingual.embed(
        ["Prefers tea to coffee.", "Likes drinking tea more than coffee.", "Repairs old clocks."]
    )
    assert tea @ tea_again > 0.8  # the default neighbor_floor
    assert tea @ bees < 0.4


def test_vectors_are_unit_rows_and_the_same_text_gives_the_same_vector(
    multilingual: MultilingualEmbedder,
) -> None:
    rows = multilingual.embed(["Plays the cello.", "Joue du violoncelle.", "Plays the cello."])
    assert rows.shape == (3, DIM) and rows.dtype == np.float32
    assert np.allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(rows[0], rows[2])
    assert multilingual.embed([]).shape == (0, DIM)
    assert (multilingual.name, multilingual.dim) == (NAME, DIM)


def test_bad_input_is_refused_with_a_sentence(multilingual: MultilingualEmbedder) -> None:
    with pytest.raises(InvalidInputError, match="not one string"):
        multilingual.embed("Plays the cello.")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="must be a string"):
        multilingual.embed(["fine", 3])  # type: ignore[list-item]


def test_a_model_file_other_than_the_pinned_one_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "e5-small-q4.bin"
    fake.write_bytes(b"not the model")
    with pytest.raises(EmbeddingError, match="not the expected one"):
        MultilingualEmbedder(model_path=fake).embed(["Plays the cello."])


def test_the_factory_builds_it_and_refuses_contradicting_settings() -> None:
    assert isinstance(create_embedder("multilingual"), MultilingualEmbedder)
    assert isinstance(create_embedder("multilingual", model=NAME, dim=DIM), MultilingualEmbedder)
    with pytest.raises(ConfigurationError, match="runs multilingual-e5-small"):
        create_embedder("multilingual", model="text-embedding-3-small")
    with pytest.raises(ConfigurationError, match="384-dimensional"):
        create_embedder("multilingual", dim=768)


def test_the_query_cache_embeds_questions_as_queries(multilingual: MultilingualEmbedder) -> None:
    cached = CachedEmbedder(multilingual)
    question = "Que boit-elle le matin ?"
    assert np.allclose(cached.embed([question]), multilingual.embed_queries([question]))
    assert not np.allclose(cached.embed([question]), multilingual.embed([question]))
