"""Fixtures of the REST tests: a live server on a throwaway database, and clients."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from somna.embed import BundledEmbedder
from tests.interfaces.api.live import Live, live_server


@pytest.fixture
def live(tmp_path: Path, embedder: BundledEmbedder) -> Iterator[Live]:
    """A server with API keys, profiles `alice` and `bob`, an admin key and a key for alice."""
    with live_server(tmp_path, embedder) as running:
        yield running


@pytest.fixture
def admin(live: Live) -> Iterator[httpx.Client]:
    with live.client(live.admin) as client:
        yield client


@pytest.fixture
def alice(live: Live) -> Iterator[httpx.Client]:
    """A client with the key of profile alice only."""
    with live.client(live.alice) as client:
        yield client
