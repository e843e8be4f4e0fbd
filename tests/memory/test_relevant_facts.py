"""Which recalled facts reach the prompt: those that bear on the question, and, for a
question about the client, the next ones near it up to a block worth reading."""

from __future__ import annotations

from datetime import UTC, datetime

from somna import Settings
from somna.memory.results import Recalled
from somna.memory.retrieval import relevant_facts
from somna.model import Fact, RecalledKind

_NOW = datetime(2026, 5, 3, tzinfo=UTC)


def _recalled(text: str, **signals: float) -> Recalled:
    fact = Fact(profile_id="ines", text=text, recorded_at=_NOW, valid_from=_NOW)
    return Recalled(RecalledKind.FACT, text, 0.0, signals, _NOW, _NOW, fact=fact)


def _texts(recalled: list[Recalled]) -> list[str]:
    return [fact.text for fact in relevant_facts(recalled, Settings(context_floor=0.2))]


def test_a_question_one_fact_bears_on_gets_the_next_facts_near_it_in_rank_order() -> None:
    """ "What does she do on weekends?" bears on her club; "Sunday mornings" never says
    "weekend", yet stands near: the block holds four."""
    recalled = [
        _recalled("Plays in a darts club.", cosine_gap=0.25),
        _recalled("Cycles on Sunday mornings.", cosine_gap=0.15),
        _recalled("Lives in Bath.", cosine_gap=0.12),
        _recalled("Works in logistics.", cosine_gap=0.11),
        _recalled("Has a budget of 3,000 euros.", cosine_gap=0.10),
        _recalled("Is allergic to hazelnuts.", cosine_gap=0.05),
    ]
    assert _texts(recalled) == [
        "Plays in a darts club.",
        "Cycles on Sunday mornings.",
        "Lives in Bath.",
        "Works in logistics.",
    ]


def test_facts_far_below_the_floor_do_not_fill_a_block() -> None:
    recalled = [
        _recalled("Plays in a darts club.", cosine_gap=0.25),
        _recalled("Is allergic to hazelnuts.", cosine_gap=0.05),
    ]
    assert _texts(recalled) == ["Plays in a darts club."]


def test_a_question_no_fact_bears_on_brings_none() -> None:
    recalled = [
        _recalled("Cycles on Sunday mornings.", cosine_gap=0.15),
        _recalled("Lives in Bath.", cosine_gap=0.12),
    ]
    assert _texts(recalled) == []
