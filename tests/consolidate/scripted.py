"""A scripted `LLM` for pipeline tests: answers each task from functions the test gives.

It is a fake of the one-method `LLM` protocol, not a mock of any client: the
pipeline cannot tell it from a provider. Tests of the real providers live in
tests/llm/.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from somna.errors import LLMError
from somna.llm.base import Reply, Task
from somna.llm.tasks import (
    EXTRACT,
    JUDGE,
    CandidateFact,
    Judgements,
    JudgeRequest,
    SessionDigest,
    SessionTranscript,
)

Extractor = Callable[[SessionTranscript], SessionDigest]
Judge = Callable[[JudgeRequest], Judgements]


def fact(text: str, quote: str, **fields: Any) -> CandidateFact:
    return CandidateFact.model_validate(
        {"type": "fact", "category": "preference", "subject": "user", "text": text,
         "quote": quote, "confidence": 0.8, **fields}
    )  # fmt: skip


def judge_all(verdict: str) -> Judge:
    return lambda request: Judgements.model_validate(
        {"verdicts": [{"pair_id": p.pair_id, "verdict": verdict, "reason": "test"}
                      for p in request.pairs]}
    )  # fmt: skip


class ScriptedLLM:
    name = "scripted"

    def __init__(self, extract: Extractor, judge: Judge | None = None) -> None:
        self.extract = extract
        self.judge = judge or judge_all("distinct")
        self.calls: list[tuple[str, Any]] = []

    def structured(self, task: Task[Any, Any], inputs: Any) -> Reply[Any]:
        self.calls.append((task.name, inputs))
        if task is EXTRACT:
            return Reply(self.extract(inputs), prompt_tokens=100, completion_tokens=20)
        if task is JUDGE:
            return Reply(self.judge(inputs), prompt_tokens=50, completion_tokens=10)
        raise LLMError(f"The scripted model has no answer for task {task.name!r}.")

    def calls_of(self, task: str) -> int:
        return sum(1 for name, _ in self.calls if name == task)


def proposing(*facts: CandidateFact, summary: str | None = None) -> Extractor:
    """An extractor that proposes, in each session, the given facts whose quote was said there;
    its summary, unless given, is the first message, grounded as a model's must be."""

    def extract(transcript: SessionTranscript) -> SessionDigest:
        said = " ".join(m.content for m in transcript.messages)
        first = transcript.messages[0].content if transcript.messages else ""
        told = f"The user said: {first}" if summary is None else summary
        return SessionDigest(summary=told, facts=[f for f in facts if f.quote in said])

    return extract
