"""English: its tables (`english.toml`) with the functions they name.

Retelling is `english_grammar`, standing instructions `english_instruction`; here are the
rewrites of spoken forms a template cannot write (an article that agrees with the next
word, a subject put back in front of a lower-cased verb).
"""

from __future__ import annotations

import re

from somna.llm.rules.english_grammar import third_person
from somna.llm.rules.english_instruction import instruction
from somna.llm.rules.tables import load_language

__all__ = ["ENGLISH"]


def _article(word: str) -> str:
    return "an" if word[:1].casefold() in "aeiou" else "a"


def _subject(match: re.Match[str]) -> str:
    """ "Just got a dog" as "I just got a dog"."""
    said = match.group()
    return f"I {said[:1].lower()}{said[1:]}"


def _indefinite(match: re.Match[str]) -> str:
    """ "I made this bowl" (while showing it) as "I made a bowl"."""
    if match["det"].casefold() in {"these", "those"}:
        return f"{match['verb']} some "
    return f"{match['verb']} {_article(match['next'])} "


ENGLISH = load_language(
    "english",
    third_person=third_person,
    instruction=instruction,
    calls={
        "article": lambda match: f"{_article(match['adjective'])} ",
        "indefinite": _indefinite,
        "subject": _subject,
        "i_am": lambda match: "I'm " + match.group().lower(),
        "i_have": lambda match: "I've " + match.group().lower(),
    },
)
