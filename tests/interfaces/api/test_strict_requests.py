"""Requests are taken as sent: JSON types are not coerced, a message from the far future is
refused, and OPTIONS (or a wrong method) names every method a path answers."""

from __future__ import annotations

import httpx
import pytest

from tests.interfaces.api.live import Live
from tests.interfaces.api.test_errors import assert_envelope

FACTS = "/v1/profiles/alice/facts"


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/consolidate", {"profile": "alice", "idle_hours": False}, "idle_hours"),
        ("/v1/consolidate", {"profile": "alice", "dry_run": "false"}, "dry_run"),
        (FACTS, {"text": "Likes jazz.", "verified": "yes"}, "verified"),
        (FACTS, {"text": "Likes jazz.", "verified": 1}, "verified"),
        (FACTS, {"text": "Likes jazz.", "confidence": "0.9"}, "confidence"),
        ("/v1/profiles/alice/recall", {"query": "jazz", "k": "3"}, "k"),
        ("/v1/profiles/alice/recall", {"query": "jazz", "k": 3.0}, "k"),
        ("/v1/profiles/alice/context", {"query": "jazz", "k": True}, "k"),
    ],
)
def test_a_value_of_the_wrong_json_type_is_a_422_naming_the_field(
    alice: httpx.Client, live: Live, path: str, body: dict[str, object], field: str
) -> None:
    before = live.memory.export("alice")
    message = assert_envelope(alice.post(path, json=body), 422, "invalid_input")
    assert field in message
    assert live.memory.export("alice") == before


def test_values_of_the_right_type_still_pass(alice: httpx.Client) -> None:
    added = alice.post(
        FACTS,
        json={"text": "Likes jazz.", "verified": True, "confidence": 1, "valid_from": "2026-01-02"},
    )
    assert added.status_code == 201, added.text
    assert added.json()["fact"]["valid_from"].startswith("2026-01-02")
    recalled = alice.post("/v1/profiles/alice/recall", json={"query": "jazz", "k": 3})
    assert recalled.status_code == 200 and recalled.json()[0]["text"] == "Likes jazz."


def test_a_message_dated_far_in_the_future_is_a_422(alice: httpx.Client, live: Live) -> None:
    far = {"role": "user", "content": "hello", "at": "9999-12-31T00:00:00Z"}
    answer = alice.post("/v1/profiles/alice/sessions/chat/messages", json={"messages": [far]})
    message = assert_envelope(answer, 422, "invalid_input")
    assert "ahead of now" in message
    assert live.memory.window("alice", "chat") == []


def test_options_answers_with_every_method_of_the_path(alice: httpx.Client) -> None:
    answer = alice.options(FACTS)
    assert answer.status_code == 204
    assert answer.headers["allow"] == "GET, OPTIONS, POST"
    assert alice.options("/v1/health").headers["allow"] == "GET, OPTIONS"


def test_a_wrong_method_is_a_405_with_the_right_allow_header(alice: httpx.Client) -> None:
    answer = alice.put(FACTS, json={})
    assert_envelope(answer, 405, "method_not_allowed")
    assert answer.headers["allow"] == "GET, OPTIONS, POST"
