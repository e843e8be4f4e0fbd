"""French standing instructions to the assistant: "toujours …", "désormais …", "retiens que …".

Its patterns and verbs are in `french.toml` (``[instruction.patterns]``, ``IMPERATIVES``).
An imperative is kept only when its verb is one a user asks of an assistant (`IMPERATIVES`)
and the sentence says it stands ("toujours", "jamais", "désormais"); "retiens que …" is
kept only when what is to be remembered is about the speaker ("Retiens que je suis
végétarienne").
"""

from __future__ import annotations

from somna.llm.rules.french_grammar import FRENCH_GRAMMAR, nominative, starts_with_vowel
from somna.llm.rules.language import Speaker
from somna.llm.rules.tables import read_tables
from somna.llm.rules.text import trim_clause

__all__ = ["IMPERATIVES", "instruction"]


_TABLES = read_tables("french")
IMPERATIVES = _TABLES.words("IMPERATIVES")
_PATTERNS = _TABLES.section_patterns("instruction")
_STANDING, _IMPERATIVE, _REMEMBER, _ABOUT_ME = (
    _PATTERNS[name] for name in ("standing", "imperative", "remember", "about_me")
)


def instruction(sentence: str, who: Speaker) -> str | None:
    """ "Réponds toujours en français." : "L'utilisateur demande à l'assistant : « … »"."""
    clause = trim_clause(sentence)
    subject = nominative(who, initial=True)
    remember = _REMEMBER.match(clause)
    if remember:
        if not _ABOUT_ME.match(remember["rest"]):
            return None
        body = FRENCH_GRAMMAR.retell(remember["rest"], who, initial=False, objects=False)
        if not body:
            return None
        que = "qu'" if starts_with_vowel(body) else "que "
        return f"{subject} demande à l'assistant de retenir {que}{body}"
    imperative = _IMPERATIVE.match(clause)
    if imperative and imperative["verb"].casefold() in IMPERATIVES and _STANDING.search(clause):
        request = clause[:1].upper() + clause[1:]
        return f"{subject} demande à l'assistant : « {request}. »"
    return None
