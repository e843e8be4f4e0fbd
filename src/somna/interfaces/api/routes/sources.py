"""`/v1/sources/n8n/import`: pull the new rows of an n8n chat table, the code of
`somna ingest n8n`, so a Schedule Trigger in n8n can run it every few minutes."""

from __future__ import annotations

import os

from fastapi import APIRouter

from somna.errors import InvalidInputError
from somna.interfaces.api.conversation_dto import N8nImportIn, N8nImportOut
from somna.interfaces.api.deps import AccessDep, MemoryDep
from somna.interfaces.api.routes import errors
from somna.sources import N8nTable, ProfileFrom

__all__ = ["router"]

router = APIRouter(prefix="/v1/sources", tags=["sources"])


@router.post("/n8n/import", response_model=N8nImportOut, responses=errors(403))
def import_n8n(body: N8nImportIn, memory: MemoryDep, access: AccessDep) -> N8nImportOut:
    """Import the new rows of an n8n (or LangChain) Postgres chat table, cut into sessions
    (admin only: it creates profiles). Nothing is imported twice."""
    access.require_admin("import a chat table")
    dsn = body.dsn or os.environ.get("SOMNA_N8N_DSN")
    if not dsn:
        raise InvalidInputError(
            "Name the chat table's database: send 'dsn', or start the server with SOMNA_N8N_DSN."
        )
    mapping = ProfileFrom.parse(body.profile_from, body.node_names)
    with N8nTable(dsn, body.table) as table:
        report = memory.import_n8n(
            table,
            idle_hours=body.idle_hours,
            profile_from=mapping,
            source=body.source,
            purge=body.purge_source,
        )
    return N8nImportOut.model_validate(report)
