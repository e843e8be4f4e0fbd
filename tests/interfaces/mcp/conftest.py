"""Fixtures of the MCP tests: the live HTTP server of the REST tests, for `/mcp`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from somna.embed import BundledEmbedder
from tests.interfaces.api.live import Live, live_server


@pytest.fixture
def live(tmp_path: Path, embedder: BundledEmbedder) -> Iterator[Live]:
    """A server with API keys, profiles `alice` and `bob`, an admin key and a key for alice."""
    with live_server(tmp_path, embedder) as running:
        yield running
