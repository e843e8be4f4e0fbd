"""RulesLLM on JUDGE: duplicate, supersedes, contradicts and distinct, in English and French."""

from __future__ import annotations

import pytest

from somna.llm import JUDGE, JudgeRequest, RulesLLM
from somna.llm.rules.judge import may_change_a_value, value_changed
from somna.model import Verdict

CASES = [
    # duplicate
    ("Odile loves hiking.", "odile loves hiking", Verdict.DUPLICATE),
    (
        "The user really loves hiking in the Swiss Alps every summer.",
        "The user loves hiking in the Swiss Alps every summer.",
        Verdict.DUPLICATE,
    ),
    ("Odile lives in Paris, France.", "Odile lives in Paris.", Verdict.DUPLICATE),
    ("L'utilisateur aime la randonnée.", "l'utilisateur aime la randonnée !", Verdict.DUPLICATE),
    ("Camille habite à Lyon.", "Camille habite maintenant à Lyon.", Verdict.DUPLICATE),
    # who someone is, by a part of the same name, however it was told
    ("The user is Nour.", "The user is Nour Varga, 38, a joiner.", Verdict.DUPLICATE),
    ("The user's name is Nour Varga.", "The user is Nour.", Verdict.DUPLICATE),
    ("L'utilisateur est Nour.", "L'utilisateur s'appelle Nour Varga.", Verdict.DUPLICATE),
    # supersedes: same subject, same one-value slot or sentence frame, another value, and
    # the newer one says it changed
    ("Odile moved to Berlin.", "Odile lives in Paris.", Verdict.SUPERSEDES),
    ("Odile now works at Google.", "Odile works at Microsoft.", Verdict.SUPERSEDES),
    ("Odile's favorite color is now green.", "Odile's favorite color is blue.", Verdict.SUPERSEDES),
    ("The user is 35 years old.", "The user is 34 years old.", Verdict.SUPERSEDES),
    ("Odile no longer lives in Paris.", "Odile lives in Paris.", Verdict.SUPERSEDES),
    (
        "The user switched to the weekly plan.",
        "The user is on the monthly plan.",
        Verdict.SUPERSEDES,
    ),
    ("The team now needs 9 licences.", "The team needs 6 licences.", Verdict.SUPERSEDES),
    (
        "L'utilisateur habite désormais à Marseille.",
        "L'utilisateur habite à Lyon.",
        Verdict.SUPERSEDES,
    ),
    (
        "Finalement, le client repasse à l'offre mensuelle.",
        "Le client est sur l'offre annuelle.",
        Verdict.SUPERSEDES,
    ),
    ("L'utilisateur a 35 ans.", "L'utilisateur a 34 ans.", Verdict.SUPERSEDES),
    ("L'utilisateur n'habite plus à Lyon.", "L'utilisateur habite à Lyon.", Verdict.SUPERSEDES),
    # contradicts: another value that nothing says changed is put to a person
    ("Odile lives in Berlin.", "Odile lives in Paris.", Verdict.CONTRADICTS),
    ("Lives in Berlin.", "Lives in Paris.", Verdict.CONTRADICTS),
    ("Odile works at Google.", "Odile works at Microsoft.", Verdict.CONTRADICTS),
    ("Odile works as a teacher.", "Odile works as a nurse.", Verdict.CONTRADICTS),
    ("Odile's favorite color is green.", "Odile's favorite color is blue.", Verdict.CONTRADICTS),
    (
        "The user's favourite language is Rust.",
        "The user's favourite language is Python.",
        Verdict.CONTRADICTS,
    ),
    (
        "The user prefers to be reached by phone.",
        "The user prefers to be reached by email.",
        Verdict.CONTRADICTS,
    ),
    ("L'utilisateur habite à Marseille.", "L'utilisateur habite à Lyon.", Verdict.CONTRADICTS),
    ("Camille travaille chez Airbus.", "Camille travaille chez Renault.", Verdict.CONTRADICTS),
    (
        "La couleur préférée de Camille est le vert.",
        "La couleur préférée de Camille est le bleu.",
        Verdict.CONTRADICTS,
    ),
    ("The user is Lina Varga.", "The user is Nour Varga.", Verdict.CONTRADICTS),
    # contradicts: an age lower than before (a higher one follows the calendar)
    ("Theo is 10.", "Theo is 12.", Verdict.CONTRADICTS),
    ("Theo is 13.", "Theo is 12.", Verdict.SUPERSEDES),
    # contradicts: one negates the other
    ("Odile likes tea.", "Odile does not like tea.", Verdict.CONTRADICTS),
    ("Odile doesn't like tea.", "Odile likes tea.", Verdict.CONTRADICTS),
    ("Odile is not vegetarian.", "Odile is vegetarian.", Verdict.CONTRADICTS),
    ("The user has a dog.", "The user does not have a dog.", Verdict.CONTRADICTS),
    ("L'utilisateur aime le café.", "L'utilisateur n'aime pas le café.", Verdict.CONTRADICTS),
    (
        "L'utilisateur ne mange pas de viande.",
        "L'utilisateur mange de la viande.",
        Verdict.CONTRADICTS,
    ),
    ("Camille est végétarienne.", "Camille n'est pas végétarienne.", Verdict.CONTRADICTS),
    # distinct
    ("The user likes skiing in the Alps.", "The user likes hiking in the Alps.", Verdict.DISTINCT),
    ("The user is 41.", "The user is vegan.", Verdict.DISTINCT),
    ("Odile loves hiking.", "Odile works as a nurse.", Verdict.DISTINCT),
    ("Emma lives in Berlin.", "Odile lives in Paris.", Verdict.DISTINCT),
    ("Odile's favorite food is pizza.", "Odile's favorite color is blue.", Verdict.DISTINCT),
    ("Odile likes tea.", "Odile does not like coffee.", Verdict.DISTINCT),
    ("L'utilisateur aime le café.", "L'utilisateur travaille chez Airbus.", Verdict.DISTINCT),
    ("Camille habite à Lyon.", "Emma habite à Marseille.", Verdict.DISTINCT),
    ("The user is Nour.", "The user is Nour's neighbour.", Verdict.DISTINCT),
    # the speaker named in both is no frame shared: a name is no other way of reaching
    ("L'utilisateur préfère Signal.", "L'utilisateur est Anouk Perrault.", Verdict.DISTINCT),
    ("L'utilisateur est Anouk Perrault.", "L'utilisateur préfère Signal.", Verdict.DISTINCT),
    # duplicate: a first name shortened is the same name
    ("The user is Gwen Talbot.", "The user is Gwendolyn Talbot.", Verdict.DUPLICATE),
    ("L'utilisateur est Max Ferrand.", "L'utilisateur est Maxime Ferrand.", Verdict.DUPLICATE),
    # a title for the first name
    ("The user is Mrs Talbot.", "The user is Gwen Talbot.", Verdict.DUPLICATE),
    ("L'utilisateur est Mme Ferrand.", "L'utilisateur est Anouk Ferrand.", Verdict.DUPLICATE),
    ("The user is Mrs Talbot.", "The user is Gwen Pike.", Verdict.CONTRADICTS),
    # the family's name for a household that writes as one ("the Talbots here")
    ("The user is Talbots.", "The user is Gwen Talbot.", Verdict.DUPLICATE),
    ("The user is Pikes.", "The user is Gwen Talbot.", Verdict.CONTRADICTS),
    # a partner the older fact names, who writes in turn, is no other name of the user
    (
        "The user is Hollis.",
        "The user is Gwen Talbot, marrying her fiancé Hollis Pike in May.",
        Verdict.DISTINCT,
    ),
    (
        "L'utilisateur est Basile Ferrand.",
        "L'utilisateur est Anouk Perrault, avec son compagnon Basile Ferrand.",
        Verdict.DISTINCT,
    ),
]


