"""`RulesLLM`: the offline, deterministic provider. No model, no network, English and French."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from somna.errors import LLMError
from somna.llm.base import Reply, Task
from somna.llm.rules.extract import LANGUAGES, extract_facts
from somna.llm.rules.judge import judge_pairs
from somna.llm.rules.summary import summarise
from somna.llm.tasks import (
    EXTRACT,
    JUDGE,
    REWRITE,
    JudgeRequest,
    RewriteRequest,
    RewrittenQuery,
    SessionDigest,
    SessionTranscript,
)

__all__ = ["RulesLLM"]

InT = TypeVar("InT", bound=BaseModel)
OutT = TypeVar("OutT", bound=BaseModel)


def _extract(transcript: SessionTranscript) -> SessionDigest:
    facts, sources = extract_facts(transcript, LANGUAGES)
    return SessionDigest(summary=summarise(transcript, LANGUAGES, sources), facts=facts)


def _rewrite(request: RewriteRequest) -> RewrittenQuery:
    return RewrittenQuery(query=request.query)


_HANDLERS: dict[str, Callable[[Any], BaseModel]] = {
    EXTRACT.name: _extract,
    JUDGE.name: lambda request: judge_pairs(request),
    REWRITE.name: _rewrite,
}
_INPUTS: dict[str, type[BaseModel]] = {
    EXTRACT.name: SessionTranscript,
    JUDGE.name: JudgeRequest,
    REWRITE.name: RewriteRequest,
}


class RulesLLM:
    """Answers every Somna task by patterns: same input, same output, no cost.

    EXTRACT keeps first-person statements of the user (preferences, identity, relations,
    decisions, plans, events, standing instructions) retold in the third person, with an
    extractive summary; JUDGE compares by normalized text, negation and one-value slots;
    REWRITE returns the query unchanged. Precision comes before recall: a sentence the
    patterns are unsure of gives no fact.
    """

    @property
    def name(self) -> str:
        return "rules"

    def structured(self, task: Task[InT, OutT], inputs: InT) -> Reply[OutT]:
        handler = _HANDLERS.get(task.name)
        if handler is None:
            raise LLMError(
                f"The rules provider has no rules for the {task.name!r} task; "
                "use the 'openai' provider for it."
            )
        inputs = task.coerce(inputs)
        if not isinstance(inputs, _INPUTS[task.name]):
            raise LLMError(
                f"The rules provider answers the {task.name!r} task for "
                f"{_INPUTS[task.name].__name__} inputs, not {type(inputs).__name__}."
            )
        value = handler(inputs)
        if not isinstance(value, task.output_model):
            raise LLMError(
                f"The rules provider answers the {task.name!r} task with "
                f"{type(value).__name__}, not {task.output_model.__name__}."
            )
        return Reply(value, prompt_tokens=0, completion_tokens=0, calls=1)

    def close(self) -> None:
        """Nothing to release; here so that every provider can be closed alike."""
