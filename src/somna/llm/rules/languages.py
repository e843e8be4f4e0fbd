"""The languages the rules provider reads, the default first.

A language is its tables (``<name>.toml``, see `tables`) and a module that loads them
with the functions they name (`english`, `french`); adding one is those two files and a
line here. The engine (`extract`, `observe`, `judge`, `summary`) knows none by name.
"""

from __future__ import annotations

import re

from somna.llm.rules.english import ENGLISH
from somna.llm.rules.french import FRENCH
from somna.llm.rules.language import Language

__all__ = ["ANSWERED", "LANGUAGES"]

LANGUAGES: tuple[Language, ...] = (ENGLISH, FRENCH)

ANSWERED = re.compile(
    r" ?\((?:"
    + "|".join(re.escape(language.answering.split("{}")[0]) for language in LANGUAGES)
    + r")"
)
"""Where an observation's retold question starts (" (in answer to: …)", as `observe`
appends it): what comes before is what was said, what comes after was asked."""
