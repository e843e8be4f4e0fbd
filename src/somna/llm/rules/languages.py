"""The languages the rules provider reads, the default first.

A language is its tables (``<name>.toml``, see `tables`) and a module that loads them
with the functions they name (`english`, `french`); adding one is those two files and a
line here. The engine (`extract`, `observe`, `judge`, `summary`) knows none by name.
"""

from __future__ import annotations

from somna.llm.rules.english import ENGLISH
from somna.llm.rules.french import FRENCH
from somna.llm.rules.language import Language

__all__ = ["LANGUAGES"]

LANGUAGES: tuple[Language, ...] = (ENGLISH, FRENCH)
