"""Which recalled facts reach the prompt: those that bear on the question, and, for a
question about the client, the next ones near it up to a block worth reading."""

from __future__ import annotations

from datetime import UTC, datetime

from somna import Settings
from somna.memory.results import Recalled
from somna.memory.retrieval import names_one_recalled, relevant_facts
from somna.model import Fact, RecalledKind

_NOW = datetime(2026, 5, 3, tzinfo=UTC)


def _recalled(text: str, **signals: float) -> Recalled:
    fact = Fact(profile_id="ines", text=text, recorded_at=_NOW, valid_from=_NOW)
    return Recalled(RecalledKind.FACT, text, 0.0, signals, _NOW, _NOW, fact=fact)


def _texts(recalled: list[Recalled], *, about_someone: bool = False) -> list[str]:
    settings = Settings(context_floor=0.2)
    return [f.text for f in relevant_facts(recalled, settings, about_someone=about_someone)]


def test_a_question_one_fact_bears_on_gets_the_next_facts_near_it_in_rank_order() -> None:
    """ "What does she do on weekends?" bears on her club; "Sunday mornings" never says
    "weekend", yet stands near: the block holds five."""
    recalled = [
        _recalled("Plays in a darts club.", cosine_gap=0.25),
        _recalled("Cycles on Sunday mornings.", cosine_gap=0.15),
        _recalled("Lives in Bath.", cosine_gap=0.12),
        _recalled("Works in logistics.", cosine_gap=0.11),
        _recalled("Has a budget of 3,000 euros.", cosine_gap=0.10),
        _recalled("Keeps bees.", cosine_gap=0.10),
        _recalled("Is allergic to hazelnuts.", cosine_gap=0.05),
    ]
    assert _texts(recalled) == [
        "Plays in a darts club.",
        "Cycles on Sunday mornings.",
        "Lives in Bath.",
        "Works in logistics.",
        "Has a budget of 3,000 euros.",
    ]


def test_a_block_that_bears_on_four_facts_takes_a_fifth_near_it() -> None:
    """Four facts share a word with "when is Mila's recital?"; the date, second by rank,
    never says "recital" and stands near: it fills the fifth place."""
    recalled = [
        _recalled("Mila, the user's daughter, plays the cello.", text_rank=1, cosine_gap=0.3),
        _recalled("It is on Saturday 6 June at 3pm.", cosine_gap=0.16),
        _recalled("Mila's recital needs a black dress.", text_rank=2, cosine_gap=0.05),
        _recalled("Mila practises every evening.", text_rank=3, cosine_gap=0.04),
        _recalled("Mila's teacher is Ms Roy.", text_rank=4, cosine_gap=0.02),
    ]
    assert "It is on Saturday 6 June at 3pm." in _texts(recalled)


def test_a_small_profile_fills_a_block_about_the_client_by_rank() -> None:
    """A client with few facts stands close to none of them in particular: the facts
    below the fill floor still fill the block, the nearer first."""
    recalled = [
        _recalled("Plays in a darts club.", cosine_gap=0.25),
        _recalled("Is allergic to hazelnuts.", cosine_gap=0.01),
        _recalled("Lives in Bath.", cosine_gap=0.12),
        _recalled("Keeps bees.", cosine_gap=-0.02),
    ]
    assert _texts(recalled) == [
        "Plays in a darts club.",
        "Is allergic to hazelnuts.",
        "Lives in Bath.",
        "Keeps bees.",
    ]


def test_facts_near_the_question_fill_before_those_further_down() -> None:
    recalled = [
        _recalled("Plays in a darts club.", cosine_gap=0.25),
        *[_recalled(f"Said thing {n}.", cosine_gap=0.01) for n in range(5)],
        _recalled("Cycles on Sunday mornings.", cosine_gap=0.15),
    ]
    assert _texts(recalled) == [
        "Plays in a darts club.",
        "Said thing 0.",
        "Said thing 1.",
        "Said thing 2.",
        "Cycles on Sunday mornings.",
    ]


def test_a_question_no_fact_bears_on_brings_none() -> None:
    recalled = [
        _recalled("Cycles on Sunday mornings.", cosine_gap=0.15),
        _recalled("Lives in Bath.", cosine_gap=0.12),
    ]
    assert _texts(recalled) == []


def test_a_fact_far_from_the_question_bears_on_nothing_however_far_the_rest_are() -> None:
    """ "How many moons does Jupiter have?" over a client's profile: every cosine is under
    0.25, and the closest stands far above a background near zero without bearing on it."""
    recalled = [
        _recalled(
            "We found 6 more chairs upstairs; 30 chairs altogether.", cosine=0.22, cosine_gap=0.21
        ),
        _recalled("14 Larkspur Row, near the harbour.", cosine=0.1, cosine_gap=0.09),
    ]
    assert _texts(recalled) == []


def test_a_question_pointing_at_someone_no_fact_bears_on_brings_the_closest() -> None:
    """ "What are we making for him?" shares no word with "Wants a three-piece suit.", and a
    small embedder puts it near nothing: it is still about the client."""
    recalled = [
        _recalled("Wants a three-piece suit.", cosine_gap=0.05),
        _recalled("Lives in Bath.", cosine_gap=0.01),
    ]
    assert _texts(recalled, about_someone=True) == ["Wants a three-piece suit.", "Lives in Bath."]


