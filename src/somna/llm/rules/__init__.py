"""The offline, deterministic LLM provider: patterns in English and French, no model.

Per language, tables apart from the engine: what surrounds a fact in chat
(`english_speech`, `french_speech`), what makes one (`english`, `french`), how it is
retold in the third person (`english_grammar`, `french_grammar`) and what a standing
instruction is (`english_instruction`, `french_instruction`). The engine (`extract`,
`judge`, `summary`) knows no language of its own; `RulesLLM` dispatches each task to it.
"""

from somna.llm.rules.provider import RulesLLM

__all__ = ["RulesLLM"]
