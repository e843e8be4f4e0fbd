"""Tombstones: a profile erased by `forget` stays erased for the imports of chat tables.

An n8n table is not Somna's: when `forget` cannot delete a profile's rows there
(no DSN given, or a role that may only read), the next import would create the
profile again from them. So erasure leaves a tombstone, the SHA-256 of the
profile's id and nothing else, and an import skips (and counts) the rows of a
profile that has one, unless it is told to admit forgotten profiles again
(`allow_forgotten`), which removes the tombstone of each profile it imports.
"""

from __future__ import annotations

import hashlib

from somna.store import Store

__all__ = ["Tombstones", "profile_hash"]


def profile_hash(profile_id: str) -> str:
    """What a tombstone keeps of a profile: the SHA-256 of its id, in hex."""
    return hashlib.sha256(profile_id.encode()).hexdigest()


class Tombstones:
    """The tombstones of a store as one import sees them (read once, when it starts)."""

    def __init__(self, store: Store, *, allow_forgotten: bool = False) -> None:
        self._store = store
        self._allow = allow_forgotten
        self._hashes = store.tombstones()

    def skips(self, profile_id: str) -> bool:
        """Whether the rows of `profile_id` are left out: it was erased and not admitted
        again. Admitting it removes its tombstone."""
        hashed = profile_hash(profile_id)
        if hashed not in self._hashes:
            return False
        if not self._allow:
            return True
        self._store.remove_tombstone(hashed)
        self._hashes.discard(hashed)
        return False
