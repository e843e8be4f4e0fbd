"""A question that points at a person asks about the client, in English and French."""

from __future__ import annotations

import pytest

from somna.ranking.persons import points_at_someone


@pytest.mark.parametrize(
    "question",
    [
        "When is his fitting?",
        "Did she settle the invoice?",
        "Is any storage included for the client?",
        "Elle a fixé une limite de prix ?",
        "Quelle est son adresse ?",
        "On leur envoie le colis où ?",
        # one of the client's, by what they are to them, or a title before a name
        "Quel est le numéro du père ?",
        "How is the old gentleman getting on?",
        "Quels travaux veut faire M. Aubertin ?",
        "Is Mrs Hale still on the early shift?",
        # the client's animals, what they have with the business
        "Ils rentrent quand, les chiens ?",
        "When's the next appointment?",
        "Le devis part quand ?",
    ],
)
def test_a_question_about_someone(question: str) -> None:
    assert points_at_someone(question)


@pytest.mark.parametrize(
    "question",
    [
        "Why is the sea salty?",
        "Why do they salt the roads in winter?",
        "Pourquoi la mer est-elle salée ?",
        "Quel temps fera-t-il demain ?",
        "Est-ce qu'il faut un visa pour le Canada ?",
        "Where does the shepherd keep the sheep?",
        "Les petites annonces paraissent quand ?",
    ],
)
def test_a_question_about_the_world(question: str) -> None:
    assert not points_at_someone(question)
