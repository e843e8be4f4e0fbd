"""Structured calls to any OpenAI-compatible chat endpoint: OpenAI, llama.cpp, Ollama, vLLM…

Four ways to ask for JSON, tried in order until one works:

1. ``json_schema``: the output model's schema, made strict-compatible (constrained output;
   OpenAI, vLLM, Ollama, LM Studio, llama.cpp's own server);
2. ``json_object_schema``: ``{"type": "json_object", "schema": …}``, the grammar-constrained
   form of llama-cpp-python's server, which refuses ``json_schema``;
3. ``json_object``: "some JSON object" (the prompt shows its shape);
4. ``text``: no ``response_format`` at all, and a tolerant parse (fences, prose, thinking).

Any error whose body names the response format refuses that mode, whatever its HTTP
status (llama-cpp-python answers 500): the next mode is asked at once, without retry.
What works is remembered per (base URL, model) for the rest of the process, so one run
pays for the discovery once. A reply with no JSON of the right shape is asked again in
the next mode; the weaker mode is remembered only when the format was at fault.

Each call sends a completion budget (``max_tokens``) per task; a reply cut at it
(``finish_reason: length``) is asked once more with twice the budget. 429, 5xx and
dropped connections are retried with exponential backoff. Timeouts are not retried
unless ``retry_timeouts``: a server that answers one request at a time (llama.cpp,
LM Studio) keeps working on the abandoned request, so a retry only queues behind it.

Some chat templates (Gemma's in llama-cpp-python) drop the system message. With
``fold_system="auto"``, a first reply out of shape is asked again with the instructions
folded into the user message, and the endpoint is remembered as one that needs it;
``"always"`` folds every call, ``"never"`` none.

The ``openai`` package's own retries are off so that `Reply.calls` counts every attempt.
Errors are passed through `somna.redact.redact`: no key or URL password leaves here.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Self

from somna.config import Settings, variable_of
from somna.errors import ConfigurationError, InvalidInputError
from somna.llm.backoff import SharedBackoff
from somna.llm.base import InT, LLMCallError, OutT, Reply, Task
from somna.llm.endpoint import OPENAI_BASE_URL, endpoint_from_env, is_openai, password_of
from somna.llm.modes import (
    MODES,
    FormatRefusedError,
    learned,
    refuses_format,
    response_format,
    server_message,
)
from somna.llm.prompt import Prompt, render_prompt
from somna.llm.structured import NoJSONError, ReplyShapeError, validate_reply
from somna.redact import redact

if TYPE_CHECKING:
    import openai
    from openai.types.chat import ChatCompletion

__all__ = [
    "BUDGET_SETTINGS",
    "DEFAULT_MAX_TOKENS",
    "MODES",
    "OPENAI_BASE_URL",
    "FoldSystem",
    "FormatRefusedError",
    "OpenAILLM",
]

BUDGET_SETTINGS = {
    "extract": "llm_max_tokens_extract",
    "judge": "llm_max_tokens_judge",
    "rewrite": "llm_max_tokens_rewrite",
    "rephrase": "llm_max_tokens_rewrite",
}
"""The setting that holds each task's completion budget; a rephrasing has a rewrite's."""
DEFAULT_MAX_TOKENS: dict[str, int] = {
    task: Settings.model_fields[name].default for task, name in BUDGET_SETTINGS.items()
}
"""Completion budget per task, the settings' defaults; the others (thread summaries, the
`llm check` probe) get 512. A rewrite and rephrasings run while a user waits: a short budget
bounds a model that rambles."""
_OTHER_TASK_TOKENS = 512
FoldSystem = Literal["auto", "always", "never"]


@dataclass
class _Tally:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


class OpenAILLM:
    """A language model behind an OpenAI-compatible ``/chat/completions`` endpoint.

    ``base_url`` ``None`` means OpenAI itself, which needs ``api_key``; a self-hosted
    server gets the placeholder key "unused" unless one is given. Nothing is read from
    the environment here: `from_env` does that, with care for where a key may go.

    ``max_retries`` retries follow 429, 5xx and dropped connections (timeouts only with
    ``retry_timeouts``), waiting ``backoff * 2**n`` seconds (or the server's Retry-After),
    at most ``max_backoff``. ``max_tokens`` overrides `DEFAULT_MAX_TOKENS` per task name.
    ``temperature`` ``None`` leaves the server's default, since some models (reasoning
    ones) refuse any other value.

    Example::

        with OpenAILLM("llama3.1:8b", base_url="http://localhost:11434/v1") as llm:
            reply = llm.structured(EXTRACT, transcript)
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 120.0,
        max_retries: int = 2,
        backoff: float = 0.5,
        max_backoff: float = 30.0,
        temperature: float | None = None,
        max_tokens: Mapping[str, int] | None = None,
        retry_timeouts: bool = False,
        fold_system: FoldSystem = "auto",
    ) -> None:
        if not model:
            raise InvalidInputError("OpenAILLM needs a model name, e.g. 'gpt-4o-mini'.")
        if timeout <= 0:
            raise InvalidInputError(f"The LLM timeout must be positive, not {timeout}.")
        if max_retries < 0:
            raise InvalidInputError(f"max_retries must be 0 or more, not {max_retries}.")
        if backoff < 0 or max_backoff < 0:
            raise InvalidInputError("The backoff delays must not be negative.")
        budgets = {**DEFAULT_MAX_TOKENS, **(max_tokens or {})}
        if any(value < 1 for value in budgets.values()):
            raise InvalidInputError("Every LLM completion budget (max_tokens) must be 1 or more.")
        if fold_system not in ("auto", "always", "never"):
            raise InvalidInputError(
                f"fold_system must be 'auto', 'always' or 'never', not {fold_system!r}."
            )
        url = (base_url or OPENAI_BASE_URL).rstrip("/")
        if not api_key:
            if is_openai(url):
                raise ConfigurationError(
                    f"OpenAI at {url} needs an API key: set SOMNA_LLM_API_KEY (or "
                    "OPENAI_API_KEY), or set SOMNA_LLM_BASE_URL to a server of your own such "
                    "as Ollama (http://localhost:11434/v1)."
                )
            api_key = "unused"  # self-hosted servers ignore it; the client wants one
        import openai

        self._model = model
        self._base_url = url
        self._api_key = api_key
        self._timeout = timeout
        self._max_retries = max_retries
        self._backoff = backoff
        self._max_backoff = max_backoff
        self._temperature = temperature
        self._budgets = budgets
        self._retry_timeouts = retry_timeouts
        self._paused = SharedBackoff()
        self._fold_system = fold_system
        self._learned = learned(url, model)
        self._client: openai.OpenAI = openai.OpenAI(
            base_url=url, api_key=api_key, timeout=timeout, max_retries=0
        )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> OpenAILLM:
        """Settings from ``SOMNA_LLM_*`` variables, then ``OPENAI_*``; ``overrides`` win.

        ``SOMNA_LLM_BASE_URL``, ``SOMNA_LLM_MODEL`` and ``SOMNA_LLM_API_KEY`` come first;
        ``OPENAI_BASE_URL`` stands in for a missing base URL. ``OPENAI_API_KEY`` stands in
        for a missing key only when the request goes where that key is meant to go: to
        ``OPENAI_BASE_URL`` when it is set, else to OpenAI itself. So pointing Somna at a
        local or third-party server never leaks the OpenAI key to it. The model defaults
        to ``gpt-4o-mini`` on OpenAI and must be named for any other server.
        """
        env = os.environ if environ is None else environ
        url, api_key, model = endpoint_from_env(
            env,
            overrides.pop("base_url", None),
            overrides.pop("api_key", None),
            overrides.pop("model", None),
        )
        return cls(model, base_url=url, api_key=api_key, **overrides)

    @property
    def name(self) -> str:
        return f"openai:{self._model}"

    @property
    def model(self) -> str:
        return self._model

    @property
    def base_url(self) -> str:
        """The endpoint, fit to show: credentials masked."""
        return redact(self._base_url, self._api_key)

    @property
    def mode(self) -> str:
        """The way JSON is asked for in the next call (see `MODES`)."""
        return MODES[self._learned.first_mode]

    @property
    def folds_system(self) -> bool:
        """Whether the next call puts the instructions in the user message."""
        return self._fold_system == "always" or (
            self._fold_system == "auto" and self._learned.fold is True
        )

    def structured(self, task: Task[InT, OutT], inputs: InT) -> Reply[OutT]:
        inputs = task.coerce(inputs)
        prompt = render_prompt(task, inputs)
        tally = _Tally()
        tried: list[str] = []
        problem = ""
        format_at_fault = True  # did every stronger mode fail for the format's sake?
        learned = self._learned
        for index in range(learned.first_mode, len(MODES)):
            mode = MODES[index]
            tried.append(mode)
            try:
                value = self._in_mode(task, inputs, prompt, mode, tally)
            except FormatRefusedError as exc:
                learned.first_mode = max(learned.first_mode, index + 1)  # never ask again
                problem = str(exc)
                continue
            except ReplyShapeError as exc:
                format_at_fault = format_at_fault and isinstance(exc, NoJSONError)
                problem = str(exc)
                continue
            if format_at_fault:
                learned.first_mode = max(learned.first_mode, index)
            return Reply(value, tally.prompt_tokens, tally.completion_tokens, tally.calls)
        raise self._error(
            task, tally, f"answered out of shape (modes tried: {', '.join(tried)}): {problem}"
        )

    def ask_once(
        self, task: Task[InT, OutT], inputs: InT, mode: str, *, fold: bool = False
    ) -> OutT:
        """One request in one mode (two if cut), nothing learned.

        Raises `FormatRefusedError`, `ReplyShapeError` or `LLMCallError`; `somna llm
        check` uses it to probe each mode on its own.
        """
        inputs = task.coerce(inputs)
        return self._ask(task, inputs, render_prompt(task, inputs), mode, fold, _Tally())

    def list_models(self) -> list[dict[str, Any]]:
        """The server's ``/models`` entries as plain dicts; the client's errors propagate."""
        return [entry.model_dump() for entry in self._client.models.list()]

    def close(self) -> None:
        """Release the HTTP connection pool."""
        self._client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- one mode: where the instructions go, the completion budget ---------------------

    def _in_mode(
        self, task: Task[InT, OutT], inputs: InT, prompt: Prompt, mode: str, tally: _Tally
    ) -> OutT:
        """One mode; while the endpoint is new, a reply out of shape is asked again folded."""
        learned = self._learned
        fold = self.folds_system
        detecting = self._fold_system == "auto" and learned.fold is None
        try:
            value = self._ask(task, inputs, prompt, mode, fold, tally)
        except ReplyShapeError:
            if not detecting:
                raise
            try:
                value = self._ask(task, inputs, prompt, mode, True, tally)
            except ReplyShapeError:
                learned.fold = False  # folding did not help: the model, not the template
                raise
            learned.fold = True
            return value
        if detecting:
            learned.fold = False
        return value

    def _ask(
        self,
        task: Task[InT, OutT],
        inputs: InT,
        prompt: Prompt,
        mode: str,
        fold: bool,
        tally: _Tally,
    ) -> OutT:
        """One request (two if the reply is cut: the second with twice the budget)."""
        messages = prompt.folded() if fold else prompt.messages()
        budget = self._budgets.get(task.name, _OTHER_TASK_TOKENS)
        text, cut = self._text_of(task, self._complete(task, messages, mode, budget, tally), tally)
        if cut:
            text, cut = self._text_of(
                task, self._complete(task, messages, mode, 2 * budget, tally), tally
            )
            if cut:
                setting = BUDGET_SETTINGS.get(task.name)
                remedy = f"raise {variable_of(setting)} or " if setting else ""
                raise self._error(
                    task,
                    tally,
                    f"was cut at its output limit twice ({budget} then {2 * budget} tokens); "
                    f"{remedy}use a model that answers more briefly",
                )
        return validate_reply(task, inputs, text)

    # --- one request: retries, errors ---------------------------------------------------

    def _request(
        self, task: Task[Any, Any], messages: list[dict[str, str]], mode: str, budget: int
    ) -> dict[str, Any]:
        request: dict[str, Any] = {"model": self._model, "messages": messages}
        wanted = response_format(task, mode)
        if wanted is not None:
            request["response_format"] = wanted
        # OpenAI's reasoning models refuse max_tokens; every other server reads it.
        request["max_completion_tokens" if is_openai(self._base_url) else "max_tokens"] = budget
        if self._temperature is not None:
            request["temperature"] = self._temperature
        return request

    def _complete(
        self,
        task: Task[Any, Any],
        messages: list[dict[str, str]],
        mode: str,
        budget: int,
        tally: _Tally,
    ) -> ChatCompletion:
        import openai

        request = self._request(task, messages, mode, budget)
        attempt = 0
        while True:
            self._paused.wait()  # a 429 of any call holds back every call of this provider
            tally.calls += 1
            try:
                completion: ChatCompletion = self._client.chat.completions.create(**request)
                return completion
            except openai.APIStatusError as exc:
                status = exc.status_code
                said = server_message(exc)
                if mode != "text" and refuses_format(f"{said} {exc.body}"):
                    raise FormatRefusedError(f"HTTP {status} to {mode!r}: {said}") from exc
                if not (status == 429 or status >= 500) or attempt >= self._max_retries:
                    raise self._error(task, tally, f"got HTTP {status}: {said}") from exc
                delay = self._delay(attempt, exc.response.headers.get("retry-after"))
                if status == 429:
                    self._paused.hold(delay)
            except openai.APITimeoutError as exc:
                if not self._retry_timeouts or attempt >= self._max_retries:
                    raise self._error(
                        task,
                        tally,
                        f"timed out after {self._timeout:g} s ({attempt + 1} "
                        f"{'try' if attempt == 0 else 'tries'}); raise SOMNA_LLM_TIMEOUT_S "
                        "for a slow local model",
                    ) from exc
                delay = self._delay(attempt, None)
            except openai.APIConnectionError as exc:
                if attempt >= self._max_retries:
                    cause = exc.__cause__ or exc
                    raise self._error(
                        task, tally, f"could not connect: {type(cause).__name__}: {cause}"
                    ) from exc
                delay = self._delay(attempt, None)
            except openai.OpenAIError as exc:
                raise self._error(task, tally, f"failed: {type(exc).__name__}: {exc}") from exc
            except ValueError as exc:  # a 200 whose body is not JSON (json.JSONDecodeError)
                raise self._error(
                    task, tally, f"answered with a body that is not JSON ({exc})"
                ) from exc
            attempt += 1
            time.sleep(delay)

    def _text_of(
        self, task: Task[Any, Any], completion: Any, tally: _Tally
    ) -> tuple[str | None, bool]:
        """The answer's text and whether it was cut, after counting its tokens.

        A body of the wrong shape (no choices, no message) gives no text, which the caller
        reports as a reply with no JSON; a refusal by the model is an error.
        """
        usage = getattr(completion, "usage", None)
        tally.prompt_tokens += _count(getattr(usage, "prompt_tokens", 0))
        tally.completion_tokens += _count(getattr(usage, "completion_tokens", 0))
        choices = getattr(completion, "choices", None)
        if not isinstance(choices, list) or not choices:
            return None, False
        choice = choices[0]
        message = getattr(choice, "message", None)
        refusal = getattr(message, "refusal", None)
        if isinstance(refusal, str) and refusal:
            raise self._error(task, tally, f"was refused by the model: {refusal}")
        content = getattr(message, "content", None)
        cut = getattr(choice, "finish_reason", None) == "length"
        return (content if isinstance(content, str) else None), cut

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        delay: float = self._backoff * 2**attempt
        if retry_after and retry_after.replace(".", "", 1).isdigit():
            delay = max(delay, float(retry_after))  # seconds; an HTTP date is ignored
        return min(delay, self._max_backoff)

    def _error(self, task: Task[Any, Any], tally: _Tally, what: str) -> LLMCallError:
        message = f"The {task.name!r} call to model {self._model!r} at {self._base_url} {what}."
        return LLMCallError(
            redact(message, self._api_key, password_of(self._base_url)),
            task=task.name,
            calls=tally.calls,
            prompt_tokens=tally.prompt_tokens,
            completion_tokens=tally.completion_tokens,
        )


def _count(value: object) -> int:
    """A token count from a usage field, 0 when the server wrote something else."""
    return value if isinstance(value, int) and value > 0 else 0
