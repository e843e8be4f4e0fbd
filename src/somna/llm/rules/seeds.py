"""The seed's business categories by pattern: a decision taken, how a client wants to be reached.

An agent serving a customer must remember "we decided to go with the annual plan" as a
`decision` and "please always contact me by email" as `client_info`, whoever says them
and whether "I" or "we" decided. These shapes (each language's `Language.seeds`) come
before the general rules, which would otherwise keep the first only as an observation
and the second not at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from somna.llm.rules.language import Language, Speaker, retell_speaker
from somna.llm.rules.text import trim_clause

__all__ = ["Seeded", "seed_fact"]


@dataclass(frozen=True)
class Seeded:
    category: str
    text: str


def seed_fact(clause: str, who: Speaker, language: Language) -> Seeded | None:
    """The decision or contact preference ``clause`` states, told about ``who``.

    >>> from somna.llm.rules.english import ENGLISH
    >>> seed_fact("We decided to go with the quarterly plan", Speaker("Odile"), ENGLISH)
    Seeded(category='decision', text='Odile decided to go with the quarterly plan')
    >>> seed_fact("Please always contact me by phone", Speaker("user"), ENGLISH)
    Seeded(category='client_info', text='The user wants to be contacted by phone')
    >>> seed_fact("I'm Ines Varga from Lunebake, I buy", Speaker("user"), ENGLISH).text
    'The user is Ines Varga from Lunebake, the user buys'
    >>> seed_fact("I'm Ines Varga, I handle purchasing", Speaker("user"), ENGLISH) is None
    True

    What the template leaves of the speaker's own words ("…, I handle purchasing") is
    retold about them too; a clause of their own right after the name is not joined to
    it (the name alone is who the client is, `names.name_given`).
    """
    user = language.plain_user
    name = user[:1].upper() + user[1:] if who.is_user else who.name
    text = trim_clause(clause)
    for seed in language.seeds:
        match = seed.pattern.match(text)
        if match is not None:
            me = user if who.is_user else who.name
            told = retell_speaker(seed.tell(match, name), me, language.plain_assistant, language)
            return Seeded(seed.category, told)
    return None
