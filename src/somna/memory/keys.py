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
from collections.abc import Sequence
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

__all__ = [
    "authenticate",
    "check_prefix",
    "hash_secret",
    "new_key",
    "open_profile",
    "revoke_key",
]

_PREFIX = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@:-]{0,63}$")


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def check_prefix(prefix: str) -> str:
    """A prefix of profile ids: the start of a valid profile id, so it cannot match everything."""
    if not _PREFIX.match(prefix):
        raise InvalidInputError(
            f"{prefix!r} is not a profile prefix: use 1 to 64 letters, digits or _ . @ : - "
            "starting with a letter or digit, such as shop-."
        )
    return prefix


def new_key(
    store: Store,
    now: datetime,
    *,
    profiles: Sequence[str],
    admin: bool,
    name: str,
    prefix: str | None,
) -> tuple[ApiKey, str]:
    """Save a new key and return it with its secret, which is shown only this once."""
    if not admin and not profiles and prefix is None:
        raise InvalidInputError(
            "A key must name at least one profile or a profile prefix, or be an admin key."
        )
    for profile in profiles:
        if store.get_profile(profile) is None:
            raise ProfileNotFoundError(profile)
    secret = f"somna_{secrets.token_urlsafe(32)}"
    key = ApiKey(
        name=name,
        secret_hash=hash_secret(secret),
        profiles=sorted(set(profiles)),
        prefix=None if prefix is None else check_prefix(prefix),
        admin=admin,
        created_at=now,
    )
    store.save_key(key)
    return key, secret


def authenticate(store: Store, secret: str) -> ApiKey:
    """The key behind a secret; an unknown or revoked one is refused."""
    key = store.find_key(hash_secret(secret)) if secret else None
    if key is None or key.revoked_at is not None:
        raise AuthenticationError("This API key is unknown or has been revoked.")
    return key


def revoke_key(store: Store, now: datetime, key_id: str) -> ApiKey:
    for key in store.list_keys():
        if key.id == key_id:
            revoked = key.model_copy(update={"revoked_at": key.revoked_at or now})
            store.save_key(revoked)
            return revoked
    raise NotFoundError(f"There is no API key with id {key_id!r}.")


def open_profile(store: Store, key: ApiKey, profile: str, now: datetime) -> None:
    """Create `profile` on the first request for it by a key whose prefix covers it."""
    if not key.can_create(profile) or store.get_profile(profile) is not None:
        return
    try:
        store.create_profile(checked(lambda: Profile(id=profile, name=profile, created_at=now)))
    except InvalidInputError:
        if store.get_profile(profile) is None:
            raise  # not one created meanwhile by a concurrent request: a real refusal
