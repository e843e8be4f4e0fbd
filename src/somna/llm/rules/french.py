"""French: its tables (`french.toml`) with the functions they name.

Retelling is `french_grammar`, standing instructions `french_instruction`.
"""

from __future__ import annotations

from somna.llm.rules.french_grammar import (
    FRENCH_GRAMMAR,
    agreed,
    agreed_listener,
    asked_of_listener,
    modal_to_listener,
    reflexive,
    said_to_listener,
)
from somna.llm.rules.french_instruction import instruction
from somna.llm.rules.tables import load_language

__all__ = ["FRENCH"]

FRENCH = load_language(
    "french",
    third_person=FRENCH_GRAMMAR.third_person,
    instruction=instruction,
    persons={
        "agreed": lambda match, me, you: (
            f"{me} {match['before']}"
            f"{reflexive(match['self'], agreed(match['verb']))}{agreed(match['verb'])}"
        ),
        "to_listener": lambda match, me, you: said_to_listener(
            me, you, match["before"], match["object"], match["verb"], match["participle"] or ""
        ),
        "modal_to_listener": lambda match, me, you: modal_to_listener(
            me, you, match["before"], match["modal"], match["object"], match["verb"]
        ),
        "asked_of_listener": lambda match, me, you: asked_of_listener(
            me,
            match["verb"] or match["verb2"],
            match["object"] or match["object2"] or "",
            moved=match["moved"] is not None,
        ),
        "agreed_listener": lambda match, me, you: (
            f"{you} {agreed_listener(match['plural'] or match['single'])}"
        ),
    },
)
