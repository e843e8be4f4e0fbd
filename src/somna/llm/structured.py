"""JSON out of a model, with no I/O: the strict schema sent, the tolerant parse, the validation.

These are shared by every HTTP provider. A reply is accepted only when it parses to one
JSON object that validates against the task's output model and passes the task's check.
"""

from __future__ import annotations

import copy
import json
import re
from functools import lru_cache
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from somna.llm.base import Task

__all__ = [
    "NoJSONError",
    "ReplyShapeError",
    "describe_validation_error",
    "parse_json_object",
    "strict_schema",
    "validate_reply",
]

InT = TypeVar("InT", bound=BaseModel)
OutT = TypeVar("OutT", bound=BaseModel)

# Keywords that OpenAI's strict mode (and some local grammars) refuse or that only cost
# tokens; pydantic checks the answer against the full model afterwards anyway.
_DROPPED = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "format",
        "pattern",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
    }
)
_THINKING = re.compile(r"<think(?:ing)?>.*?</think(?:ing)?>", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)


class ReplyShapeError(ValueError):
    """A reply that is not the JSON object the task asked for; the message says why."""


class NoJSONError(ReplyShapeError):
    """A reply with no JSON object in it at all: the server ignored the format asked for."""


def strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema in the subset strict structured outputs accept.

    References are inlined (no ``$defs``), every object lists all its properties as
    required and forbids others, and validation-only keywords are dropped. Optional
    fields stay nullable (``anyOf`` with ``null``), which is how strict mode spells them.
    Each request gets its own copy of a schema built once per model: building it took
    a tenth of a night's consolidation time.
    """
    return copy.deepcopy(_strict_schema(model))


@lru_cache(maxsize=64)
def _strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    raw = model.model_json_schema()
    definitions: dict[str, Any] = raw.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            target = definitions[node["$ref"].rsplit("/", 1)[-1]]
            return walk({**target, **{k: v for k, v in node.items() if k != "$ref"}})
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "properties":  # field names, not keywords: keep every one
                out[key] = {name: walk(sub) for name, sub in value.items()}
            elif key not in _DROPPED:
                out[key] = walk(value)
        if out.get("type") == "object":
            properties = out.setdefault("properties", {})
            out["required"] = list(properties)
            out["additionalProperties"] = False
        return out

    schema: dict[str, Any] = walk(raw)
    return schema


def parse_json_object(text: str) -> dict[str, Any]:
    """The first JSON object in a model's text, forgiving fences, prose and thinking blocks."""
    cleaned = _THINKING.sub("", text).strip()
    candidates = [cleaned, *(match.group(1).strip() for match in _FENCE.finditer(cleaned))]
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", cleaned):
        try:
            value, _ = decoder.raw_decode(cleaned, match.start())
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    shown = cleaned if len(cleaned) <= 80 else cleaned[:77] + "..."
    raise NoJSONError(f"the reply holds no JSON object: {shown!r}")


def describe_validation_error(error: ValidationError) -> str:
    """At most three problems of a validation error, each as ``where: what``."""
    problems = []
    for item in error.errors()[:3]:
        where = ".".join(str(part) for part in item["loc"]) or "the reply"
        problems.append(f"{where}: {item['msg']}")
    more = error.error_count() - len(problems)
    return "; ".join(problems) + (f" (and {more} more)" if more > 0 else "")


def validate_reply(task: Task[InT, OutT], inputs: InT, text: str | None) -> OutT:
    """The task's output model from a reply's text, or `ReplyShapeError` saying what is wrong."""
    if text is None or not text.strip():
        raise NoJSONError("the reply is empty")
    data = parse_json_object(text)
    try:
        value = task.output_model.model_validate(data)
    except ValidationError as exc:
        raise ReplyShapeError(
            f"the JSON does not fit {task.output_model.__name__}: {describe_validation_error(exc)}"
        ) from None
    if task.check is not None:
        try:
            task.check(inputs, value)
        except ValueError as exc:
            raise ReplyShapeError(str(exc)) from None
    return value
