"""The people a client names by how they are related to them: "my son is Noa", then
"my son can't have sesame" retold "the user's son Noa can't have sesame".

A session that names a relative once ("mon fils s'appelle Noé", "my boss, Ines,") names
them in what else it retells of that relative, so a question about Noé finds what was
said of "mon fils". Only where the message said "my son" ("mon fils"): a "son fils" the
client said of someone else is left alone. A relation given two names in the session
("my sister Ana", "my sister Lu"), or one people often have several of ("my friend"),
is left unnamed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache

from somna.llm.rules.language import Language
from somna.llm.rules.languages import LANGUAGES, is_name
from somna.llm.rules.text import fold

__all__ = ["name_relatives", "relatives"]

Relatives = dict[tuple[str, str], str]
"""A relative's name by (language code, relation as written)."""


def relatives(said: Iterable[str], languages: Sequence[Language] = LANGUAGES) -> Relatives:
    """The relatives the messages `said` name, each relation with one name only.

    >>> relatives(["My son is Noa, he is 6.", "my wife Dora books the hotel"])
    {('en', 'son'): 'Noa', ('en', 'wife'): 'Dora'}
    """
    found: dict[tuple[str, str], set[str]] = {}
    for text in said:
        for language in languages:
            for match in language.names_relative.finditer(fold(text)):
                relation = match["relation"].casefold()
                if not is_name(match["name"]) or relation in language.several_relatives:
                    continue  # "my boss Monday said…", "my friend Sam": no one to name later
                key = (language.code, relation)
                found.setdefault(key, set()).add(match["name"])
    return {key: names.pop() for key, names in found.items() if len(names) == 1}


def name_relatives(
    text: str, quote: str, known: Relatives, languages: Sequence[Language] = LANGUAGES
) -> str:
    """`text`, retold from `quote`, with each relative the quote says "my …" of named
    where the retelling mentions them and no name follows.

    >>> name_relatives("The user says that the user's son has a cold.", "my son has a cold",
    ...                {("en", "son"): "Noa"})
    "The user says that the user's son Noa has a cold."
    """
    codes = {language.code: language for language in languages}
    for (code, relation), name in known.items():
        language = codes.get(code)
        if language is None or name in text:
            continue
        said, retold = _patterns(language, relation)
        if said.search(fold(quote)) and (found := retold.search(text)) is not None:
            text = f"{text[: found.end()]} {name}{text[found.end() :]}"
    return text


@cache
def _patterns(language: Language, relation: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    escaped = re.escape(relation)
    return (
        re.compile(language.relative_said.replace("{relation}", escaped), re.IGNORECASE),
        re.compile(language.relative_retold.replace("{relation}", escaped), re.IGNORECASE),
    )
