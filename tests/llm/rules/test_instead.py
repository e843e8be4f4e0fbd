"""A value named with the one it replaces ("in Hartfield, not Morley") replaces the older
statement that gave the one named."""

from __future__ import annotations

import pytest

from somna.llm.rules.instead import named_instead
from somna.llm.rules.replaced import gives_anew


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "The user says that our buyer is in Wetherden, so the labels go there.",
            "The user says that the buyer is in Hartfield, not Wetherden; labels in Welsh too.",
        ),
        (
            "The user says that order approved, the PO is QX-3310.",
            "The user says that put it on QX-4172 rather than QX-3310.",
        ),
        (
            "L'utilisateur dit que l'entrepôt est à Brest.",
            "L'utilisateur dit qu'on livre à Quimper et non Brest.",
        ),
        # a change from one value to another in so many words
        (
            "The user says that we'd like green aprons with the logo, 30 of those.",
            "The user asks to switch the aprons from green to charcoal; the staff voted.",
        ),
        (
            "L'utilisateur dit que les housses seront en lin.",
            "L'utilisateur demande de passer les housses du lin au coton.",
        ),
    ],
)
def test_a_value_named_with_the_one_it_replaces_gives_it_anew(old: str, new: str) -> None:
    assert named_instead(old, new)
    assert gives_anew(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # no value on both sides: a person, a manner
        ("The user says that Ilse Marr handles the invoices.", "Call Ilse, not me."),
        ("The user says that the parcel goes to Wetherden.", "It's fine, not urgent."),
        # the older statement already gave the new value: nothing replaced
        (
            "The user says that the buyer moved from Wetherden to Hartfield.",
            "The user says that the buyer is in Hartfield, not Wetherden.",
        ),
        # the value named is not the older statement's
        ("The user says that the depot is in Corby.", "The depot is in Hartfield, not Wetherden."),
        # a bare number a change starts from: a count, for `counts` to judge
        ("The user says that the gym opens at 9 on Mondays.", "We go from 9 to 5 on weekdays."),
    ],
)
def test_a_contrast_without_a_value_of_the_older_statement_replaces_nothing(
    old: str, new: str
) -> None:
    assert not named_instead(old, new)
