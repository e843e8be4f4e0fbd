"""French words as the full-text index keeps them: elisions and stop words out, stemmed, unaccented.

The main index reads English ("porter" stemming in SQLite, the profile's configuration
in Postgres) and stays as it is. Beside it, each fact's text is also indexed through
this folding, and a query goes through the same, so "allergies" finds "allergique"
(both "allerg") and "médecin" finds "medecin". Accents are folded first, then the word
goes through Snowball's French stemmer, as the Postgres store does it with its `french`
configuration.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache

import snowballstemmer

__all__ = ["FRENCH_STOP_WORDS", "fold", "french_terms", "french_text"]

_WORD = re.compile(r"\w+", re.UNICODE)  # an apostrophe ends a word: l'allergie -> l, allergie

_STOP = """
au aux avec ce ces cet cette dans de des du elle elles en est et eux il ils je la le les
leur leurs lui ma mais me mes moi mon ne nos notre nous on ou où par pas pour qu que quel
quelle quels quelles qui sa se ses son sur ta te tes toi ton tu un une vos votre vous
sont été être avoir ont fait comment quoi était avait sans sous chez très plus
ai as avons avez suis es sommes êtes ça cela ceci
"""
FRENCH_STOP_WORDS: frozenset[str] = frozenset(_STOP.split())
"""Words too common in French to find anything; a one-letter word (l', d', j') never counts."""

_lock = threading.Lock()
_stemmer = snowballstemmer.stemmer("french")


def fold(word: str) -> str:
    """`word` without its accents: "é" is "e", "ç" is "c"."""
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


@lru_cache(maxsize=65_536)
def _stem(word: str) -> str:
    with _lock:  # a Snowball stemmer keeps its state between calls
        stem: str = _stemmer.stemWord(fold(word))
    return stem


def french_terms(text: str) -> list[str]:
    """The folded stems of `text`'s French content words, in order, repeats kept.

    >>> french_terms("L'utilisateur a des allergies.")
    ['utilis', 'allerg']
    """
    words = _WORD.findall(text.casefold())
    return [_stem(w) for w in words if len(w) > 1 and w not in FRENCH_STOP_WORDS]


def french_text(text: str) -> str:
    """`french_terms` as one string, for the index."""
    return " ".join(french_terms(text))
