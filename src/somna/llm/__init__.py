"""Language models for consolidation: one structured call that returns validated JSON.

`LLM.structured(task, inputs) -> Reply` is the only door. Providers: `RulesLLM`
(offline, deterministic, English and French; the default) and `OpenAILLM` (any
OpenAI-compatible chat endpoint). The tasks (`EXTRACT`, `JUDGE`, `REWRITE`) and their
prompt files live in `somna.llm.tasks` and `somna/llm/prompts/`.
"""

from somna.llm.base import LLM, LLMCallError, Reply, Task
from somna.llm.factory import PROVIDERS, create_llm, llm_from_settings
from somna.llm.openai import OpenAILLM
from somna.llm.prompt import Prompt, render_prompt
from somna.llm.rules import RulesLLM
from somna.llm.tasks import (
    EXTRACT,
    JUDGE,
    REWRITE,
    TASKS,
    CandidateFact,
    ChatTurn,
    Judgements,
    JudgePair,
    JudgeRequest,
    JudgeVerdict,
    RejectedCandidate,
    RewriteRequest,
    RewrittenQuery,
    SessionDigest,
    SessionTranscript,
    TranscriptMessage,
)

__all__ = [
    "EXTRACT",
    "JUDGE",
    "LLM",
    "PROVIDERS",
    "REWRITE",
    "TASKS",
    "CandidateFact",
    "ChatTurn",
    "JudgePair",
    "JudgeRequest",
    "JudgeVerdict",
    "Judgements",
    "LLMCallError",
    "OpenAILLM",
    "Prompt",
    "RejectedCandidate",
    "Reply",
    "RewriteRequest",
    "RewrittenQuery",
    "RulesLLM",
    "SessionDigest",
    "SessionTranscript",
    "Task",
    "TranscriptMessage",
    "create_llm",
    "llm_from_settings",
    "render_prompt",
]
