"""The ranking functions, as pure functions: fusion, weights, the prompt block."""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime, timedelta
from importlib import resources

import pytest

from somna.model import Fact, FactStatus
from somna.ranking import (
    HEADER,
    Weights,
    asked_value,
    blend,
    count_tokens,
    fact_line,
    filler_words,
    keywords,
    question_words,
    recency,
    render_context,
    rrf,
    topic_words,
    translated_words,
)

MAY_3 = datetime(2026, 5, 3, 9, 0, tzinfo=UTC)


def fact(text: str, status: FactStatus = FactStatus.VERIFIED) -> Fact:
    return Fact(profile_id="alice", text=text, status=status, valid_from=MAY_3)


def test_an_item_ranked_in_two_lists_beats_one_ranked_first_in_a_single_list() -> None:
    fused = rrf([["tea", "coffee"], ["coffee", "juice"]], k=60)
    assert [item for item, _ in fused] == ["coffee", "tea", "juice"]
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61)


def test_ties_are_broken_by_id_so_the_order_never_depends_on_the_input_order() -> None:
    assert rrf([["b"], ["a"]]) == rrf([["a"], ["b"]]) == [("a", 1 / 61), ("b", 1 / 61)]
    assert rrf([]) == []


def test_keywords_drop_stop_words_of_both_languages_and_repeat_no_word() -> None:
    assert keywords("Where does she work? Her work is in Hull.") == ["work", "hull"]
    assert keywords("Quel est le métier de Léa ?") == ["métier", "léa"]
    assert keywords("what is it?") == []


def test_keywords_drop_the_words_any_question_is_asked_with() -> None:
    # "the best way": a contact answer's question is no recipe's answer
    assert keywords("What's the best way to clean linen?") == ["clean", "linen"]
    assert keywords("Any good bread in town, please?") == ["bread", "town"]
    # "away" shared by chance ("while she is away") tells of no topic; "recommend" and
    # "see" may ("What book did she recommend?"), and stay
    assert keywords("Can you suggest a quick walk not far away?") == ["walk"]
    # nor the words of praise and length any reply may hold ("bring the long one", "well
    # over a year"); "great" stays ("What has running been great for?")
    assert keywords("A nice stretch after a long drive, one that works well?") == [
        "stretch",
        "drive",
        "one",
        "works",
    ]
    assert keywords("Any tips or ideas for stars you can see without a telescope?") == [
        "stars",
        "see",
        "telescope",
    ]
    assert keywords("Quelle est la meilleure recette d'une bonne soupe ?") == ["recette", "soupe"]


def test_keywords_drop_the_french_words_that_only_tie_a_sentence() -> None:
    """ "entre", "sans", "si": a question about the world shares them with any client."""
    assert keywords("Quelle différence entre un saule et un bouleau ?") == [
        "différence",
        "saule",
        "bouleau",
    ]
    assert keywords("Une pâte sans oeufs, si possible ?") == ["pâte", "oeufs", "possible"]
    assert keywords("On passe chez eux quand ?") == ["passe", "chez"]


def test_a_name_asked_is_no_call_whatever_the_apostrophe() -> None:
    assert topic_words("Comment s'appelle la femelle du renard ?") == []
    assert topic_words("Comment s\u2019appelle son chat ?") == []
    assert "email" in topic_words("Je l'appelle quand ?")
    assert "email" in topic_words("On vous appelle à quelle heure ?")


def test_a_question_word_is_read_in_the_other_language_from_its_own() -> None:
    assert "invoice" in translated_words(["facture"], "fr")
    assert "facture" in translated_words(["invoices"], "en")
    # a false friend is read in the question's language only: "pain" asked in English
    assert "bread" in translated_words(["pain"], "fr")
    assert "bread" not in translated_words(["pain"], "en")
    # accents as the client types them or not, and nothing for a word of both languages
    assert "invoice" in translated_words(["Facturé"], "fr")
    assert "client" not in translated_words(["client"], "en")
    assert translated_words(["facture"], "de") == []


def test_the_glossary_holds_single_words_each_with_its_translation() -> None:
    """A question is searched word by word: a phrase of the table would find each of its
    words alone ("sans contact" would find "contact")."""
    table = tomllib.loads(
        resources.files("somna.ranking").joinpath("glossary.toml").read_text("utf-8")
    )
    for entry in table["word"]:
        assert entry["en"] and entry["fr"], entry
        assert all(w == w.casefold() and " " not in w for w in entry["en"] + entry["fr"]), entry


def test_question_words_drop_the_words_observations_are_told_in() -> None:
    """Most facts read "The user says that…" or "L'utilisateur dit que…"."""
    assert question_words("Comment dit-on merci en italien ?") == ["merci", "italien"]
    assert question_words("What did the user say about the answer?") == ["say"]
    assert keywords("The user lives in Paris.") == ["user", "lives", "paris"]


def test_question_words_drop_the_lightest_verbs() -> None:
    """ "How do I get red wine out?" shares "get" with "getting rid of the boxes", and
    brought that fact, then four more, into the block of a question about no client."""
    assert question_words("How do I get red wine out of a rug?") == ["red", "wine", "rug"]
    assert question_words("What's the best way to get rid of moss?") == ["moss"]


def test_recency_halves_every_half_life_and_never_exceeds_one() -> None:
    assert recency(MAY_3, MAY_3, 30) == 1.0
    assert recency(MAY_3 - timedelta(days=30), MAY_3, 30) == pytest.approx(0.5)
    assert recency(MAY_3 - timedelta(days=60), MAY_3, 30) == pytest.approx(0.25)
    assert recency(MAY_3 + timedelta(days=5), MAY_3, 30) == 1.0


