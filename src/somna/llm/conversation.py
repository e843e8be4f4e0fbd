"""The model calls of the live conversation, both optional: folding a long thread into a
running summary, and proposing rephrasings of a question for multi-query recall.

- `THREAD_SUMMARY`: the summary so far and the turns to fold in, a new summary out.
- `REPHRASE`: a question in, 2 or 3 rephrasings out.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from somna.llm.base import Task
from somna.llm.tasks import ChatTurn, render_turns

__all__ = [
    "CONVERSATION_TASKS",
    "REPHRASE",
    "THREAD_SUMMARY",
    "FoldRequest",
    "RephraseRequest",
    "Rephrasings",
    "RunningSummary",
]


class FoldRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    previous: str = ""
    """The running summary so far; empty on the first fold."""
    turns: list[ChatTurn]


class RunningSummary(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    summary: str = Field(min_length=1)


def _render_fold(request: FoldRequest) -> dict[str, str]:
    return {"previous": request.previous or "(none yet)", "turns": render_turns(request.turns)}


THREAD_SUMMARY = Task("thread_summary", FoldRequest, RunningSummary, render=_render_fold)


class RephraseRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    query: str


class Rephrasings(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    queries: list[str] = Field(min_length=1)


def _render_rephrase(request: RephraseRequest) -> dict[str, str]:
    return {"query": " ".join(request.query.split())}


REPHRASE = Task("rephrase", RephraseRequest, Rephrasings, render=_render_rephrase)

CONVERSATION_TASKS = (THREAD_SUMMARY, REPHRASE)
"""The optional calls of the live conversation; each has its prompt file."""
