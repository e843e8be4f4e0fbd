"""The dependencies every route declares: the `Memory`, the caller's `Access`, the profile.

A route that works inside a profile takes `profile: ReachableProfile`; the
dependency has already answered 404 for a profile the key cannot reach, so no
route can forget the check.

The tree is kept shallow on purpose: FastAPI resolves each dependency of each
request anew, and a recall's key check used to cost eight of them. The key is
read from the headers here, not through FastAPI's security classes, which
`document_keys` adds to the OpenAPI document instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Path, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.routing import APIRoute
from fastapi.security import APIKeyHeader, HTTPBearer

from somna.interfaces.api.auth import Access, authenticate
from somna.memory import Memory

__all__ = [
    "AccessDep",
    "MemoryDep",
    "ReachableProfile",
    "document_keys",
    "get_access",
    "get_memory",
]

_SCHEMES = (
    HTTPBearer(
        scheme_name="bearer",
        description="An API key as `Authorization: Bearer <key>` (create one: somna keys create).",
    ),
    APIKeyHeader(
        name="X-API-Key",
        scheme_name="apiKey",
        description="The same API key in an `X-API-Key` header.",
    ),
)
"""The two ways to send a key, as the OpenAPI document names them."""


async def get_memory(request: Request) -> Memory:
    """Async because it only reads the app's state: a sync dependency costs a thread hop."""
    memory: Memory = request.app.state.memory
    return memory


MemoryDep = Annotated[Memory, Depends(get_memory)]


async def get_access(request: Request) -> Access:
    """Everything when the app runs without keys; else the rights of the key sent (or 401).

    Async, so that a key read from the store less than a second ago costs no thread hop."""
    state = request.app.state
    if not state.auth:
        return Access(None)
    return Access(await authenticate(state.memory, request.headers))


AccessDep = Annotated[Access, Depends(get_access)]


async def reachable_profile(
    profile: Annotated[str, Path(min_length=1, max_length=128, description="The profile's id.")],
    access: AccessDep,
    request: Request,
) -> str:
    """The profile, created on a prefix key's first request for it (a DELETE creates none).
    The store is read, in a worker thread, at most once a second per profile."""
    access.reach(profile)
    key = access.key
    memory: Memory = request.app.state.memory
    if key is not None and request.method != "DELETE" and memory.keys.must_open(key, profile):
        await run_in_threadpool(memory.keys.open_profile, key, profile)
    return profile


ReachableProfile = Annotated[str, Depends(reachable_profile)]
"""A `{profile}` path parameter the caller's key may reach (else 404, as if it did not exist)."""


def document_keys(app: FastAPI, routers: Sequence[APIRouter]) -> None:
    """List the key schemes in the app's OpenAPI document, on every operation of `routers`
    (included without a prefix) that checks a key: every route that depends on `get_access`."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        document = build()
        schemes = {scheme.scheme_name: scheme.model for scheme in _SCHEMES}
        document.setdefault("components", {})["securitySchemes"] = {
            name: model.model_dump(mode="json", by_alias=True, exclude_none=True)
            for name, model in schemes.items()
        }
        needed: list[dict[str, list[str]]] = [{name: []} for name in schemes]
        for route in (route for router in routers for route in router.routes):
            if isinstance(route, APIRoute) and route.include_in_schema and _checks_key(route):
                operations = document["paths"][route.path_format]
                for method in route.methods or ():
                    operations[method.lower()]["security"] = needed
        return document

    app.openapi = openapi  # type: ignore[method-assign]


def _checks_key(route: APIRoute) -> bool:
    pending = [route.dependant]
    while pending:
        dependant = pending.pop()
        if dependant.call is get_access:
            return True
        pending.extend(dependant.dependencies)
    return False
