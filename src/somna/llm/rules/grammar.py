"""Retelling a first-person clause in the third person: one algorithm, each language's shapes.

A clause Odile says about herself is told about her by name ("I love hiking": "Odile
loves hiking"). A language gives the shapes it retells, tried in order, each a pattern
matched at the start of the clause with a function of the match ("we …", "my …", "it
was my first time …", "I …"), and what becomes of a clause that opens with none of them
(the speaker as object: "Gardening helps me relax"). A form a shape is unsure of raises
`Unsure`, and the clause gives no fact: a missed fact costs less than a wrong one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from somna.llm.rules.language import Speaker

__all__ = ["Grammar", "Shape", "Unsure"]


class Unsure(Exception):
    """The clause uses a form the grammar does not retell with confidence."""


Shape = Callable[[re.Match[str], Speaker, bool, bool], str | None]
"""A shape's retelling, of its match, the speaker, whether the retold text opens a
sentence, and whether the clause is a standing instruction (whose "me" is the speaker)."""


@dataclass(frozen=True)
class Grammar:
    plain_user: str
    """How a speaker the transcript gives no name is named ("the user")."""
    shapes: tuple[tuple[re.Pattern[str], Shape], ...]
    """First match wins, so the order is meaningful."""
    about_object: Callable[[str, Speaker, bool], str]
    """A clause that opens with no shape, told with the speaker as its object."""

    def name(self, who: Speaker, initial: bool) -> str:
        """The speaker by name, or the plain user, capitalised when it opens a sentence."""
        if not who.is_user:
            return who.name
        return self.plain_user[:1].upper() + self.plain_user[1:] if initial else self.plain_user

    def retell(
        self,
        clause: str,
        who: Speaker,
        initial: bool,
        instruction: bool = False,
        objects: bool = True,
    ) -> str | None:
        """``clause`` told about ``who`` in the third person, or None when unsure.

        ``objects``: whether a clause with the speaker as object only ("Art calms me") is
        retold too; the rules that let such a clause through say what it must be.
        """
        try:
            for pattern, shape in self.shapes:
                match = pattern.match(clause)
                if match is not None:
                    return shape(match, who, initial, instruction)
            return self.about_object(clause, who, initial) if objects else None
        except Unsure:
            return None

    def third_person(self, clause: str, who: Speaker) -> str | None:
        """A first-person clause told about its speaker, opening a sentence."""
        return self.retell(clause, who, initial=True)
