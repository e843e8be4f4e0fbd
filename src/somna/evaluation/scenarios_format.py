"""Client-memory scenarios: the file format, read and checked, and its keyword matching.

A scenario is one client's conversations with a business's chat agent, in English or
French, with what a memory should make of them once consolidated: the gold facts,
the values that changed, the contradictions left unsettled, the questions the agent
may be asked later and questions nothing stored answers. Gold items are lists of
keyword groups: a text matches when every group has one alternative in it
(case-folded substrings, accents kept).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)

from somna.errors import InvalidInputError

__all__ = [
    "GoldConflict",
    "GoldFact",
    "Keywords",
    "OutdatedValue",
    "Scenario",
    "ScenarioMessage",
    "ScenarioQuestion",
    "ScenarioSession",
    "matches",
    "read_json",
    "read_scenarios",
]

_Word = Annotated[str, StringConstraints(min_length=1)]
_Group = Annotated[list[_Word], Field(min_length=1)]
Keywords = list[_Group]
"""Keyword groups: every group must have one of its alternatives in the text."""


def matches(groups: Sequence[Sequence[str]], text: str) -> bool:
    """Whether every group has an alternative in `text` (case-folded, accents kept).

    >>> matches([["14", "fourteen"], ["desk"]], "Needs 14 desks from May.")
    True
    >>> matches([["décembre"]], "in Decembre")
    False
    """
    folded = text.casefold()
    return all(any(alt.casefold() in folded for alt in group) for group in groups)


class _Item(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class ScenarioMessage(_Item):
    role: Literal["user", "assistant", "system", "tool"]
    content: Annotated[str, StringConstraints(min_length=1)]
    at: AwareDatetime


class ScenarioSession(_Item):
    key: Annotated[str, StringConstraints(min_length=1)]
    messages: Annotated[list[ScenarioMessage], Field(min_length=1)]

    @property
    def last_at(self) -> datetime:
        return max(m.at for m in self.messages)


class GoldFact(_Item):
    id: str
    about: str = ""
    category: str | None = None
    keywords: Annotated[Keywords, Field(min_length=1)]


class OutdatedValue(_Item):
    id: str
    about: str = ""
    replaced_by: str | None = None
    keywords: Annotated[Keywords, Field(min_length=1)]


class GoldConflict(_Item):
    id: str
    about: str = ""
    a_keywords: Annotated[Keywords, Field(min_length=1)]
    b_keywords: Annotated[Keywords, Field(min_length=1)]


class ScenarioQuestion(_Item):
    q: Annotated[str, StringConstraints(min_length=1)]
    q_other: Annotated[str, StringConstraints(min_length=1)] | None = None
    """The same question in the scenario's other language."""
    answer_fact: str | None = None
    answer_keywords: Annotated[Keywords, Field(min_length=1)]
    not_keywords: Keywords = []
    """The stale value's keywords; empty when there is nothing stale to check."""


class Scenario(_Item):
    """One scenario file; `path` is where it was read from."""

    id: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,100}$")]
    language: Literal["en", "fr"]
    user: str = ""
    sessions: Annotated[list[ScenarioSession], Field(min_length=1)]
    facts: list[GoldFact] = []
    outdated: list[OutdatedValue] = []
    conflicts: list[GoldConflict] = []
    questions: list[ScenarioQuestion] = []
    unrelated_questions: list[Annotated[str, StringConstraints(min_length=1)]] = []
    unrelated_questions_other: list[Annotated[str, StringConstraints(min_length=1)]] | None = None
    """The unrelated questions in the other language, in the same order."""
    path: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        keys = [s.key for s in self.sessions]
        if len(set(keys)) != len(keys):
            raise ValueError("two sessions share a key")
        other = self.unrelated_questions_other
        if other is not None and len(other) != len(self.unrelated_questions):
            raise ValueError("unrelated_questions_other must list as many as unrelated_questions")
        return self

    @property
    def client_messages(self) -> int:
        """How many messages the client (role user) wrote."""
        return sum(m.role == "user" for s in self.sessions for m in s.messages)


def read_scenarios(paths: Sequence[Path]) -> list[Scenario]:
    """The scenarios of these files, and of every `*.json` in these folders, checked.

    A file that cannot be read, is not JSON or breaks the format raises
    `InvalidInputError` naming the file and the field, before anything is evaluated;
    so do two scenarios with the same id.
    """
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(path.glob("*.json"))
            if not found:
                raise InvalidInputError(f"The folder {path} holds no scenario file (*.json).")
            files += found
        else:
            files.append(path)
    scenarios: dict[str, Scenario] = {}
    for file in files:
        scenario = _read(file)
        if scenario.id in scenarios:
            raise InvalidInputError(
                f"{file} and {scenarios[scenario.id].path} both hold scenario {scenario.id!r}."
            )
        scenarios[scenario.id] = scenario
    return list(scenarios.values())


def read_json(path: Path) -> Any:
    """The JSON data of a file; one that cannot be read or parsed is refused, named."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InvalidInputError(f"Cannot read {path}: {exc.strerror or exc}.") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"{path} is not a JSON file: {exc}.") from exc


def _read(path: Path) -> Scenario:
    data = read_json(path)
    if not isinstance(data, dict):
        raise InvalidInputError(f"{path} is not a scenario: it should hold one JSON object.")
    try:
        return Scenario.model_validate({**data, "path": str(path)})
    except ValidationError as exc:
        error = exc.errors()[0]
        where = _location(error["loc"])
        message = error["msg"].removeprefix("Value error, ")
        field = f" in '{where}'" if where else ""
        raise InvalidInputError(f"{path} is not a valid scenario{field}: {message}.") from None


def _location(loc: Sequence[int | str]) -> str:
    """`questions[2].answer_keywords` from pydantic's ('questions', 2, 'answer_keywords')."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text
