"""The offline, deterministic LLM provider: patterns in English and French, no model.

One engine for every language: `extract` (facts), `observe` (observations), `judge`,
`dates`, `summary` and `grammar` (retelling in the third person) are written once and read
a `Language`. A language is data: its tables (``english.toml``, ``french.toml``: words,
patterns, rules with their examples, pronoun maps, date phrases) and a module of the few
functions they name (`english`, `french`, with their `*_grammar` shapes and
`*_instruction` readers), listed in `languages`. `RulesLLM` dispatches each task.
"""

from somna.llm.rules.provider import RulesLLM

__all__ = ["RulesLLM"]
