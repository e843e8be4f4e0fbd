"""Language models for consolidation: one structured call that returns validated JSON.

`LLM.structured(task, inputs) -> Reply` is the only door. Providers: `RulesLLM`
(offline, deterministic, English and French; the default) and `OpenAILLM` (any
OpenAI-compatible chat endpoint). The tasks (`EXTRACT`, `JUDGE`, `REWRITE`) and their
prompt files live in `somna.llm.tasks` and `somna/llm/prompts/`.
"""

from somna.llm import base, tasks
from somna.llm.base import *  # noqa: F403 (their __all__, listed once there)
from somna.llm.factory import PROVIDERS as PROVIDERS
from somna.llm.factory import create_llm as create_llm
from somna.llm.factory import llm_from_settings as llm_from_settings
from somna.llm.openai import OpenAILLM as OpenAILLM
from somna.llm.prompt import Prompt as Prompt
from somna.llm.prompt import render_prompt as render_prompt
from somna.llm.rules import RulesLLM as RulesLLM
from somna.llm.tasks import *  # noqa: F403

__all__ = sorted(
    [
        *base.__all__,
        *tasks.__all__,
        "OpenAILLM",
        "PROVIDERS",
        "Prompt",
        "RulesLLM",
        "create_llm",
        "llm_from_settings",
        "render_prompt",
    ]
)
