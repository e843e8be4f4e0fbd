"""Who is logged in to the dashboard: a signed cookie that every server process can read.

`somna serve --workers N` answers each request from any of N processes, so a
login cannot live in one process's memory. The cookie (HttpOnly,
SameSite=Strict) carries the key's id, when the login began and a random
nonce, signed with HMAC-SHA256 under the key's stored hash, which never leaves
the server. Every request reads the key from the database again: revoking it
(`somna keys revoke`, from any process) ends its logins at once, and a login
ends by itself after `LOGIN_DAYS`. Logging out stores a hash of the nonce
(`Memory.keys.end_login`), which every process reads on every request: a copy
of the cookie taken before is refused too. The nonce is also the CSRF token
every form sends back: a page of another site can neither read it nor guess it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from somna.model import ApiKey

__all__ = [
    "COOKIE",
    "LOGIN_COOKIE",
    "LOGIN_DAYS",
    "NOTICE_COOKIE",
    "Login",
    "encode_notices",
    "read_login",
    "read_notices",
    "sign_login",
]

COOKIE = "somna_session"
LOGIN_COOKIE = "somna_login"
"""Holds the CSRF token of the login form itself, before anyone is logged in."""
NOTICE_COOKIE = "somna_notice"
"""What the last form did ("The fact was corrected."), shown once on the next page."""

LOGIN_DAYS = 14
"""How long a login lasts before the key is asked for again."""

_NO_KEY = "-"
"""The key id of a login to a server without keys."""


@dataclass(frozen=True)
class Login:
    """One browser's login: its key (None on a server without keys) and its CSRF token."""

    key: ApiKey | None
    issued: int
    csrf: str

    def csrf_ok(self, sent: str | None) -> bool:
        return sent is not None and hmac.compare_digest(sent, self.csrf)

    @property
    def until(self) -> datetime:
        """When the login ends by itself, logged out or not."""
        return datetime.fromtimestamp(self.issued + LOGIN_DAYS * 86_400, UTC)


def _signature(secret_hash: str, payload: str) -> str:
    return hmac.new(secret_hash.encode(), payload.encode(), hashlib.sha256).hexdigest()


def sign_login(key: ApiKey | None, now: float) -> str:
    """A new login's cookie value for `key` (None on a server without keys)."""
    payload = f"{key.id if key else _NO_KEY}.{int(now)}.{secrets.token_urlsafe(24)}"
    return f"{payload}.{_signature(key.secret_hash if key else '', payload)}"


def read_login(value: str | None, keys: Sequence[ApiKey] | None, now: float) -> Login | None:
    """The login a cookie holds, or None when it is missing, forged, expired or its key revoked.

    `keys` are the store's keys, or None on a server without keys.
    """
    parts = (value or "").split(".")
    if len(parts) != 4 or not parts[1].isdigit():
        return None
    key_id, issued, nonce, signature = parts
    if keys is None:
        key = None
        if key_id != _NO_KEY:
            return None
    else:
        key = next((k for k in keys if k.id == key_id and k.revoked_at is None), None)
        if key is None:
            return None
    expected = _signature(key.secret_hash if key else "", f"{key_id}.{issued}.{nonce}")
    if not hmac.compare_digest(signature, expected):
        return None
    if not 0 <= now - int(issued) < LOGIN_DAYS * 86_400:
        return None
    return Login(key, int(issued), nonce)


def encode_notices(notices: Sequence[str]) -> str:
    """Notices as a cookie value (shown escaped on the next page, never trusted as markup)."""
    return base64.urlsafe_b64encode(json.dumps(list(notices)).encode()).decode()


def read_notices(value: str | None) -> list[str]:
    """The notices a cookie holds; anything unreadable is no notice."""
    if not value:
        return []
    try:
        decoded = json.loads(base64.urlsafe_b64decode(value.encode()))
    except (ValueError, binascii.Error):
        return []
    if not isinstance(decoded, list):
        return []
    return [str(n)[:300] for n in decoded[:5]]
