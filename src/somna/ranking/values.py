"""The kind of value a question asks for: a count, a time of day.

"How many e-bikes now?" is answered by "9 e-bikes", which a small embedder finds no
closer to the question than facts that only talk of e-bikes. Recall ranks the close
facts that hold a value of the kind asked for as one more list (`asked_value`); the
table lives in `values.toml`, one entry per kind, languages side by side.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib import resources

from somna.ranking.topics import asking

__all__ = ["asked_value"]


def asked_value(question: str) -> re.Pattern[str] | None:
    """What a fact that holds the value `question` asks for matches, or None.

    >>> asked_value("How many bikes come each week?").search("We run 9 bikes now.") is not None
    True
    >>> asked_value("À quelle heure passe le livreur ?").search("Vers 11h45.") is not None
    True
    >>> asked_value("Where do they live?") is None
    True
    """
    return next((holds for asks, holds in _kinds() if asks.search(question)), None)


@cache
def _kinds() -> tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]:
    table = tomllib.loads(
        resources.files("somna.ranking").joinpath("values.toml").read_text("utf-8")
    )
    return tuple(
        (asking(entry["asks"]), re.compile(entry["holds"], re.IGNORECASE))
        for entry in table.values()
    )
