"""API keys: who may reach which profiles, and opening a profile on a key's first use of it.

A key names its profiles, or a prefix of profile ids (`shop-`), or is an admin
key. A prefix key serves a bot with many users: one credential reaches every
profile whose id starts with the prefix, and the first request for such a
profile creates it, so a new user needs no setup. Only a hash of each secret
is stored.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable, Sequence
from datetime import datetime

from somna.errors import (
    AuthenticationError,
    InvalidInputError,
    NotFoundError,
    ProfileNotFoundError,
)
from somna.memory.inputs import checked
from somna.model import ApiKey, Profile
from somna.store import Store

__all__ = ["Keys"]

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


class Keys:
    """The API keys of one store, as `Memory.keys`: create, authenticate, list, revoke.

    >>> key, secret = memory.keys.create(profiles=["alice"], name="agent")  # doctest: +SKIP
    >>> memory.keys.authenticate(secret).can_reach("alice")  # doctest: +SKIP
    True
    """

    def __init__(self, store: Store, clock: Callable[[], datetime]) -> None:
        self._store = store
        self._now = clock

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
        key = ApiKey(
            name=name,
            secret_hash=_hash_secret(secret),
            profiles=sorted(set(profiles)),
            prefix=None if prefix is None else _check_prefix(prefix),
            admin=admin,
            created_at=self._now(),
        )
        self._store.save_key(key)
        return key, secret

    def authenticate(self, secret: str) -> ApiKey:
        """The key behind a secret; an unknown or revoked one is refused."""
        key = self._store.find_key(_hash_secret(secret)) if secret else None
        if key is None or key.revoked_at is not None:
            raise AuthenticationError("This API key is unknown or has been revoked.")
        return key

    def all(self) -> list[ApiKey]:
        """Every key, revoked ones included."""
        return self._store.list_keys()

    def revoke(self, key_id: str) -> ApiKey:
        """Refuse the key from now on; it stays listed, with when it was revoked."""
        for key in self._store.list_keys():
            if key.id == key_id:
                revoked = key.model_copy(update={"revoked_at": key.revoked_at or self._now()})
                self._store.save_key(revoked)
                return revoked
        raise NotFoundError(f"There is no API key with id {key_id!r}.")

    def open_profile(self, key: ApiKey, profile: str) -> None:
        """Create `profile` on the first request for it by a key whose prefix covers it."""
        store = self._store
        if not key.can_create(profile) or store.get_profile(profile) is not None:
            return
        now = self._now()
        try:
            store.create_profile(checked(lambda: Profile(id=profile, name=profile, created_at=now)))
        except InvalidInputError:
            if store.get_profile(profile) is None:
                raise  # not one created meanwhile by a concurrent request: a real refusal
