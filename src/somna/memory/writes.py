"""What a write takes, declared once: the CLI, the REST API and the MCP tools all build these.

`Memory.add_fact` takes a `NewFact` (or a text and its fields), `Memory.update` a
`FactChanges`. The REST request bodies subclass them, so a field, its bounds and its
description live here only; the domain (`somna.model.Fact`) still checks meaning.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

from somna.errors import InvalidInputError
from somna.memory.inputs import as_enum, checked, no_nul, not_a_number
from somna.model import FactType

__all__ = ["FactChanges", "Instant", "NewFact", "fact_changes", "new_fact"]


def _utc(value: datetime) -> datetime:
    try:
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    except OverflowError:
        raise ValueError("the date is out of range once converted to UTC") from None


Instant = Annotated[datetime, BeforeValidator(not_a_number), AfterValidator(_utc)]
"""An ISO 8601 date-time; one without a zone is taken to be UTC; a number is refused."""

Text = Annotated[
    str, Field(min_length=1, max_length=2000, description="One self-contained sentence.")
]
Category = Annotated[
    str | None,
    Field(max_length=64, description="A free label such as preference, health or work."),
    AfterValidator(no_nul),
]
Subject = Annotated[
    str | None,
    Field(max_length=200, description="Who or what it is about (default: the user)."),
    AfterValidator(no_nul),
]
Confidence = Annotated[float, Field(ge=0.0, le=1.0, description="How sure the source is, 0 to 1.")]


class NewFact(BaseModel):
    """A fact to store with `Memory.add_fact`: what it says, and what is known about it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: Text
    type: FactType = FactType.FACT
    category: Category = None
    subject: Subject = None
    predicate: str | None = Field(default=None, max_length=200)
    object: str | None = Field(default=None, max_length=500)
    confidence: Confidence = 0.7
    verified: bool = Field(
        default=False, description="Stated or confirmed by the person (an agent's rule waits)."
    )
    valid_from: Instant | None = Field(default=None, description="Since when it is true (now).")
    valid_to: Instant | None = Field(default=None, description="Until when it is true (open).")
    expires_at: Instant | None = Field(default=None, description="When it stops being recalled.")
    quote: str | None = Field(
        default=None, min_length=1, max_length=4000, description="The words it comes from."
    )


class FactChanges(BaseModel):
    """A correction with `Memory.update`: the fields to change, the others kept."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: Text | None = None
    type: FactType | None = None
    category: Category = None
    subject: Subject = None
    confidence: Confidence | None = None

    def given(self) -> dict[str, Any]:
        """The fields to change; refused when there is none."""
        given = {name: value for name, value in self if value is not None}
        if not given:
            raise InvalidInputError(
                "Nothing to change: give a new text, type, category, subject or confidence."
            )
        return given


def new_fact(fact: NewFact | str, fields: dict[str, Any]) -> NewFact:
    """`fact`, or the fact of that text and those fields, checked."""
    if isinstance(fact, NewFact):
        if fields:
            raise InvalidInputError("Give the fact's fields in the NewFact, not beside it.")
        return fact
    return checked(lambda: NewFact(text=fact, **_typed(fields)))


def fact_changes(changes: FactChanges | None, fields: dict[str, Any]) -> FactChanges:
    """`changes`, or the changes given as fields, checked."""
    if changes is not None:
        if fields:
            raise InvalidInputError("Give the changes in the FactChanges, not beside it.")
        return changes
    return checked(lambda: FactChanges(**_typed(fields)))


def _typed(fields: dict[str, Any]) -> dict[str, Any]:
    """The fields with a fact type given by name checked, for a message listing the types."""
    if fields.get("type") is None:
        return fields
    return {**fields, "type": as_enum(FactType, fields["type"], "fact type")}
