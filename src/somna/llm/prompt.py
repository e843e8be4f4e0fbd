"""Prompt files and their rendering: a pure function from a task and its inputs to messages.

A prompt file (``somna/llm/prompts/<task>.md``) holds the instructions, then a line
``<!-- input -->``, then the template of the user message. Both parts are
`string.Template` texts (``$name``), so the JSON braces of an instruction need no escaping.
The instructions come first and do not vary, which lets a provider cache that prefix.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from string import Template
from typing import TypeVar

from pydantic import BaseModel

from somna.llm.base import Task

InT = TypeVar("InT", bound=BaseModel)
OutT = TypeVar("OutT", bound=BaseModel)

__all__ = ["INPUT_MARKER", "Prompt", "load_prompt", "render_prompt"]

INPUT_MARKER = "<!-- input -->"


@dataclass(frozen=True)
class Prompt:
    """A rendered prompt: the instructions (system message) and the data (user message)."""

    system: str
    user: str

    def messages(self) -> list[dict[str, str]]:
        """The chat messages of an OpenAI-style request."""
        return [{"role": "system", "content": self.system}, {"role": "user", "content": self.user}]

    def folded(self) -> list[dict[str, str]]:
        """One user message holding the instructions then the data, for chat templates that
        drop the system role (Gemma's, in llama-cpp-python)."""
        return [{"role": "user", "content": self.text}]

    @property
    def text(self) -> str:
        return f"{self.system}\n\n{self.user}"


@functools.cache
def load_prompt(name: str) -> tuple[Template, Template]:
    """The (instructions, input) templates of a prompt file, read once."""
    text = resources.files("somna.llm").joinpath("prompts", name).read_text(encoding="utf-8")
    system, marker, user = text.partition(INPUT_MARKER)
    if not marker:
        raise ValueError(f"The prompt file {name!r} has no {INPUT_MARKER!r} line.")
    return Template(system.strip()), Template(user.strip())


def render_prompt(task: Task[InT, OutT], inputs: InT) -> Prompt:
    """The prompt of one call; a missing template variable is a programming error (KeyError)."""
    system, user = load_prompt(task.prompt)
    values = dict(task.render(inputs))
    return Prompt(system=system.substitute(values), user=user.substitute(values))
