"""The two bases of every wire shape of the REST API: a strict request body, a response document.

A request body refuses unknown fields (a misspelt field is a 422 rather than
silently ignored), coerces no JSON type and checks every text to be storable,
so both stores take the same requests. A response document is built with
`XOut.model_validate(domain_object)`.
"""

from __future__ import annotations

import json
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator

__all__ = ["RequestBody", "ResponseBody"]


def _check_text(value: Any) -> None:
    """Every text of a request, however nested, is valid Unicode without NUL (which Postgres
    cannot store and SQLite would): both stores take the same requests."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("the text contains invalid Unicode (a lone surrogate)") from None
        if "\x00" in value:
            raise ValueError("the text contains a NUL character, which cannot be stored")
    elif isinstance(value, list | tuple):
        for item in value:
            _check_text(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key)
            _check_text(item)


_SCALARS: dict[type, tuple[tuple[type, ...], str]] = {
    bool: ((bool,), "must be true or false"),
    int: ((int,), "must be a whole number"),
    float: ((int, float), "must be a number"),
}


def _scalar(annotation: Any) -> tuple[tuple[type, ...], str] | None:
    """What JSON values a field of type bool, int or float (or optional) accepts, and why."""
    if get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    if annotation in _SCALARS:
        return _SCALARS[annotation]
    union = isinstance(annotation, UnionType) or get_origin(annotation) is Union
    members = [
        get_args(a)[0] if get_origin(a) is Annotated else a
        for a in (get_args(annotation) if union else ())
        if a is not type(None)
    ]
    return _SCALARS[members[0]] if len(members) == 1 and members[0] in _SCALARS else None


class RequestBody(BaseModel):
    """A request body: unknown fields refused, text checked to be valid Unicode, and no
    coercion of JSON types (`"verified": "yes"` or `"idle_hours": false` is a 422, not a
    guess). Dates and enum values still come as JSON strings."""

    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="before")
    @classmethod
    def _json_type(cls, value: Any, info: ValidationInfo) -> Any:
        field = cls.model_fields.get(info.field_name or "")
        wanted = None if field is None else _scalar(field.annotation)
        if wanted is not None and value is not None:
            kinds, rule = wanted
            if isinstance(value, bool) != (bool in kinds) or not isinstance(value, kinds):
                raise ValueError(f"{info.field_name} {rule}, not {json.dumps(value)}")
        return value

    @field_validator("*", mode="after")
    @classmethod
    def _valid_unicode(cls, value: Any) -> Any:
        _check_text(value)
        return value


class ResponseBody(BaseModel):
    """A response document, built from a domain object with `model_validate`."""

    model_config = ConfigDict(from_attributes=True)
