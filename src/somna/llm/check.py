"""`somna llm check`: what the configured endpoint offers, and how Somna will ask it for JSON.

One pass over the endpoint: the models it lists (is ours loaded? what context and output
limits does it report?), then one tiny structured call in each JSON mode, timed. The
report names the mode Somna will use and why, and one sentence per problem found (no
key, wrong base URL, model not loaded, schema refused, reply cut). Nothing is learned
for later calls: each probe is asked on its own.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

from somna.config import Settings
from somna.errors import SomnaError
from somna.llm.base import LLMCallError, Task
from somna.llm.factory import openai_options
from somna.llm.openai import MODES, FormatRefusedError, OpenAILLM
from somna.llm.structured import ReplyShapeError
from somna.redact import redact

__all__ = ["PROBE", "CheckReport", "ModeProbe", "check_llm"]

_PROBE_WORD = "lantern"
_PROBE_TOKENS = 64  # the answer takes about 8; a model that rambles is cut fast
_CONTEXT_KEYS = ("max_model_len", "context_length", "max_context_length", "n_ctx", "n_ctx_train")
_OUTPUT_KEYS = ("max_output_tokens", "max_completion_tokens", "max_tokens")


class ProbeWord(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    word: str


class ProbeAnswer(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    word: str


def _check_probe(asked: ProbeWord, answer: ProbeAnswer) -> None:
    if answer.word.strip(" .,;:!?\"'").casefold() != asked.word.casefold():
        raise ValueError(f"the model answered {answer.word!r} instead of {asked.word!r}")


PROBE = Task(
    "probe", ProbeWord, ProbeAnswer, render=lambda asked: {"word": asked.word}, check=_check_probe
)
"""The smallest structured call: repeat one word as ``{"word": …}``."""


@dataclass(frozen=True)
class ModeProbe:
    """One JSON mode tried once: did it work, how long it took, what went wrong."""

    mode: str
    works: bool
    seconds: float
    folded: bool = False
    """Whether the system message went folded into the user's when it worked."""
    problem: str | None = None
    """What went wrong, as the report says it."""


@dataclass
class CheckReport:
    """What the check found; `mode` is None when no mode works (or there is no endpoint)."""

    provider: str
    base_url: str | None = None
    model: str | None = None
    models: list[str] = field(default_factory=list)
    context_limit: int | None = None
    output_limit: int | None = None
    probes: list[ModeProbe] = field(default_factory=list)
    mode: str | None = None
    folds_system: bool = False
    why: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def usable(self) -> bool:
        return self.provider != "openai" or self.mode is not None

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "usable": self.usable}


def check_llm(settings: Settings, environ: Mapping[str, str] | None = None) -> CheckReport:
    """Probe the configured endpoint once (no retries) and say how Somna will use it."""
    provider = settings.llm_provider.strip().lower()
    if provider != "openai":
        return CheckReport(
            provider=provider,
            why=f"The {provider!r} provider runs offline in this process: there is no endpoint "
            "to check. Set SOMNA_LLM_PROVIDER=openai to use a model server.",
        )
    options = openai_options(settings)
    options.update(max_retries=0, max_tokens={**options["max_tokens"], "probe": _PROBE_TOKENS})
    report = CheckReport(provider=provider, base_url=redact(settings.llm_base_url or ""))
    try:
        llm = OpenAILLM.from_env(environ, **{k: v for k, v in options.items() if v is not None})
    except SomnaError as exc:
        report.problems.append(_no_key(str(exc)))
        report.why = "Somna cannot call the model until the settings are complete."
        return report
    with llm:
        report.base_url, report.model = llm.base_url, llm.model
        if not _list_models(llm, report):
            report.why = "Nothing usable answers at this base URL."
            return report
        _probe_modes(llm, report)
    return report


def _no_key(message: str) -> str:
    if "API key" in message:
        return f"No API key: {message}"
    return message


