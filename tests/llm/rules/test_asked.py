"""A name given anew in the slot of the question an answer gave one to."""

from __future__ import annotations

import pytest

from somna.llm.rules.asked import slot_renamed

_DERBY = "The user says that Derby suits us (in answer to: From which station will you leave?)."
_LILLE = "L'utilisateur dit que Lille c'est mieux (en réponse à « Vous partez de quelle gare ? »)."


@pytest.mark.parametrize(
    ("old", "new", "renamed"),
    [
        (_DERBY, "The user asks to leave from York instead.", True),
        (_LILLE, "L'utilisateur dit que finalement on part de Grenoble.", True),
        # nothing says it changed
        (_DERBY, "The user asks to leave from York.", False),
        # another slot, or the same name again
        (_DERBY, "The user now travels with Nour.", False),
        (_DERBY, "The user will leave from Derby after all.", False),
        # a month or a day is no name
        (_DERBY, "The user will now leave from Monday.", False),
        # the old answer named nothing
        (
            "The user says that the early one (in answer to: From which station?).",
            "The user asks to leave from York instead.",
            False,
        ),
    ],
)
def test_a_name_in_the_asked_slot_given_anew(old: str, new: str, renamed: bool) -> None:
    assert slot_renamed(old, new) is renamed
