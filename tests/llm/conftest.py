"""Fixtures for the LLM layer: a scripted OpenAI-compatible chat server.

The environment is cleaned of SOMNA_* and OPENAI_* variables by tests/conftest.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.llm.scripted_server import ScriptedChatServer, serve


@pytest.fixture
def chat_server() -> Iterator[ScriptedChatServer]:
    yield from serve()
