"""The dependencies every route declares: the `Memory`, the caller's `Access`, the profile.

A route that works inside a profile takes `profile: ReachableProfile`; the
dependency has already answered 404 for a profile the key cannot reach, so no
route can forget the check.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request, Security
from fastapi.concurrency import run_in_threadpool
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from somna.interfaces.api.auth import Access, authenticate
from somna.memory import Memory

__all__ = ["AccessDep", "MemoryDep", "ReachableProfile", "get_access", "get_memory"]

_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="bearer",
    description="An API key as `Authorization: Bearer <key>` (create one: somna keys create).",
)
_api_key = APIKeyHeader(
    name="X-API-Key",
    auto_error=False,
    scheme_name="apiKey",
    description="The same API key in an `X-API-Key` header.",
)


async def get_memory(request: Request) -> Memory:
    """Async because it only reads the app's state: a sync dependency costs a thread hop."""
    memory: Memory = request.app.state.memory
    return memory


MemoryDep = Annotated[Memory, Depends(get_memory)]


async def get_access(
    request: Request,
    memory: MemoryDep,
    _bearer_key: Annotated[HTTPAuthorizationCredentials | None, Security(_bearer)],
    _header_key: Annotated[str | None, Security(_api_key)],
) -> Access:
    """Everything when the app runs without keys; else the rights of the key sent (or 401).

    Async, so that a key read from the store less than a second ago costs no thread hop."""
    if not request.app.state.auth:
        return Access(None)
    return Access(await authenticate(memory, request.headers))


AccessDep = Annotated[Access, Depends(get_access)]


async def reachable_profile(
    profile: Annotated[str, Path(min_length=1, max_length=128, description="The profile's id.")],
    access: AccessDep,
    memory: MemoryDep,
    request: Request,
) -> str:
    """The profile, created on a prefix key's first request for it (a DELETE creates none).
    The store is read, in a worker thread, at most once a second per profile."""
    access.reach(profile)
    key = access.key
    if key is not None and request.method != "DELETE" and memory.keys.must_open(key, profile):
        await run_in_threadpool(memory.keys.open_profile, key, profile)
    return profile


ReachableProfile = Annotated[str, Depends(reachable_profile)]
"""A `{profile}` path parameter the caller's key may reach (else 404, as if it did not exist)."""
