"""Build the configured language model from plain settings values."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from somna.errors import ConfigurationError
from somna.llm.base import LLM
from somna.llm.openai import OpenAILLM
from somna.llm.rules import RulesLLM

__all__ = ["PROVIDERS", "create_llm"]

PROVIDERS = ("rules", "openai")


def create_llm(
    provider: str = "rules", *, environ: Mapping[str, str] | None = None, **options: Any
) -> LLM:
    """The LLM for ``provider``: ``rules`` (offline, the default) or ``openai``.

    ``openai`` takes ``model``, ``base_url``, ``api_key``, ``timeout``, ``max_retries``,
    ``backoff``, ``max_backoff`` and ``temperature``; what is not given comes from the
    environment (``environ``, else ``os.environ``) as `OpenAILLM.from_env` reads it.
    ``rules`` takes no option, and refuses any rather than ignore it.
    """
    kind = provider.strip().lower()
    if kind == "rules":
        given = sorted(name for name, value in options.items() if value is not None)
        if given:
            raise ConfigurationError(
                f"The 'rules' LLM provider takes no settings, but got {', '.join(given)}; "
                "use provider 'openai' for a model."
            )
        return RulesLLM()
    if kind == "openai":
        return OpenAILLM.from_env(
            environ, **{name: value for name, value in options.items() if value is not None}
        )
    if kind == "anthropic":
        raise ConfigurationError(
            "The 'anthropic' LLM provider is not available in this build; use 'openai' "
            "(any OpenAI-compatible endpoint) or 'rules' (offline)."
        )
    raise ConfigurationError(
        f"Unknown LLM provider {provider!r}; use 'rules' (offline patterns, the default) "
        "or 'openai' (OpenAI, Ollama, vLLM, LM Studio or any OpenAI-compatible endpoint)."
    )
