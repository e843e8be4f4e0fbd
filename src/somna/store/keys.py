"""How both backends store an API key: one statement, and the key's values for it."""

from __future__ import annotations

from somna.model import ApiKey
from somna.store.sql import Json, Params

__all__ = ["SAVE_KEY", "key_values"]

SAVE_KEY = (
    "INSERT INTO api_keys (id, name, secret_hash, profiles, prefix, admin, created_at, "
    "revoked_at) VALUES (:id, :name, :secret_hash, :profiles, :prefix, :admin, :created_at, "
    ":revoked_at) ON CONFLICT (id) DO UPDATE SET name = excluded.name, "
    "profiles = excluded.profiles, prefix = excluded.prefix, admin = excluded.admin, "
    "revoked_at = excluded.revoked_at"
)
"""Insert a key, or update a known one; its secret and creation time never change."""


def key_values(key: ApiKey) -> Params:
    return {
        "id": key.id,
        "name": key.name,
        "secret_hash": key.secret_hash,
        "profiles": Json(key.profiles),
        "prefix": key.prefix,
        "admin": key.admin,
        "created_at": key.created_at,
        "revoked_at": key.revoked_at,
    }
