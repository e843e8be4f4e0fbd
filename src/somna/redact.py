"""Credentials out of every text Somna prints or stores: errors, runs, API answers.

A base URL may carry a password (``http://user:pass@host/v1``) or a key in its query
(``?api_key=…``), and a server may echo the key it refused. Providers pass their error
messages through `redact` with the secrets they know, so nothing downstream (the runs
table, a REST answer, a log line) ever holds them.
"""

from __future__ import annotations

import re

__all__ = ["MASK", "redact", "redact_url"]

MASK = "***"
_USERINFO = re.compile(r"(?P<scheme>\b[a-z][a-z0-9+.-]*://)[^/@\s?#]+@", re.IGNORECASE)
_QUERY_SECRET = re.compile(
    r"(?P<name>[?&](?:api[_-]?key|key|token|access[_-]?token|secret|password)=)[^&#\s]+",
    re.IGNORECASE,
)
_KEY_SHAPED = re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9_\-]{12,}")
_MIN_SECRET = 4  # shorter strings are placeholders ("unused"), never real secrets


def redact(text: str, *secrets: str | None) -> str:
    """``text`` with URL credentials, key parameters, key-shaped words and ``secrets`` masked."""
    for secret in secrets:
        if secret and len(secret) >= _MIN_SECRET and secret != "unused":
            text = text.replace(secret, MASK)
    text = _USERINFO.sub(lambda m: f"{m['scheme']}{MASK}@", text)
    text = _QUERY_SECRET.sub(lambda m: f"{m['name']}{MASK}", text)
    return _KEY_SHAPED.sub(MASK, text)


def redact_url(url: str | None) -> str | None:
    """A URL fit to show: its user, password and key parameters masked."""
    return None if url is None else redact(url)
