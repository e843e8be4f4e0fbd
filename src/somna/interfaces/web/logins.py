"""Who is logged in to the dashboard: a random cookie token for each browser, kept in memory.

The cookie (HttpOnly, SameSite=Strict) carries only a random token; the API key
stays on the server and is checked again on every request, so a revoked key
logs its sessions out at once. Each login has its own CSRF token, which every
form sends back. Logins live as long as the process: a restart asks for the key
again.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from dataclasses import dataclass, field

__all__ = ["COOKIE", "LOGIN_COOKIE", "Login", "Logins"]

COOKIE = "somna_session"
LOGIN_COOKIE = "somna_login"
"""Holds the CSRF token of the login form itself, before anyone is logged in."""


@dataclass
class Login:
    """One browser's login: the key's secret (None on a server without keys) and its CSRF token."""

    secret: str | None
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    notices: list[str] = field(default_factory=list)

    def csrf_ok(self, sent: str | None) -> bool:
        return sent is not None and hmac.compare_digest(sent, self.csrf)


class Logins:
    """The logins of this process, by cookie token."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_token: dict[str, Login] = {}

    def open(self, secret: str | None) -> str:
        token = secrets.token_urlsafe(32)
        with self._lock:
            self._by_token[token] = Login(secret)
        return token

    def get(self, token: str | None) -> Login | None:
        if not token:
            return None
        with self._lock:
            return self._by_token.get(token)

    def close(self, token: str | None) -> None:
        with self._lock:
            self._by_token.pop(token or "", None)