def test_a_question_naming_a_name_the_client_s_facts_write_is_about_the_client() -> None:
    """ "How many are we feeding at the Thornquist party?" shares no other word with "we're
    at 220 now"; the client's company, "Thornquist Brewing", says whose party it is."""
    recalled = [
        _recalled("The user is Gwen Talbot, events at Thornquist Brewing."),
        _recalled("The user says that ticket sales went mad, we're at 220 now."),
    ]
    assert names_one_recalled("How many are we feeding at the Thornquist party?", recalled)
    # a weekday or a word opening the question names no one, though a fact's question
    # opens with it too; nor a name no fact writes
    assert not names_one_recalled("What's a good film for a rainy Sunday?", recalled)
    asked = [_recalled("The user says after 7pm (in answer to: Comment vous joindre ?).")]
    assert not names_one_recalled("Comment faire une pâte brisée ?", asked)
    assert not names_one_recalled("Who won the Ashbury cup?", recalled)


def _across(recalled: list[Recalled], question: str | None) -> list[str]:
    settings = Settings(context_floor=0.2, context_floor_across=0.14)
    return [f.text for f in relevant_facts(recalled, settings, across=question)]


def test_a_fact_in_the_other_language_bears_on_a_question_from_a_lower_floor() -> None:
    """No word of a French question can vouch for an English fact, and cosines across
    languages run lower: with an embedder that crosses them, the English fact needs to
    stand only `context_floor_across` above the background."""
    recalled = [_recalled("The user keeps two hives on the roof.", cosine_gap=0.16)]
    assert _across(recalled, "Combien de ruches sur le toit ?") == [
        "The user keeps two hives on the roof."
    ]
    assert _across(recalled, None) == []  # an embedder that does not cross languages


def test_a_fact_in_the_language_of_the_question_keeps_the_usual_floor() -> None:
    recalled = [_recalled("L'utilisateur a deux ruches sur le toit.", cosine_gap=0.16)]
    assert _across(recalled, "Combien de ruches sur le toit ?") == []
    assert _across(recalled, "How many hives on the roof?") == [
        "L'utilisateur a deux ruches sur le toit."
    ]


def test_an_unrelated_question_stays_empty_across_languages() -> None:
    recalled = [_recalled("The user keeps two hives on the roof.", cosine_gap=0.09)]
    assert _across(recalled, "Quelle est la capitale du Pérou ?") == []


def test_a_shared_word_vouches_for_a_far_fact_in_a_language_read_by_subwords() -> None:
    """ "How far away is the Moon?" shares "away" with the client's emergency contact, far
    from it: in a language the embedder reads, that closeness settles it, and the question
    brings nothing. A fact in a language it reads by subwords alone, whose cosines tell
    little apart, needs only the shared word and to stand above the background."""
    background = [_recalled("Lives in Bath.", cosine_gap=-0.05, background_facts=50)]
    away = "Emergency contact while the user is away is Ottilie."
    settings = Settings(context_floor=0.2, context_text_floor=0.06)
    far = [_recalled(away, text_rank=1, cosine_gap=0.03, background_facts=50), *background]
    assert relevant_facts(far, settings, read=frozenset({"en"}), question="How far away?") == []
    assert relevant_facts(far, settings) == []  # an embedder that reads every language
    near = [_recalled(away, text_rank=1, cosine_gap=0.08, background_facts=50), *background]
    assert away in [f.text for f in relevant_facts(near, settings, read=frozenset({"en"}))]
    tiles = "L'utilisateur dit que le carrelage sera blanc mat."
    french = [_recalled(tiles, text_rank=1, cosine_gap=0.02, background_facts=50), *background]
    assert tiles in [f.text for f in relevant_facts(french, settings, read=frozenset({"en"}))]
    below = [_recalled(tiles, text_rank=1, cosine_gap=-0.01, background_facts=50), *background]
    assert relevant_facts(below, settings, read=frozenset({"en"})) == []


def test_a_shared_word_vouches_for_a_fact_found_by_a_word_translated() -> None:
    """ "Les escaliers sont comment ?" finds "stairs" through its words in English: no
    cosine across the two languages can vouch for the fact, the shared word does."""
    stairs = [
        _recalled("The cellar stairs are steep.", text_rank=1, cosine_gap=0.01, background_facts=50)
    ]
    settings = Settings(context_floor=0.2, context_text_floor=0.06)
    english = relevant_facts(stairs, settings, read=frozenset({"en"}), question="How are they?")
    french = relevant_facts(
        stairs, settings, read=frozenset({"en"}), question="Les escaliers sont comment ?"
    )
    assert english == []
    assert "The cellar stairs are steep." in [f.text for f in french]


def test_the_facts_of_a_small_profile_are_their_own_background() -> None:
    """A profile of one fact: its cosine is the background, and the word it shares with
    the question is enough."""
    one = [
        _recalled(
            "Keeps a sourdough starter in the fridge.",
            text_rank=1,
            cosine_gap=0.0,
            background_facts=1,
        )
    ]
    settings = Settings(context_floor=0.2, context_text_floor=0.06)
    assert [f.text for f in relevant_facts(one, settings, read=frozenset({"en"}))] == [
        "Keeps a sourdough starter in the fridge."
    ]
