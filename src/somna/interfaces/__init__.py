"""Adapters over `somna.Memory`: the CLI today; the REST API, MCP server and dashboard next.

Each adapter parses its own input, calls one `Memory` method, and renders the
result or the `SomnaError` in its own shape (an exit code, an HTTP status, an
MCP error). Nothing in here touches the store, the embedder or an LLM directly:
it imports `somna.memory`, `somna.model`, `somna.config` and `somna.errors` only.
"""
