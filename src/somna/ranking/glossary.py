"""The words of a question in the other language: full text across English and French.

A French question over facts told in English ("Les livraisons, c'est où ?" and
"Deliveries go to the back gate") shares no word with them, and only the embedder's
sense of meaning is left to find them. Each meaning's words in both languages are a
table (`glossary.toml`), so the question's words are searched in the other language too.
A word is looked up in its question's language only: "pain" asked in English is no bread.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType

from somna.store.french import fold

__all__ = ["translated_words"]

_LANGUAGES = ("en", "fr")


@cache
def _other_words() -> Mapping[str, Mapping[str, tuple[str, ...]]]:
    """For each language, each of its words (folded) and the other language's words for it."""
    table = tomllib.loads(
        resources.files("somna.ranking").joinpath("glossary.toml").read_text("utf-8")
    )
    other: dict[str, dict[str, dict[str, None]]] = {code: {} for code in _LANGUAGES}
    for entry in table["word"]:
        for code, theirs in (("en", entry["fr"]), ("fr", entry["en"])):
            for word in entry[code]:
                other[code].setdefault(fold(word), {}).update(dict.fromkeys(theirs))
    return MappingProxyType(
        {
            code: MappingProxyType({word: tuple(found) for word, found in words.items()})
            for code, words in other.items()
        }
    )


def translated_words(words: Iterable[str], language: str) -> list[str]:
    """The words of the other language that say what `words` of `language` say, none of
    `words` itself; none for a language the table does not hold.

    >>> translated_words(["livraison", "lundi"], "fr")[4:7]
    ['delivery', 'deliveries', 'monday']
    >>> translated_words(["pain"], "en")[:2]
    ['douleur', 'douleurs']
    """
    table = _other_words().get(language, {})
    asked = dict.fromkeys(fold(word.casefold()) for word in words)
    found: dict[str, None] = {}
    for word in asked:
        for other in table.get(word, ()):
            if fold(other) not in asked:
                found[other] = None
    return list(found)
