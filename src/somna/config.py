"""Settings: defaults, then an optional `somna.toml`, then `SOMNA_*` environment variables.

`SETTINGS` is the one table of every setting (name, default, help); the README's
configuration section is checked against it by a test. Nothing is read from the
environment at import time: `Settings.load()` reads it when asked.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from somna.errors import ConfigurationError

__all__ = ["SETTINGS", "Settings"]

_PREFIX = "SOMNA_"


class Settings(BaseModel):
    """Every setting of Somna, with its default; the defaults need no key and no server."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    db: str = Field(
        default="somna.db",
        description="Where facts live: a SQLite file path (the embedded default).",
    )
    embedder: str = Field(
        default="bundled",
        description="`bundled` (all-MiniLM-L6-v2, offline) or `openai` (any OpenAI-compatible "
        "/embeddings endpoint).",
    )
    embed_model: str | None = Field(
        default=None, description="Model name for the `openai` embedder."
    )
    embed_base_url: str | None = Field(
        default=None,
        description="Base URL of the `openai` embedder, e.g. http://localhost:11434/v1.",
    )
    embed_api_key: str | None = Field(
        default=None,
        description="API key of the `openai` embedder; OPENAI_API_KEY is used only when no base "
        "URL is set.",
    )
    neighbor_floor: float = Field(
        default=0.80,
        ge=0.0,
        le=1.0,
        description="Cosine similarity from which an existing fact counts as a neighbour of a new "
        "one, to be judged duplicate, superseded, contradicted or distinct.",
    )
    judge_floor: float = Field(
        default=0.60,
        ge=0.0,
        le=1.0,
        description="Cosine similarity from which the nightly job asks its judge about a pair of "
        "facts of one subject; lower than neighbor_floor because a changed value (Paris, then "
        "Berlin) moves a sentence's embedding more than a paraphrase does.",
    )
    recency_weight: float = Field(
        default=0.1,
        ge=0,
        le=1,
        description="How much recall favours recent facts (0 to 1; the three weights add up to "
        "at most 1).",
    )
    confidence_weight: float = Field(
        default=0.1, ge=0, le=1, description="How much recall favours confident facts."
    )
    strength_weight: float = Field(
        default=0.1,
        ge=0,
        le=1,
        description="How much recall favours facts still strong on the forgetting curve.",
    )
    recency_half_life_days: float = Field(
        default=365.0,
        gt=0,
        description="Age, in days, at which a fact's recency counts half.",
    )
    query_rewrite: bool = Field(
        default=False,
        description="Rewrite follow-up questions into standalone queries with the LLM before "
        "recall (costs one LLM call per recall).",
    )
    defer_days: float = Field(
        default=7.0,
        gt=0,
        description="How long a deferred conflict stays out of the open list before it comes back.",
    )
    llm_provider: str = Field(
        default="rules",
        description="Who reads conversations at night: `rules` (offline, English and French) or "
        "`openai` (any OpenAI-compatible chat endpoint).",
    )
    llm_model: str | None = Field(
        default=None, description="Model name for the `openai` provider, e.g. gpt-4o-mini."
    )
    llm_base_url: str | None = Field(
        default=None,
        description="Base URL of the `openai` provider (falls back to OPENAI_BASE_URL), e.g. "
        "http://localhost:11434/v1 for Ollama.",
    )
    llm_api_key: str | None = Field(
        default=None,
        description="API key of the `openai` provider (falls back to OPENAI_API_KEY).",
    )
    idle_hours: float = Field(
        default=3.0,
        ge=0,
        description="How long a conversation must be quiet before the nightly job consolidates it.",
    )
    archive_days: float = Field(
        default=7.0,
        ge=0,
        description="How long the messages of a consolidated conversation are kept before purge.",
    )
    ttl_days: dict[str, float] = Field(
        default_factory=lambda: {"intent": 30.0, "plan": 90.0, "preference": 730.0},
        description="Time to live per fact category, in days since last seen (JSON in the "
        "environment); categories not listed never expire.",
    )
    stability_days: float = Field(
        default=30.0,
        gt=0,
        description="Ebbinghaus stability of a new fact, in days; each recall adds as much again.",
    )
    lease_minutes: float = Field(
        default=15.0,
        gt=0,
        description="How long a consolidation worker holds a session before another may take it.",
    )

    @field_validator("ttl_days", mode="before")
    @classmethod
    def _parse_ttl(cls, value: object) -> object:
        if isinstance(value, str):
            try:
                return json.loads(value)
            except json.JSONDecodeError as exc:
                raise ValueError(
                    'write it as JSON, e.g. {"preference": 730, "intent": 30}'
                ) from exc
        return value

    @classmethod
    def load(
        cls,
        config_file: str | Path | None = None,
        environ: Mapping[str, str] | None = None,
        **overrides: Any,
    ) -> Settings:
        """Layer the defaults, the TOML file, the environment, then explicit overrides.

        The file is `config_file`, else `$SOMNA_CONFIG`, else `./somna.toml` when present.
        """
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        path = Path(config_file or env.get(f"{_PREFIX}CONFIG") or "somna.toml")
        if config_file is not None or f"{_PREFIX}CONFIG" in env or path.exists():
            values.update(_read_toml(path))
        for name in cls.model_fields:
            key = f"{_PREFIX}{name.upper()}"
            if key in env:
                values[name] = env[key]
        values.update({k: v for k, v in overrides.items() if v is not None})
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            problem = exc.errors()[0]
            field = ".".join(str(part) for part in problem["loc"])
            raise ConfigurationError(
                f"The setting {field!r} is invalid: {problem['msg']}. Check {_PREFIX}"
                f"{field.upper()} or {path}."
            ) from exc


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as file:
            data = tomllib.load(file)
    except FileNotFoundError as exc:
        raise ConfigurationError(f"The configuration file {str(path)!r} does not exist.") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigurationError(
            f"The configuration file {str(path)!r} is not valid TOML: {exc}."
        ) from exc
    section = data.get("somna", data)
    if not isinstance(section, dict):
        raise ConfigurationError(f"The [somna] section of {str(path)!r} must be a table.")
    return section


SETTINGS: list[tuple[str, Any, str]] = [
    (
        f"{_PREFIX}{name.upper()}",
        field.get_default(call_default_factory=True),
        field.description or "",
    )
    for name, field in Settings.model_fields.items()
]
"""(environment variable, default, help) for every setting, in declaration order."""
