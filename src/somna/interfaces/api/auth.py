"""API keys at the edge: who is calling, and which profiles they may reach.

A request names its key as `Authorization: Bearer <secret>` or `X-API-Key:
<secret>`. A key reaches the profiles it was created for, and those under its
prefix if it has one (created on its first request for them, see
`somna.memory.keys`); an admin key reaches every profile and may also manage
profiles, keys and global runs.

A profile a key cannot reach is answered exactly like a profile that does not
exist (404 `profile_not_found`, same message), so a key never learns which
other profiles exist. The same `Access` serves the REST routes and the MCP
endpoint.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import anyio.to_thread
from fastapi import HTTPException

from somna.errors import AuthenticationError, ProfileNotFoundError
from somna.memory import Memory
from somna.memory.approval import actor_of
from somna.model import ApiKey, Run

__all__ = ["Access", "authenticate", "secret_from"]


def secret_from(headers: Mapping[str, str]) -> str | None:
    """The secret of `Authorization: Bearer …`, else of `X-API-Key`, else None."""
    authorization = headers.get("authorization")
    if authorization:
        scheme, _, value = authorization.strip().partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    key = headers.get("x-api-key")
    return key.strip() if key and key.strip() else None


async def authenticate(memory: Memory, headers: Mapping[str, str]) -> ApiKey:
    """The key the request carries; raises `AuthenticationError` (401) without a valid one.

    A key read from the store less than a second ago is answered on the event loop; else
    the store is read in a worker thread."""
    secret = secret_from(headers)
    if secret is None:
        raise AuthenticationError(
            "This server needs an API key: send 'Authorization: Bearer <key>' or "
            "'X-API-Key: <key>' (create one with: somna keys create --profile NAME)."
        )
    known = memory.keys.remembered(secret)
    if known is not None:
        return known
    return await anyio.to_thread.run_sync(memory.keys.authenticate, secret)


@dataclass(frozen=True)
class Access:
    """What the caller may do: a key's rights, or everything when the server runs without keys."""

    key: ApiKey | None
    """None only when authentication is off (a local server)."""

    @property
    def admin(self) -> bool:
        return self.key is None or self.key.admin

    @property
    def actor(self) -> str:
        """Who to record in a fact's history: `api`, `api:<key id>`, or `admin:<key id>` for
        an admin key (the operator's: it may approve rules, see `somna.memory.approval`)."""
        return actor_of("api", self.key)

    def can_reach(self, profile: str) -> bool:
        return self.key is None or self.key.can_reach(profile)

    def reach(self, profile: str) -> str:
        """`profile`, or the same 404 a missing profile gets when this key cannot reach it."""
        if not self.can_reach(profile):
            raise ProfileNotFoundError(profile)
        return profile

    def require_admin(self, action: str) -> None:
        if not self.admin:
            raise HTTPException(403, f"Only an admin key may {action}.")

    def sees_run(self, run: Run) -> bool:
        """Admins see every run; other keys the runs of one of their profiles."""
        if self.admin:
            return True
        return run.profile_id is not None and self.can_reach(run.profile_id)
