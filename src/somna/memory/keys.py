"""API keys: who may reach which profiles, and opening a profile on a key's first use of it.

A key names its profiles, or a prefix of profile ids (`shop-`), or is an admin
key. A prefix key serves a bot with many users: one credential reaches every
profile whose id starts with the prefix, and the first request for such a
profile creates it, so a new user needs no setup. Only a hash of each secret
is stored.

A key, once found, is trusted for `KEY_RECHECK_SECONDS` before the store is read
again for it, so a busy server reads each key about once a second instead of on
every request. Revoking a key through the same `Keys` refuses it at once; a
revocation by another process (another server worker, `somna keys revoke`) is
seen within that time.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Generic, TypeVar

from somna.errors import (
    AuthenticationError,
    InvalidInputError,
    NotFoundError,
    ProfileNotFoundError,
)
from somna.memory.inputs import checked
from somna.model import ApiKey, Profile
from somna.store import Store

__all__ = ["KEY_RECHECK_SECONDS", "Keys"]

KEY_RECHECK_SECONDS = 1.0
"""How long a key found in the store is trusted without reading it again."""

_MAX_REMEMBERED = 1024

V = TypeVar("V")

_PREFIX = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@:-]{0,63}$")


def _hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _check_prefix(prefix: str) -> str:
    """A prefix of profile ids: the start of a valid profile id, so it cannot match everything."""
    if not _PREFIX.match(prefix):
        raise InvalidInputError(
            f"{prefix!r} is not a profile prefix: use 1 to 64 letters, digits or _ . @ : - "
            "starting with a letter or digit, such as shop-."
        )
    return prefix


class _Recent(Generic[V]):
    """What was read from the store less than `KEY_RECHECK_SECONDS` ago, by name; at most
    `_MAX_REMEMBERED` of them (the oldest read goes first). Safe to share between threads."""

    def __init__(self, timer: Callable[[], float]) -> None:
        self._timer = timer
        self._items: dict[str, tuple[float, V]] = {}
        self._lock = threading.Lock()

    def get(self, name: str) -> V | None:
        found = self._items.get(name)
        if found is None or self._timer() - found[0] >= KEY_RECHECK_SECONDS:
            return None
        return found[1]

    def put(self, name: str, value: V) -> None:
        with self._lock:
            self._items.pop(name, None)
            if len(self._items) >= _MAX_REMEMBERED:
                del self._items[next(iter(self._items))]
            self._items[name] = (self._timer(), value)

    def drop(self, gone: Callable[[str, V], bool]) -> None:
        with self._lock:
            self._items = {n: f for n, f in self._items.items() if not gone(n, f[1])}

    def clear(self) -> None:
        with self._lock:
            self._items = {}


class Keys:
    """The API keys of one store, as `Memory.keys`: create, authenticate, list, revoke; and
    the dashboard logins they open, ended.

    >>> key, secret = memory.keys.create(profiles=["alice"], name="agent")  # doctest: +SKIP
    >>> memory.keys.authenticate(secret).can_reach("alice")  # doctest: +SKIP
    True
    """

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime],
        *,
        timer: Callable[[], float] = time.monotonic,
    ) -> None:
        self._store = store
        self._now = clock
        self._found: _Recent[ApiKey] = _Recent(timer)
        """The keys read from the store lately, by the hash of their secret."""
        self._opened: _Recent[bool] = _Recent(timer)
        """The profiles `open_profile` found or created lately."""

    def create(
        self,
        *,
        profiles: Sequence[str] = (),
        admin: bool = False,
        name: str = "",
        prefix: str | None = None,
    ) -> tuple[ApiKey, str]:
        """A new key for the REST and MCP servers, and its secret, shown only this once."""
        if not admin and not profiles and prefix is None:
            raise InvalidInputError(
                "A key must name at least one profile or a profile prefix, or be an admin key."
            )
        for profile in profiles:
            if self._store.get_profile(profile) is None:
                raise ProfileNotFoundError(profile)
        secret = f"somna_{secrets.token_urlsafe(32)}"
        checked_prefix = None if prefix is None else _check_prefix(prefix)
        key = checked(
            lambda: ApiKey(
                name=name,
                secret_hash=_hash_secret(secret),
                profiles=sorted(set(profiles)),
                prefix=checked_prefix,
                admin=admin,
                created_at=self._now(),
            )
        )
        self._store.save_key(key)
        return key, secret

    def authenticate(self, secret: str) -> ApiKey:
        """The key behind a secret; an unknown or revoked one is refused."""
        hashed = _hash_secret(secret)
        key = self._found.get(hashed)
        if key is None:
            key = self._store.find_key(hashed) if secret else None
            if key is None or key.revoked_at is not None:
                raise AuthenticationError("This API key is unknown or has been revoked.")
            self._found.put(hashed, key)
        return key

    def remembered(self, secret: str) -> ApiKey | None:
        """The key behind `secret` if the store was read for it less than
        `KEY_RECHECK_SECONDS` ago, else None (then call `authenticate`). It reads no store,
        so an event loop may call it without a worker thread."""
        return self._found.get(_hash_secret(secret))

    def all(self) -> list[ApiKey]:
        """Every key, revoked ones included."""
        return self._store.list_keys()

    def revoke(self, key_id: str) -> ApiKey:
        """Refuse the key from now on; it stays listed, with when it was revoked."""
        for key in self._store.list_keys():
            if key.id == key_id:
                revoked = key.model_copy(update={"revoked_at": key.revoked_at or self._now()})
                self._store.save_key(revoked)
                self._found.drop(lambda _, found: found.id == key_id)
                return revoked
        raise NotFoundError(f"There is no API key with id {key_id!r}.")

    def end_login(self, nonce: str, until: datetime) -> None:
        """Log a dashboard login out for good: its cookie, copied or not, is refused by every
        server process from now on. Only a hash of the login's `nonce` is kept, until the
        login would have expired anyway (`until`)."""
        self._store.end_login(_hash_secret(nonce), until, self._now())

    def login_ended(self, nonce: str) -> bool:
        """Whether the dashboard login of `nonce` was logged out (the store is read each time:
        a logout in another process counts at once)."""
        return self._store.login_ended(_hash_secret(nonce))

    def must_open(self, key: ApiKey, profile: str) -> bool:
        """Whether a request of `key` for `profile` should call `open_profile` first: the key
        may create it, and it was not found or created in the last `KEY_RECHECK_SECONDS`.
        It reads no store, so an event loop may call it without a worker thread."""
        return key.can_create(profile) and self._opened.get(profile) is None

    def open_profile(self, key: ApiKey, profile: str) -> None:
        """Create `profile` on the first request for it by a key whose prefix covers it."""
        store = self._store
        if not key.can_create(profile):
            return
        if store.get_profile(profile) is None:
            now = self._now()
            try:
                store.create_profile(
                    checked(lambda: Profile(id=profile, name=profile, created_at=now))
                )
            except InvalidInputError:
                if store.get_profile(profile) is None:
                    raise  # not one created meanwhile by a concurrent request: a real refusal
        self._opened.put(profile, True)

    def forgotten(self, profile: str) -> None:
        """`profile` was erased, and taken out of every key: each key is read again, and the
        next request of a prefix key for the profile opens it again."""
        self._found.clear()
        self._opened.drop(lambda name, _: name == profile)
