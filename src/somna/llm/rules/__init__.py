"""The offline, deterministic LLM provider: patterns in English and French, no model.

Tables per language (`english`, `french`) are apart from the engine (`extract`,
`judge`, `summary`); `RulesLLM` dispatches each task to its engine.
"""

from somna.llm.rules.provider import RulesLLM

__all__ = ["RulesLLM"]
