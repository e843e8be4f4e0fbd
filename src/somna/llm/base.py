"""The one shape every language model has in Somna: a structured call that returns validated JSON.

A `Task` names one kind of call (its prompt file, its input model, its output model);
an `LLM` answers any task with a `Reply` whose `value` is an instance of the task's
output model, never a partial one. Providers differ only in how they get there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ValidationError

from somna.errors import InvalidInputError, LLMError

__all__ = ["LLM", "LLMCallError", "Reply", "Task"]

InT = TypeVar("InT", bound=BaseModel)
OutT = TypeVar("OutT", bound=BaseModel)
T = TypeVar("T", bound=BaseModel)


@dataclass(frozen=True)
class Task(Generic[InT, OutT]):
    """One kind of structured call: what goes in, what must come out, and the prompt between.

    ``render`` turns the inputs into the template variables of ``prompt`` (a file under
    ``somna/llm/prompts/``, ``<name>.md`` unless given); ``check``, when given, rejects an
    output that is well-formed but does not answer these inputs (say, a verdict for a pair
    nobody asked about) by raising ``ValueError``.
    """

    name: str
    input_model: type[InT]
    output_model: type[OutT]
    render: Callable[[InT], Mapping[str, str]]
    check: Callable[[InT, OutT], None] | None = None
    prompt: str = ""

    def __post_init__(self) -> None:
        if not self.prompt:
            object.__setattr__(self, "prompt", f"{self.name}.md")

    def coerce(self, inputs: InT | Mapping[str, object]) -> InT:
        """The inputs as the task's input model; a plain mapping is validated into one.

        Raises `InvalidInputError` when the mapping does not fit: a caller's mistake, not
        the model's.
        """
        if isinstance(inputs, self.input_model):
            return inputs
        try:
            return self.input_model.model_validate(inputs)
        except ValidationError as exc:
            problem = exc.errors()[0]
            where = ".".join(str(part) for part in problem["loc"]) or "inputs"
            raise InvalidInputError(
                f"The inputs of the {self.name!r} task do not fit "
                f"{self.input_model.__name__}: {where}: {problem['msg']}."
            ) from None


@dataclass(frozen=True)
class Reply(Generic[T]):
    """A validated answer and what it cost; ``calls`` counts every HTTP attempt, retries too."""

    value: T
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 1


@runtime_checkable
class LLM(Protocol):
    """A language model seen through one door: ``structured(task, inputs) -> Reply``.

    An implementation returns an instance of ``task.output_model`` or raises `LLMError`
    (a sentence naming the task and what went wrong); it never returns a partial value.
    """

    @property
    def name(self) -> str:
        """Provider and model, e.g. ``openai:gpt-4o-mini`` or ``rules``; recorded with each run."""
        ...

    def structured(self, task: Task[InT, OutT], inputs: InT) -> Reply[OutT]:
        """Answer one task; the value is validated against ``task.output_model``."""
        ...


class LLMCallError(LLMError):
    """A structured call that failed, with what it cost before failing.

    Consolidation counts these calls and tokens in its run even when the session fails:
    a user pays for them all the same.
    """

    def __init__(
        self,
        message: str,
        *,
        task: str,
        calls: int = 0,
        prompt_tokens: int = 0,
        completion_tokens: int = 0,
    ) -> None:
        super().__init__(message)
        self.task = task
        self.calls = calls
        self.prompt_tokens = prompt_tokens
        self.completion_tokens = completion_tokens
