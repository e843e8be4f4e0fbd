"""The name a client gives when asked for it: who the client is, in every block.

A business's agent asks early ("May I have your name and your company?") and the client
answers with the name first, then whatever else ("Ines Varga, buyer at a freight firm;
we ship twice a week"). That answer is observed whole; the name alone is also kept as
who the client is (`client_info`), so it is in the portrait whatever becomes of the
rest (superseded, disputed). What the client says they are in the same session, a
trade or an age ("I'm a joiner", "j'ai 52 ans"), is told after the name (`described`,
`who_is`): "The user is Theo, 38, a joiner.".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from somna.llm.rules.language import Language, Speaker
from somna.llm.rules.languages import is_name
from somna.llm.rules.text import finish_sentence, fold

__all__ = ["NamedAs", "described", "name_given", "who_is"]

_NAME = re.compile(r"[A-ZÀ-Ý][\w'-]+(?: [A-ZÀ-Ý][\w'-]+){0,2}(?=[\s,;.!:]|$)")
"""One to three capitalised words: "Ines", "Ines Varga", "Jean-Luc De Smet"."""


@dataclass(frozen=True)
class NamedAs:
    text: str
    """Who the speaker is, told: "The user is Ines Varga."."""
    start: int
    end: int
    """Where the name is in the answer: its quote."""
    name: str


def name_given(answer: str, asked: str | None, who: Speaker, language: Language) -> NamedAs | None:
    """The name that opens `answer` when `asked`, the question it answers, asks for it, or
    that the answer opens by introducing ("Hi, I'm Ines Varga", "c'est Noé").

    >>> from somna.llm.rules.languages import ENGLISH
    >>> name_given("Sure, it's Ines Varga, buyer.", "May I have your name?", Speaker("user"),
    ...            ENGLISH).text
    'The user is Ines Varga.'
    >>> name_given("Ines Varga here, we need two vans.", None, Speaker("user"), ENGLISH).name
    'Ines Varga'
    >>> name_given("Ines Varga, buyer.", "Which city?", Speaker("user"), ENGLISH) is None
    True
    """
    group: int | str = 0
    if asked and language.asks_name.search(asked):
        opening = language.before_name.match(answer)
        match = _NAME.match(answer, opening.end() if opening else 0)
    else:
        match, group = language.introduces.match(answer), "name"
    if match is None or not all(_names_one(word, language) for word in match[group].split()):
        return None
    name = match[group]
    return NamedAs(who_is(name, [], who, language), match.start(group), match.end(group), name)


def _names_one(word: str, language: Language) -> bool:
    return word.casefold() not in language.stopwords and is_name(word)


def described(sentence: str, language: Language) -> str | None:
    """What a speaker says they are: their trade or their age, as it reads after their
    name; None when the sentence says neither.

    >>> from somna.llm.rules.languages import ENGLISH, FRENCH
    >>> described("I'm a joiner, I work on site most days.", ENGLISH)
    'a joiner'
    >>> described("Theo. I'm 38, my first race.", ENGLISH), described("j'ai 52 ans", FRENCH)
    ('38', '52 ans')
    >>> described("I'm a bit lost with the settings.", ENGLISH) is None
    True
    """
    match = language.describes_self.search(fold(sentence))
    if match is None:
        return None
    if match["role"]:
        return str(match["role"]).casefold()
    return language.age_told.format(match["age"])


def who_is(name: str, descriptions: list[str], who: Speaker, language: Language) -> str:
    """Who the speaker is, told: their name, then what they said they are ("The user is
    Theo, 38, a joiner.")."""
    speaker = language.plain_user if who.is_user else who.name
    return finish_sentence(language.named.format(speaker, ", ".join([name, *descriptions])))