def test_weights_only_scale_relevance_within_the_share_they_are_given() -> None:
    weights = Weights(recency=0.2, confidence=0.1, strength=0.1)
    assert blend(0.5, weights, recent=1.0, confidence=1.0, strength=1.0) == pytest.approx(0.5)
    assert blend(0.5, weights, recent=0.0, confidence=0.0, strength=0.0) == pytest.approx(0.3)


def test_strength_settles_close_calls_without_reaching_ranks_apart() -> None:
    # reciprocal ranks 1 and 3 of one list; the first faded, the third strengthened by use
    first, third = 1 / 61, 1 / 63
    weights = Weights()
    faded = blend(first, weights, recent=0.8, confidence=0.8, strength=0.27)
    strong = blend(third, weights, recent=0.8, confidence=0.8, strength=1.0)
    assert faded > strong
    tie = blend(first, weights, recent=0.8, confidence=0.8, strength=1.0)
    assert tie > blend(first, weights, recent=0.8, confidence=0.8, strength=0.27)


@pytest.mark.parametrize("shares", [(-0.1, 0.1, 0.1), (0.5, 0.4, 0.2)])
def test_negative_weights_or_weights_above_one_are_refused(
    shares: tuple[float, float, float],
) -> None:
    with pytest.raises(ValueError, match="non-negative and add up to at most 1"):
        Weights(*shares)


def test_a_fact_line_carries_its_date_and_says_when_nobody_confirmed_it() -> None:
    assert fact_line(fact("Prefers tea to coffee.")) == "- [2026-05-03] Prefers tea to coffee."
    assert fact_line(fact("Plays the cello.", FactStatus.UNVERIFIED)).endswith(
        "Plays the cello. (unverified)"
    )


def test_the_block_keeps_whole_lines_in_order_within_the_budget() -> None:
    facts = [fact("Prefers tea to coffee."), fact("Lives in a small town by the sea.")]
    full = render_context("A retired sailor.", facts, budget_tokens=1000)
    assert full.splitlines() == [
        "About this user: A retired sailor.",
        HEADER,
        *(fact_line(f) for f in facts),
    ]
    budget = count_tokens(HEADER) + count_tokens(fact_line(facts[0])) + 2
    assert render_context(None, facts, budget_tokens=budget).splitlines() == [
        HEADER,
        fact_line(facts[0]),
    ]


def test_a_header_without_any_fact_under_it_is_left_out() -> None:
    assert render_context(None, [fact("Prefers tea to coffee.")], budget_tokens=1) == ""
    assert render_context("A retired sailor.", [], budget_tokens=1000) == (
        "About this user: A retired sailor."
    )
    too_long = fact("Lives in a small town by the sea and sails every summer.")
    budget = count_tokens(HEADER) + 1
    assert render_context(None, [too_long], budget_tokens=budget) == ""


@pytest.mark.parametrize(
    ("question", "fact", "holds"),
    [
        ("How many crates this week?", "We take 6 crates now.", True),
        ("Combien de plateaux ?", "On sera 18.", True),
        ("How much is the call-out fee?", "The call-out is £25.", True),
        ("What time does the van come?", "Have the driver come at 10:30.", True),
        ("À quelle heure passe le livreur ?", "Plutôt vers 11h45.", True),
        ("What time does the van come?", "The van comes on Mondays.", False),
        # a price, by its currency or its thousands; a race of 10k is none
        ("What did they agree to pay for the hall?", "The 2-day one at 1,680 is fine.", True),
        ("C'est quoi le tarif négocié ?", "Ok pour 14,50 le kit.", True),
        ("What did they agree to pay for the hall?", "We're running the 10k in May.", False),
        # a size, by its two sides
        ("On monte quelle taille de tente chez eux ?", "On part sur la 15 x 25 alors.", True),
        ("What size marquee are we pitching?", "Go up to 12m x 18m.", True),
        ("What size marquee are we pitching?", "About 120 people at any one time.", False),
    ],
)
def test_a_question_asks_for_a_kind_of_value_a_fact_holds_or_not(
    question: str, fact: str, holds: bool
) -> None:
    pattern = asked_value(question)
    assert pattern is not None
    assert (pattern.search(fact) is not None) is holds


def test_a_question_for_no_count_or_time_asks_for_no_kind_of_value() -> None:
    assert asked_value("Where does she live?") is None
    assert asked_value("Who signs for the deliveries?") is None


def test_a_question_asking_which_day_looks_for_a_habit_said_in_the_plural() -> None:
    """ "Switch the collections to Wednesdays" names a weekday as much as "on Wednesday"."""
    asked = filler_words("What day does the van come?")
    assert {"wednesday", "wednesdays", "mercredi", "mercredis"} <= set(asked)


def test_a_deposit_asked_about_looks_for_what_was_paid() -> None:
    assert "virement" in topic_words("Elle a versé combien d'acompte ?")
    assert "budget" in topic_words("Elle peut mettre combien maximum ?")
    assert "transfer" in topic_words("How much was the deposit?")


def test_what_touches_a_person_looks_for_what_they_react_to_only_to_fill() -> None:
    """ "Which gloves for her session?" needs "allergic to latex"; "Which gloves are
    warmest?" is asked of no client, so the topic only fills a block."""
    assert "latex" in filler_words("Quels gants il faut prévoir pour sa séance ?")
    assert "allergic" not in topic_words("Which gloves are warmest for skiing?")


def test_how_a_thing_looks_asked_about_looks_for_colours_and_materials_only_to_fill() -> None:
    """ "What covering did they pick?" needs "bottle green faux leather"; "What colour is a
    flamingo?" is asked of no client."""
    assert "green" in filler_words("What covering did the café pick in the end?")
    assert "velours" in filler_words("Elle a pris quelle couleur pour le canapé ?")
    assert "green" not in topic_words("What colour is a flamingo?")
