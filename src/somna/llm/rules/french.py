"""French: its tables (`french.toml`) with the functions they name.

Retelling is `french_grammar`, standing instructions `french_instruction`.
"""

from __future__ import annotations

from somna.llm.rules.french_grammar import FRENCH_GRAMMAR, agreed
from somna.llm.rules.french_instruction import instruction
from somna.llm.rules.tables import load_language

__all__ = ["FRENCH"]

FRENCH = load_language(
    "french",
    third_person=FRENCH_GRAMMAR.third_person,
    instruction=instruction,
    persons={"agreed": lambda match, me, you: f"{me} {match['before']}{agreed(match['verb'])}"},
)