@pytest.mark.parametrize(("new", "existing", "expected"), CASES)
def test_rules_judge_pairs(new: str, existing: str, expected: Verdict) -> None:
    request = JudgeRequest(
        pairs=[{"pair_id": 7, "new": new, "existing": existing, "existing_since": "2025-01-01"}]
    )
    reply = RulesLLM().structured(JUDGE, request)
    (verdict,) = reply.value.verdicts
    assert verdict.pair_id == 7
    assert verdict.verdict is expected, verdict.reason
    assert verdict.reason
    assert (reply.prompt_tokens, reply.completion_tokens, reply.calls) == (0, 0, 1)


def test_a_text_that_may_change_no_value_is_in_no_frame_with_any_other() -> None:
    """The search for a changed value is skipped for texts `may_change_a_value` refuses, so
    it must refuse none that `value_changed` would hold against some other text."""
    texts = sorted({text for new, existing, _ in CASES for text in (new, existing)})
    texts += ["The user likes hiking.", "The user likes skiing.", "Aime les longues balades."]
    changing = {new for new in texts for old in texts if old != new and value_changed(old, new)}
    refused = {text for text in texts if not may_change_a_value(text)}
    assert changing and refused
    assert not changing & refused
    assert {"The user likes hiking.", "Aime les longues balades."} <= refused


def test_one_batch_keeps_the_pairs_and_their_order() -> None:
    request = JudgeRequest(
        pairs=[
            {"pair_id": pair_id, "new": new, "existing": existing}
            for pair_id, (new, existing, _) in enumerate(CASES, start=100)
        ]
    )
    judgements = RulesLLM().structured(JUDGE, request).value
    assert [v.pair_id for v in judgements.verdicts] == list(range(100, 100 + len(CASES)))
    assert [v.verdict for v in judgements.verdicts] == [expected for *_, expected in CASES]
    assert judgements == RulesLLM().structured(JUDGE, request).value


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("These days my favourite board game is chess.", Verdict.SUPERSEDES),
        ("Désormais mon jeu de société préféré est les échecs.", Verdict.SUPERSEDES),
        ("My favourite board game is chess.", Verdict.CONTRADICTS),
        (None, Verdict.CONTRADICTS),
    ],
)
def test_the_words_a_fact_was_said_in_can_say_the_value_changed(
    said: str | None, expected: Verdict
) -> None:
    """The fact's text may drop the "now" its message held: the message decides."""
    request = JudgeRequest(
        pairs=[
            {
                "pair_id": 0,
                "new": "The user's favourite board game is chess.",
                "existing": "The user's favourite board game is go.",
                "new_said": said,
            }
        ]
    )
    (verdict,) = RulesLLM().structured(JUDGE, request).value.verdicts
    assert verdict.verdict is expected, verdict.reason
