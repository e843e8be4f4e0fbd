"""The seed's business categories by pattern: a decision taken, how a client wants to be reached.

An agent serving a customer must remember "we decided to go with the annual plan" as a
`decision` and "please always contact me by email" as `client_info`, whoever says them
and whether "I" or "we" decided. These shapes come before the general rules, which
would otherwise keep the first only as an observation and the second not at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from somna.llm.rules.language import Speaker
from somna.llm.rules.text import trim_clause

__all__ = ["Seed", "seed_fact"]

_I = re.IGNORECASE


@dataclass(frozen=True)
class Seed:
    category: str
    text: str


_OURS = re.compile(r"\b(?:our|ours|us)\b", _I)


def _ours(text: str) -> str:
    """ "our office" in a decision told about one person: "their office"."""
    return _OURS.sub(lambda m: "them" if m.group().casefold() == "us" else "their", text)


_PAST = {"chosen": "chose", "decided": "decided", "agreed": "agreed", "opted": "opted"}


_Tell = Callable[[re.Match[str], str], str]

_ENGLISH: tuple[tuple[str, re.Pattern[str], _Tell], ...] = tuple(
    (category, re.compile(pattern, _I), tell)
    for category, pattern, tell in (
        (
            "decision",
            r"^(?:so,?\s+|ok(?:ay)?,?\s+|well,?\s+)?we(?:'ve|\s+have)?\s+(?:finally\s+|just\s+)?"
            r"(?P<verb>decided|chosen|chose|agreed|settled|opted)\b(?P<rest>\s+\S.*)$",
            lambda m, who: f"{who} {_PAST.get(m['verb'].casefold(), m['verb'])}{_ours(m['rest'])}",
        ),
        (
            "client_info",
            r"^(?:please\s+)?(?:always\s+|only\s+)?(?:contact|reach|email|call|text|message)\s+me"
            r"\s+(?P<rest>(?:only\s+)?(?:by|via|on|at|through)\b.*)$",
            lambda m, who: f"{who} wants to be contacted {m['rest']}",
        ),
        (
            "client_info",
            r"^my\s+(?P<thing>(?:preferred\s+|work\s+|billing\s+)?(?:email(?:\s+address)?|phone"
            r"(?:\s+number)?|contact(?:\s+method)?|address|billing\s+address))\s+is\s+(?P<rest>\S.*)$",
            lambda m, who: f"{who}'s {m['thing']} is {m['rest']}",
        ),
    )
)
_FRENCH: tuple[tuple[str, re.Pattern[str], _Tell], ...] = tuple(
    (category, re.compile(pattern, _I), tell)
    for category, pattern, tell in (
        (
            "decision",
            r"^(?:bon,?\s+|alors,?\s+)?(?:nous\s+avons|on\s+a)\s+(?:finalement\s+)?"
            r"(?P<verb>décidé|choisi|opté)\b(?P<rest>\s+\S.*)$",
            lambda m, who: f"{who} a {m['verb']}{m['rest']}",
        ),
        (
            "client_info",
            r"^(?:(?:merci\s+)?de\s+|veuillez\s+)?(?:toujours\s+|uniquement\s+)?"
            r"(?:me\s+contacter|me\s+joindre|m'écrire|m'appeler)\s+(?P<rest>(?:par|via|au|sur|à)\b.*)$",
            lambda m, who: f"{who} veut être contacté {m['rest']}",
        ),
        (
            "client_info",
            r"^(?:contactez|joignez|écrivez|appelez)-moi\s+(?:toujours\s+|uniquement\s+)?"
            r"(?P<rest>(?:par|via|au|sur|à)\b.*)$",
            lambda m, who: f"{who} veut être contacté {m['rest']}",
        ),
    )
)


def seed_fact(clause: str, who: Speaker, language: str) -> Seed | None:
    """The decision or contact preference ``clause`` states, told about ``who``.

    >>> seed_fact("We decided to go with the quarterly plan", Speaker("Odile"), "en")
    Seed(category='decision', text='Odile decided to go with the quarterly plan')
    >>> seed_fact("Please always contact me by phone", Speaker("user"), "en")
    Seed(category='client_info', text='The user wants to be contacted by phone')
    """
    french = language == "fr"
    name = _USER[french] if who.is_user else who.name
    text = trim_clause(clause)
    for category, pattern, tell in _FRENCH if french else _ENGLISH:
        match = pattern.match(text)
        if match is not None:
            return Seed(category, tell(match, name))
    return None


_USER = ("The user", "L'utilisateur")
