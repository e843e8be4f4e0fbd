"""The REST API (and the MCP endpoint) of Somna: a FastAPI app over `Memory`.

    create_app(memory, auth=True)    the app; run it with uvicorn (`somna serve`)

Routes are versioned under `/v1` (OpenAPI at `/openapi.json`, docs at `/docs`),
the MCP tools are at `/mcp`. Modules: `app` (the factory), `routes` (one router
per resource), `dto` (request and response bodies), `deps` and `auth` (API keys
and the profiles they reach), `errors` (the one error envelope), `middleware`
(body limit, local-only gate), `mcp` (the authenticated MCP endpoint).
"""

from somna.interfaces.api.app import create_app
from somna.interfaces.api.middleware import MAX_BODY_BYTES

__all__ = ["MAX_BODY_BYTES", "create_app"]
