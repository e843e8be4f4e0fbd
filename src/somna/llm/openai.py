"""Structured calls to any OpenAI-compatible chat endpoint: OpenAI, Ollama, vLLM, LM Studio…

Three ways to ask for JSON, tried in order until one works, then kept for the instance:

1. ``json_schema``: the output model's schema, made strict-compatible (constrained output);
2. ``json_object``: "some JSON object" (the prompt describes its shape);
3. no ``response_format`` at all, and a tolerant parse of the text (fences, prose, thinking).

A reply that is not valid JSON of the right shape is asked again in the next mode. The
instance remembers the weaker mode only when the stronger ones failed because of the
format: the server refused it (HTTP 400/422 naming the response format) or answered
with no JSON at all; a merely wrong answer does not downgrade later calls. 429, 5xx,
timeouts and dropped connections are retried with exponential backoff. The ``openai``
package's own retries are off so that `Reply.calls` counts every attempt.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar
from urllib.parse import urlsplit

from pydantic import BaseModel

from somna.errors import ConfigurationError, InvalidInputError
from somna.llm.base import LLMCallError, Reply, Task
from somna.llm.prompt import render_prompt
from somna.llm.structured import NoJSONError, ReplyShapeError, strict_schema, validate_reply

if TYPE_CHECKING:
    import openai
    from openai.types.chat import ChatCompletion

__all__ = ["MODES", "OPENAI_BASE_URL", "OpenAILLM"]

InT = TypeVar("InT", bound=BaseModel)
OutT = TypeVar("OutT", bound=BaseModel)

OPENAI_BASE_URL = "https://api.openai.com/v1"
DEFAULT_OPENAI_MODEL = "gpt-4o-mini"
MODES = ("json_schema", "json_object", "text")
"""How JSON is asked for, strongest first."""

# Words by which servers tell that they do not support the response format asked for.
_FORMAT_WORDS = ("response_format", "response format", "json_schema", "json_object", "schema")


@dataclass
class _Tally:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


class _Refused(Exception):
    """The server rejected the response format of this mode."""


class OpenAILLM:
    """A language model behind an OpenAI-compatible ``/chat/completions`` endpoint.

    ``base_url`` ``None`` means OpenAI itself, which needs ``api_key``; a self-hosted
    server gets the placeholder key "unused" unless one is given. Nothing is read from
    the environment here: `from_env` does that, with care for where a key may go.

    ``max_retries`` retries (so at most ``max_retries + 1`` calls per mode) follow 429,
    5xx and timeouts, waiting ``backoff * 2**n`` seconds (or the server's Retry-After),
    at most ``max_backoff``. ``temperature`` ``None`` leaves the server's default, since
    some models (reasoning ones) refuse any other value.

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
        max_retries: int = 3,
        backoff: float = 0.5,
        max_backoff: float = 30.0,
        temperature: float | None = None,
    ) -> None:
        if not model:
            raise InvalidInputError("OpenAILLM needs a model name, e.g. 'gpt-4o-mini'.")
        if timeout <= 0:
            raise InvalidInputError(f"The LLM timeout must be positive, not {timeout}.")
        if max_retries < 0:
            raise InvalidInputError(f"max_retries must be 0 or more, not {max_retries}.")
        if backoff < 0 or max_backoff < 0:
            raise InvalidInputError("The backoff delays must not be negative.")
        url = (base_url or OPENAI_BASE_URL).rstrip("/")
        if not api_key:
            if _is_openai(url):
                raise ConfigurationError(
                    f"OpenAI at {url} needs an API key: pass api_key=, or set "
                    "SOMNA_LLM_API_KEY (or OPENAI_API_KEY) and use OpenAILLM.from_env()."
                )
            api_key = "unused"  # self-hosted servers ignore it; the client wants one
        import openai

        self._model = model
        self._base_url = url
        self._timeout = timeout
        self._max_retries = max_retries
        self._backoff = backoff
        self._max_backoff = max_backoff
        self._temperature = temperature
        self._first_mode = 0
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
        base_url = overrides.pop("base_url", None) or env.get("SOMNA_LLM_BASE_URL") or None
        base_url = base_url or env.get("OPENAI_BASE_URL") or None
        url = (base_url or OPENAI_BASE_URL).rstrip("/")
        api_key = overrides.pop("api_key", None) or env.get("SOMNA_LLM_API_KEY") or None
        if api_key is None and env.get("OPENAI_API_KEY"):
            home = (env.get("OPENAI_BASE_URL") or OPENAI_BASE_URL).rstrip("/")
            if _same_endpoint(url, home):
                api_key = env["OPENAI_API_KEY"]
        model = overrides.pop("model", None) or env.get("SOMNA_LLM_MODEL") or None
        if model is None:
            if not _is_openai(url):
                raise ConfigurationError(
                    f"The 'openai' LLM provider needs a model name for {url}: set "
                    "SOMNA_LLM_MODEL (e.g. 'llama3.1:8b' on Ollama) or pass model=."
                )
            model = DEFAULT_OPENAI_MODEL
        return cls(model, base_url=url, api_key=api_key, **overrides)

    @property
    def name(self) -> str:
        return f"openai:{self._model}"

    @property
    def mode(self) -> str:
        """The way JSON is asked for in the next call (see `MODES`)."""
        return MODES[self._first_mode]

    def structured(self, task: Task[InT, OutT], inputs: InT) -> Reply[OutT]:
        inputs = task.coerce(inputs)
        messages = render_prompt(task, inputs).messages()
        tally = _Tally()
        tried: list[str] = []
        problem = ""
        format_at_fault = True  # did every stronger mode fail for the format's sake?
        for index in range(self._first_mode, len(MODES)):
            mode = MODES[index]
            tried.append(mode)
            try:
                completion = self._complete(task, messages, mode, tally)
            except _Refused as exc:
                self._first_mode = max(self._first_mode, index + 1)  # never ask again
                problem = str(exc)
                continue
            text = self._text_of(task, completion, tally)
            try:
                value = validate_reply(task, inputs, text)
            except ReplyShapeError as exc:
                format_at_fault = format_at_fault and isinstance(exc, NoJSONError)
                problem = str(exc)
                continue
            if format_at_fault:
                self._first_mode = index
            return Reply(value, tally.prompt_tokens, tally.completion_tokens, tally.calls)
        raise self._error(
            task, tally, f"answered out of shape (modes tried: {', '.join(tried)}): {problem}"
        )

    def close(self) -> None:
        """Release the HTTP connection pool."""
        self._client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # --- one mode: retries, errors ----------------------------------------------------

    def _complete(
        self, task: Task[Any, Any], messages: list[dict[str, str]], mode: str, tally: _Tally
    ) -> ChatCompletion:
        import openai

        request: dict[str, Any] = {"model": self._model, "messages": messages}
        if mode == "json_schema":
            request["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": task.name,
                    "schema": strict_schema(task.output_model),
                    "strict": True,
                },
            }
        elif mode == "json_object":
            request["response_format"] = {"type": "json_object"}
        if self._temperature is not None:
            request["temperature"] = self._temperature
        attempt = 0
        while True:
            tally.calls += 1
            try:
                completion: ChatCompletion = self._client.chat.completions.create(**request)
                return completion
            except openai.APIStatusError as exc:
                status = exc.status_code
                said = _server_message(exc)
                if status in (400, 422) and mode != "text" and _mentions_format(said):
                    raise _Refused(f"HTTP {status} to {mode!r}: {said}") from exc
                if not (status == 429 or status >= 500) or attempt >= self._max_retries:
                    raise self._error(task, tally, f"got HTTP {status}: {said}") from exc
                delay = self._delay(attempt, exc.response.headers.get("retry-after"))
            except openai.APITimeoutError as exc:
                if attempt >= self._max_retries:
                    raise self._error(
                        task,
                        tally,
                        f"timed out {attempt + 1} times in a row (timeout {self._timeout:g} s)",
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
            attempt += 1
            time.sleep(delay)

    def _text_of(self, task: Task[Any, Any], completion: Any, tally: _Tally) -> str | None:
        """The answer's text, after counting its tokens; refusals and cut answers are errors."""
        usage = getattr(completion, "usage", None)
        tally.prompt_tokens += int(getattr(usage, "prompt_tokens", 0) or 0)
        tally.completion_tokens += int(getattr(usage, "completion_tokens", 0) or 0)
        choices = getattr(completion, "choices", None)
        if not choices:
            return None
        choice = choices[0]
        message = getattr(choice, "message", None)
        refusal = getattr(message, "refusal", None)
        if refusal:
            raise self._error(task, tally, f"was refused by the model: {refusal}")
        if getattr(choice, "finish_reason", None) == "length":
            raise self._error(
                task, tally, "was cut at the model's output token limit; raise it on the server"
            )
        content = getattr(message, "content", None)
        return content if isinstance(content, str) else None

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        delay: float = self._backoff * 2**attempt
        if retry_after and retry_after.replace(".", "", 1).isdigit():
            delay = max(delay, float(retry_after))  # seconds; an HTTP date is ignored
        return min(delay, self._max_backoff)

    def _error(self, task: Task[Any, Any], tally: _Tally, what: str) -> LLMCallError:
        return LLMCallError(
            f"The {task.name!r} call to model {self._model!r} at {self._base_url} {what}.",
            task=task.name,
            calls=tally.calls,
            prompt_tokens=tally.prompt_tokens,
            completion_tokens=tally.completion_tokens,
        )


def _server_message(exc: openai.APIStatusError) -> str:
    """What the server said, without the client's "Error code: 400 - {...}" wrapping."""
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        if isinstance(message, str) and message:
            return message.rstrip(".")
    return str(exc.message).rstrip(".")


def _mentions_format(message: str) -> bool:
    return any(word in message.lower() for word in _FORMAT_WORDS)


def _endpoint(url: str) -> tuple[str, str, str]:
    parts = urlsplit(url.strip())
    return parts.scheme.lower(), parts.netloc.lower(), parts.path.rstrip("/")


def _same_endpoint(a: str, b: str) -> bool:
    return _endpoint(a) == _endpoint(b)


def _is_openai(url: str) -> bool:
    return urlsplit(url.strip()).netloc.lower() == "api.openai.com"
