"""English standing instructions to the assistant: "always …", "never …", "from now on …".

An instruction is kept only when its verb is one a user asks of an assistant (`IMPERATIVES`)
and it is not a word of encouragement ("Never give up!"); "remember that …" is kept only
when what is to be remembered is about the speaker ("Remember that I'm vegetarian").
"""

from __future__ import annotations

from somna.llm.rules.english_grammar import ENGLISH_GRAMMAR, nominative, retell_pronouns
from somna.llm.rules.grammar import Unsure
from somna.llm.rules.language import Speaker
from somna.llm.rules.text import regex as _re
from somna.llm.rules.text import trim_clause
from somna.llm.rules.text import words as _words

__all__ = ["IMPERATIVES", "instruction"]


IMPERATIVES = _words(
    """answer reply respond write speak talk use call address avoid give keep be format
    include add mention say remind tell send show ask suggest recommend start stop put
    cite double-check check sign end begin explain summarize summarise translate list
    make refer assume correct spell provide offer greet confirm wait let copy cc book
    schedule round convert quote number bold use"""
)
_ENCOURAGEMENT = _re(
    r"^(?:give\s+up|stop\s+(?:believing|dreaming|trying|learning|fighting|chasing|being|"
    r"growing|smiling|exploring|creating)|be\s+(?:afraid|scared|ashamed|discouraged|"
    r"yourself|sorry)|lose\s+(?:hope|faith|sight)|let\s+(?:anyone|anybody|others|people|"
    r"fear|it|them)|say\s+never|forget\s+(?:who|where|to))\b"
)
_PLEASE = r"(?:please\s*,?\s+)?"
_STANDING = r"(?:from now on|going forward|in (?:the )?future|from here on)"
_CALL_ME = _re(
    rf"^{_PLEASE}(?:always\s+)?call\s+me\s+(?P<name>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)$"
)
_ALWAYS = _re(rf"^{_PLEASE}(?P<adverb>always|never)\s+{_PLEASE}(?P<rest>(?P<verb>[\w-]+)\b.*)$")
_DONT_EVER = _re(
    rf"^{_PLEASE}(?:don't|do\s+not)\s+(?:ever\s+(?P<rest>(?P<verb>[\w-]+)\b.*)|"
    r"(?P<rest2>(?P<verb2>[\w-]+)\b.*?)\s*,?\s+(?:anymore|any\s+more|again|from\s+now\s+on))$"
)
_FROM_NOW_ON = _re(
    rf"^{_PLEASE}{_STANDING}\s*,?\s*{_PLEASE}(?P<rest>(?P<verb>[\w-]+)\b.*)$|"
    rf"^{_PLEASE}(?P<rest2>(?P<verb2>[\w-]+)\b.*?)\s*,?\s+{_STANDING}$"
)
_REMEMBER = _re(
    rf"^{_PLEASE}(?:remember|note|keep\s+in\s+mind|don't\s+forget|do\s+not\s+forget|"
    r"never\s+forget)\s*[,:]?\s*(?:that\s+)?(?P<rest>.+)$"
)
_ABOUT_ME = _re(r"^(?:i\b|i'|my\b)")
_TRAILING_PLEASE = _re(r"[\s,]+please$")


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
