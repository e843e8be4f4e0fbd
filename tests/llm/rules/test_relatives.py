"""A relative the client names once is named in what else the session retells of them."""

from __future__ import annotations

import pytest

from somna.llm import EXTRACT, RulesLLM
from somna.llm.rules.relatives import relatives
from tests.llm.helpers import transcript


def _observed(*said: str) -> list[str]:
    turns = [t for text in said for t in (("user", None, text), ("assistant", None, "Noted."))]
    digest = RulesLLM().structured(EXTRACT, transcript(*turns)).value
    return [f.text for f in digest.facts if f.category == "observation"]


@pytest.mark.parametrize(
    ("named", "said", "told"),
    [
        (
            "My daughter is Mila, she turns 8 in June.",
            "We'd like to book my daughter into the Saturday art class.",
            "the user's daughter Mila into the Saturday art class",
        ),
        (
            "Mon associé, Bruno, tient la caisse le samedi.",
            "Mon associé signera le devis vendredi, il a la procuration.",
            "son associé Bruno signera le devis",
        ),
    ],
)
def test_a_relative_named_once_is_named_where_the_session_retells_them(
    named: str, said: str, told: str
) -> None:
    assert any(told in text for text in _observed(named, said))


def test_someone_else_s_relative_is_left_unnamed() -> None:
    texts = _observed(
        "Mon fils s'appelle Noé et il joue au handball.",
        "Le voisin et son fils passent samedi pour la visite du garage.",
    )
    assert not any("son fils Noé" in text for text in texts)


def test_a_relation_given_two_names_names_no_one() -> None:
    assert relatives(["My sister Ana lives in York.", "my sister Lu is coming too"]) == {}


def test_a_day_is_no_name() -> None:
    assert relatives(["my boss Monday said the budget is fine"]) == {}


def test_a_relative_one_often_has_several_of_is_not_named_later() -> None:
    assert relatives(["My friend Sam lent us the van."]) == {}
