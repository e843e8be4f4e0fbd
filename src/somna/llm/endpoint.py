"""Where an OpenAI-compatible endpoint is, and which key may go to it.

`endpoint_from_env` reads ``SOMNA_LLM_*`` then ``OPENAI_*`` so that pointing
Somna at a local or third-party server never sends the OpenAI key there: the
key follows the URL it was meant for.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

from somna.errors import ConfigurationError
from somna.redact import redact

__all__ = [
    "DEFAULT_OPENAI_MODEL",
    "OPENAI_BASE_URL",
    "endpoint_from_env",
    "is_openai",
    "password_of",
]

OPENAI_BASE_URL = "https://api.openai.com/v1"
DEFAULT_OPENAI_MODEL = "gpt-4o-mini"


def endpoint_from_env(
    env: Mapping[str, str], base_url: str | None, api_key: str | None, model: str | None
) -> tuple[str, str | None, str]:
    """The (URL, key, model) to call: the given values, else the variables, else OpenAI's.

    ``OPENAI_BASE_URL`` stands in for a missing base URL. ``OPENAI_API_KEY`` stands in
    for a missing key only when the request goes to ``OPENAI_BASE_URL`` when it is set,
    else to OpenAI itself. The model defaults to ``gpt-4o-mini`` on OpenAI only.
    """
    base_url = base_url or env.get("SOMNA_LLM_BASE_URL") or env.get("OPENAI_BASE_URL") or None
    url = (base_url or OPENAI_BASE_URL).rstrip("/")
    api_key = api_key or env.get("SOMNA_LLM_API_KEY") or None
    if api_key is None and env.get("OPENAI_API_KEY"):
        home = (env.get("OPENAI_BASE_URL") or OPENAI_BASE_URL).rstrip("/")
        if _endpoint(url) == _endpoint(home):
            api_key = env["OPENAI_API_KEY"]
    model = model or env.get("SOMNA_LLM_MODEL") or None
    if model is None:
        if not is_openai(url):
            raise ConfigurationError(
                f"The 'openai' LLM provider needs a model name for {redact(url)}: set "
                "SOMNA_LLM_MODEL (e.g. 'llama3.1:8b' on Ollama) or pass model=."
            )
        model = DEFAULT_OPENAI_MODEL
    return url, api_key, model


def is_openai(url: str) -> bool:
    """Whether `url` is OpenAI's own API, which needs a key and names budgets its own way."""
    return urlsplit(url.strip()).netloc.lower() == "api.openai.com"


def password_of(url: str) -> str | None:
    """The password a URL carries, to mask it in messages."""
    return urlsplit(url).password


def _endpoint(url: str) -> tuple[str, str, str]:
    parts = urlsplit(url.strip())
    return parts.scheme.lower(), parts.netloc.lower(), parts.path.rstrip("/")
