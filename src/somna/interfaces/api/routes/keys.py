"""`/v1/keys`: API keys, managed with an admin key. A secret is shown once, at creation."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from somna.interfaces.api.deps import AccessDep, MemoryDep
from somna.interfaces.api.dto import ApiKeyOut, CreatedKeyOut, KeyIn
from somna.interfaces.api.routes import errors

__all__ = ["router"]

router = APIRouter(prefix="/v1/keys", tags=["keys"])


@router.get("", response_model=list[ApiKeyOut], responses=errors(403))
def list_keys(memory: MemoryDep, access: AccessDep) -> list[ApiKeyOut]:
    """Every key, revoked ones included; secrets are never shown again (admin key)."""
    access.require_admin("list keys")
    return [ApiKeyOut.model_validate(k) for k in memory.keys.all()]


@router.post("", status_code=201, response_model=CreatedKeyOut, responses=errors(403))
def create_key(body: KeyIn, memory: MemoryDep, access: AccessDep) -> CreatedKeyOut:
    """A new key for `profiles`, for every profile under `prefix`, or an admin key; its
    secret is in this answer only."""
    access.require_admin("create keys")
    key, secret = memory.keys.create(
        profiles=body.profiles, admin=body.admin, name=body.name, prefix=body.prefix
    )
    return CreatedKeyOut(key=ApiKeyOut.model_validate(key), secret=secret)


@router.delete("/{key_id}", response_model=ApiKeyOut, responses=errors(403))
def revoke_key(
    key_id: Annotated[str, Path(min_length=1, max_length=64)], memory: MemoryDep, access: AccessDep
) -> ApiKeyOut:
    """Revoke a key: it stops working at once (admin key)."""
    access.require_admin("revoke keys")
    return ApiKeyOut.model_validate(memory.keys.revoke(key_id))
