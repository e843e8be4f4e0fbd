"""Someone who held a part has left: "Ines has left us, Tomas signs for parcels now",
"Lucien est parti, c'est Ambre qui s'en occupe".

What an older statement says of that person (who signs, who pays, whom to write to) is
no longer so, though the new statement names no value of the same kind: it is replaced,
and a successor named there stands alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from somna.llm.rules.language import Language
from somna.llm.rules.languages import LANGUAGES, is_name

__all__ = ["departed", "someone_left"]

_ELIDED = re.compile(r"^[a-z]{1,3}'")
"""An elided word before a name ("qu'Anselme", "d'Honorine")."""


def departed(text: str, languages: Sequence[Language] = LANGUAGES) -> frozenset[str]:
    """The names `text` says have left: words that may name someone (`is_name`).

    >>> sorted(departed("Sad news: Ines has left us, so Tomas signs for parcels now."))
    ['Ines']
    >>> sorted(departed("Lucien est parti à la retraite, c'est Ambre qui gère."))
    ['Lucien']
    >>> sorted(departed("He has left the keys under the mat."))
    []
    """
    names = (
        _ELIDED.sub("", match["name"])
        for language in languages
        for match in language.departed.finditer(text)
    )
    return frozenset(name for name in names if is_name(name))


def someone_left(old: str, new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `new` says that someone `old` names has left.

    >>> someone_left("Ines Vidal signs for our parcels.", "Ines has left us; Tomas signs now.")
    True
    >>> someone_left("Ines Vidal signs for our parcels.", "Tomas has left us.")
    False
    """
    gone = departed(new, languages) - departed(old, languages)
    return any(re.search(rf"\b{re.escape(name)}\b", old) for name in gone)
