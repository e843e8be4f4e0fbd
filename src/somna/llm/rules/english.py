"""English: its tables (`english.toml`) with the functions they name.

Retelling is `english_grammar`, standing instructions `english_instruction`; here is
what a template cannot write: an article that agrees with the next word, a subject put
back before a lower-cased verb, a verb agreed with a name, a decision told about one, the
way a client wants to be reached.
"""

from __future__ import annotations

import re

from somna.llm.rules.english_grammar import ENGLISH_GRAMMAR, agreed
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


_DECIDED = {"chosen": "chose", "decided": "decided", "agreed": "agreed", "opted": "opted"}
_OURS = re.compile(r"\b(?:our|ours|us)\b", re.IGNORECASE)


def _decided(match: re.Match[str], who: str) -> str:
    """ "We've chosen our office" told about one person: "Odile chose their office"."""
    verb = _DECIDED.get(match["verb"].casefold(), match["verb"])
    rest = _OURS.sub(lambda m: "them" if m.group().casefold() == "us" else "their", match["rest"])
    return f"{who} {verb}{rest}"


_BY = {"text": "by text ", "email": "by email ", "call": "by phone ", "message": "by message "}


def _reached(match: re.Match[str], who: str) -> str:
    """ "Text me on 07700 …" told with its way: "Odile wants to be contacted by text on …"."""
    return f"{who} wants to be contacted {_BY.get(match['how'].casefold(), '')}{match['rest']}"


ENGLISH = load_language(
    "english",
    third_person=ENGLISH_GRAMMAR.third_person,
    instruction=instruction,
    spoken={
        "article": lambda match: f"{_article(match['adjective'])} ",
        "indefinite": _indefinite,
        "subject": _subject,
        "i_am": lambda match: "I'm " + match.group().lower(),
        "i_have": lambda match: "I've " + match.group().lower(),
    },
    persons={"agreed": lambda match, me, you: f"{me} {match['adverb']}{agreed(match['verb'])}"},
    seeds={"decided": _decided, "reached": _reached},
)
