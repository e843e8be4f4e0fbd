"""English standing instructions to the assistant: "always …", "never …", "from now on …".

Its patterns and verbs are in `english.toml` (``[instruction.patterns]``, ``IMPERATIVES``).
An instruction is kept only when its verb is one a user asks of an assistant (`IMPERATIVES`)
and it is not a word of encouragement ("Never give up!"); "remember that …" is kept only
when what is to be remembered is about the speaker ("Remember that I'm vegetarian").
"""

from __future__ import annotations

from somna.llm.rules.english_grammar import ENGLISH_GRAMMAR, nominative, retell_pronouns
from somna.llm.rules.grammar import Unsure
from somna.llm.rules.language import Speaker
from somna.llm.rules.tables import read_tables
from somna.llm.rules.text import trim_clause

__all__ = ["IMPERATIVES", "instruction"]


_TABLES = read_tables("english")
IMPERATIVES = _TABLES.words("IMPERATIVES")
_PATTERNS = _TABLES.section_patterns("instruction")
(
    _CALL_ME,
    _ALWAYS,
    _DONT_EVER,
    _FROM_NOW_ON,
    _REMEMBER,
    _ABOUT_ME,
    _TRAILING_PLEASE,
    _ENCOURAGEMENT,
) = (
    _PATTERNS[name]
    for name in (
        "call_me",
        "always",
        "dont_ever",
        "from_now_on",
        "remember",
        "about_me",
        "trailing_please",
        "encouragement",
    )
)


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _asked(verb: str, rest: str) -> bool:
    return verb.casefold() in IMPERATIVES and not _ENCOURAGEMENT.match(rest)


def instruction(sentence: str, who: Speaker) -> str | None:
    """ "Always answer in French." by the user: "The user wants the assistant to always answer…"."""
    clause = _TRAILING_PLEASE.sub("", trim_clause(sentence))
    subject = nominative(who, initial=True)
    try:
        called = _CALL_ME.match(clause)
        if called:
            return f"{subject} wants to be called {called['name']}"
        always = _ALWAYS.match(clause)
        if always and _asked(always["verb"], always["rest"]):
            rest = retell_pronouns(_lower_first(always["rest"]), who, instruction=True)
            return f"{subject} wants the assistant to {always['adverb'].lower()} {rest}"
        dont = _DONT_EVER.match(clause)
        if dont:
            verb, rest = dont["verb"] or dont["verb2"], dont["rest"] or dont["rest2"]
            if _asked(verb, rest):
                rest = retell_pronouns(_lower_first(rest), who, instruction=True)
                return f"{subject} wants the assistant to never {rest}"
        standing = _FROM_NOW_ON.match(clause)
        if standing:
            verb, rest = (
                standing["verb"] or standing["verb2"],
                standing["rest"] or standing["rest2"],
            )
            if _asked(verb, rest):
                rest = retell_pronouns(_lower_first(rest), who, instruction=True)
                return f"{subject} wants the assistant to {rest} from now on"
        remember = _REMEMBER.match(clause)
        if remember and _ABOUT_ME.match(remember["rest"]):
            body = ENGLISH_GRAMMAR.retell(remember["rest"], who, initial=False, objects=False)
            if body:
                return f"{subject} wants the assistant to remember that {body}"
    except Unsure:
        return None
    return None
