"""Build the configured language model from plain settings values."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from somna.config import Settings
from somna.errors import ConfigurationError
from somna.llm.base import LLM
from somna.llm.openai import OpenAILLM
from somna.llm.rules import RulesLLM

__all__ = ["PROVIDERS", "create_llm", "llm_from_settings", "openai_options"]

PROVIDERS = ("rules", "openai")


def create_llm(
    provider: str = "rules", *, environ: Mapping[str, str] | None = None, **options: Any
) -> LLM:
    """The LLM for ``provider``: ``rules`` (offline, the default) or ``openai``.

    ``openai`` takes ``model``, ``base_url``, ``api_key``, ``timeout``, ``max_retries``,
    ``backoff``, ``max_backoff``, ``temperature``, ``max_tokens``, ``retry_timeouts`` and
    ``fold_system``; what is not given comes from the
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


def openai_options(settings: Settings) -> dict[str, Any]:
    """The `OpenAILLM` options the settings hold (endpoint, limits, budgets, folding)."""
    return {
        "model": settings.llm_model,
        "base_url": settings.llm_base_url,
        "api_key": settings.llm_api_key,
        "timeout": settings.llm_timeout_s,
        "max_retries": settings.llm_max_retries,
        "retry_timeouts": settings.llm_retry_timeouts,
        "max_tokens": {
            "extract": settings.llm_max_tokens_extract,
            "judge": settings.llm_max_tokens_judge,
            "rewrite": settings.llm_max_tokens_rewrite,
            "rephrase": settings.llm_max_tokens_rewrite,
        },
        "fold_system": settings.llm_fold_system,
    }


def llm_from_settings(settings: Settings, environ: Mapping[str, str] | None = None) -> LLM:
    """The LLM the settings configure; the `rules` provider still refuses a model or URL."""
    if settings.llm_provider.strip().lower() == "openai":
        return create_llm("openai", environ=environ, **openai_options(settings))
    return create_llm(
        settings.llm_provider,
        environ=environ,
        model=settings.llm_model,
        base_url=settings.llm_base_url,
        api_key=settings.llm_api_key,
    )