def _list_models(llm: OpenAILLM, report: CheckReport) -> bool:
    """Fill the models and limits; False when the endpoint is unreachable or wrong."""
    import openai

    where = llm.base_url
    try:
        entries = llm.list_models()
    except openai.AuthenticationError:
        report.problems.append(f"Key refused: {where} answered HTTP 401; check SOMNA_LLM_API_KEY.")
        return False
    except openai.NotFoundError:
        report.problems.append(
            f"Wrong base URL: {where} has no /models route; an OpenAI-compatible server's base "
            "URL usually ends in /v1."
        )
        return False
    except openai.APIStatusError as exc:
        report.problems.append(f"The models list at {where} answered HTTP {exc.status_code}.")
        return True  # some servers list no models yet answer chats: still probe
    except (openai.APIConnectionError, ValueError) as exc:
        report.problems.append(
            f"Wrong base URL or server down: nothing usable answers at {where} "
            f"({redact(type(exc).__name__)})."
        )
        return False
    report.models = [str(entry.get("id")) for entry in entries if entry.get("id")]
    mine = next((e for e in entries if _same_model(str(e.get("id", "")), llm.model)), None)
    if mine is None:
        offered = ", ".join(report.models[:8]) or "none"
        report.problems.append(
            f"Model not loaded: {where} does not list {llm.model!r} (it offers: {offered}); "
            "set SOMNA_LLM_MODEL to one of them or load the model on the server."
        )
    else:
        report.context_limit = _limit(mine, _CONTEXT_KEYS)
        report.output_limit = _limit(mine, _OUTPUT_KEYS)
    return True


def _same_model(listed: str, wanted: str) -> bool:
    """Ollama lists ``llama3.1:latest`` for ``llama3.1``; llama.cpp lists the file path."""
    return listed == wanted or listed == f"{wanted}:latest" or listed.endswith(f"/{wanted}")


def _limit(entry: Mapping[str, Any], keys: tuple[str, ...]) -> int | None:
    for scope in (entry, entry.get("meta") or {}):
        if isinstance(scope, Mapping):
            for key in keys:
                value = scope.get(key)
                if isinstance(value, int) and value > 0:
                    return value
    return None


def _probe_modes(llm: OpenAILLM, report: CheckReport) -> None:
    asked = ProbeWord(word=_PROBE_WORD)
    for mode in MODES:
        report.probes.append(_probe(llm, asked, mode))
    working = [p for p in report.probes if p.works]
    failed = [p for p in report.probes if not p.works]
    for probe in failed:
        report.problems.append(_problem_line(probe))
    if not working:
        report.why = "No JSON mode gave a usable answer; consolidation would fail every session."
        return
    chosen = working[0]
    report.mode, report.folds_system = chosen.mode, chosen.folded
    before = [p.mode for p in report.probes[: report.probes.index(chosen)]]
    because = f" because {', '.join(before)} did not work" if before else ""
    fold = (
        "; the instructions go in the user message (the chat template drops the system one)"
        if chosen.folded
        else ""
    )
    report.why = f"Somna will ask for JSON with {chosen.mode}{because}{fold}."


def _probe(llm: OpenAILLM, asked: ProbeWord, mode: str) -> ModeProbe:
    start = time.perf_counter()
    folded = llm.folds_system
    problem: str | None = None
    for fold in (folded, True) if not folded else (True,):
        try:
            llm.ask_once(PROBE, asked, mode, fold=fold)
        except FormatRefusedError as exc:
            problem = f"refused: {exc}"
            break
        except ReplyShapeError as exc:
            problem = f"answered out of shape: {exc}"
            continue
        except LLMCallError as exc:
            problem = str(exc)
            break
        return ModeProbe(mode, True, round(time.perf_counter() - start, 3), folded=fold)
    return ModeProbe(mode, False, round(time.perf_counter() - start, 3), problem=problem)


def _problem_line(probe: ModeProbe) -> str:
    problem = probe.problem or "no answer"
    if "cut at its output limit" in problem:
        return f"Reply cut in {probe.mode}: {problem}"
    if problem.startswith("refused: "):
        return f"Schema refused: the server refused {probe.mode} ({problem[9:]})."
    return f"{probe.mode} does not work: {problem}"
