"""Bad requests get a clear 4xx in the one error envelope, and change nothing.

The envelope is pinned here: `{"error": {"code": str, "message": str}}` and
nothing else, for every kind of failure the server can answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from somna.interfaces.api import MAX_BODY_BYTES
from somna.interfaces.api.errors import error_body, validation_message
from somna.memory import Memory
from tests.interfaces.api.live import Live

FACTS = "/v1/profiles/alice/facts"


def _state(memory: Memory) -> dict[str, Any]:
    memory.flush()
    return {p.id: memory.export(p.id) for p in memory.list_profiles()}


@pytest.fixture
def unchanged(live: Live) -> Iterator[str]:
    """The test must leave every profile exactly as it found it; yields a retired fact's id."""
    live.memory.add_fact("alice", "Prefers tea to coffee.")
    retired = live.memory.add_fact("alice", "Owns a kayak.").fact.id
    live.memory.delete("alice", retired)
    before = _state(live.memory)
    yield retired
    assert _state(live.memory) == before


def assert_envelope(response: httpx.Response, status: int, code: str) -> str:
    """The pinned shape: exactly one `error` object with exactly a code and a message."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert list(body) == ["error"]
    assert sorted(body["error"]) == ["code", "message"]
    assert body["error"]["code"] == code
    message = body["error"]["message"]
    assert isinstance(message, str) and message.endswith(".") and "\n" not in message
    return str(message)


def test_error_body_is_the_one_envelope() -> None:
    assert error_body("fact_not_found", "No such\n fact.") == {
        "error": {"code": "fact_not_found", "message": "No such fact."}
    }


def test_every_kind_of_failure_answers_in_the_envelope(
    live: Live, admin: httpx.Client, alice: httpx.Client, unchanged: str
) -> None:
    with httpx.Client(base_url=live.url) as anonymous:
        assert "API key" in assert_envelope(anonymous.get(FACTS), 401, "unauthorized")
    assert_envelope(alice.get("/v1/nothing-here"), 404, "not_found")
    assert_envelope(alice.put(FACTS), 405, "method_not_allowed")
    assert_envelope(alice.get("/v1/keys"), 403, "forbidden")
    assert "'ghost'" in assert_envelope(admin.get("/v1/profiles/ghost"), 404, "profile_not_found")
    assert "fct_nope" in assert_envelope(alice.get(f"{FACTS}/fct_nope"), 404, "fact_not_found")
    assert "cfl_nope" in assert_envelope(
        alice.post("/v1/profiles/alice/conflicts/cfl_nope/resolve", json={"resolution": "a_true"}),
        404,
        "conflict_not_found",
    )
    assert "run_nope" in assert_envelope(alice.get("/v1/runs/run_nope"), 404, "not_found")
    assert "already exists" in assert_envelope(
        admin.post("/v1/profiles", json={"id": "alice"}), 409, "conflict_state"
    )
    assert "already retired" in assert_envelope(
        alice.delete(f"{FACTS}/{unchanged}"), 409, "conflict_state"
    )
    assert "only" in assert_envelope(
        alice.patch(f"{FACTS}/{unchanged}", json={"text": "Owns two kayaks."}),
        409,
        "conflict_state",
    )
    assert "JSON" in assert_envelope(
        alice.post(FACTS, content=b'{"text": ', headers={"content-type": "application/json"}),
        400,
        "malformed_json",
    )
    assert "application/json" in assert_envelope(
        alice.post(FACTS, content=b"text=hello", headers={"content-type": "text/plain"}),
        415,
        "unsupported_media_type",
    )


def test_a_wrong_field_is_named_with_the_reason(alice: httpx.Client, unchanged: str) -> None:
    cases = [
        ({"text": 42}, "'text' is invalid: Input should be a valid string"),
        ({}, "The body field 'text' is required"),
        ({"text": "Likes jazz.", "confidence": 3}, "'confidence' is invalid"),
        ({"text": "Likes jazz.", "type": "rumour"}, "'type' is invalid: Input should be"),
        ({"text": "Likes jazz.", "colour": "red"}, "'colour' is not a known field"),
        ({"text": "Likes jazz.", "valid_from": "yesterday"}, "'valid_from' is invalid"),
        ([1, 2], "The request body is invalid"),
    ]
    for body, expected in cases:
        message = assert_envelope(alice.post(FACTS, json=body), 422, "invalid_input")
        assert expected in message, (body, message)
    query = assert_envelope(alice.get(FACTS, params={"limit": "many"}), 422, "invalid_input")
    assert "query parameter 'limit'" in query
    too_many = assert_envelope(alice.get(FACTS, params={"limit": 10**6}), 422, "invalid_input")
    assert "less than or equal to 1000" in too_many


def test_the_domain_refusals_are_4xx_with_its_message(alice: httpx.Client, unchanged: str) -> None:
    two = assert_envelope(
        alice.post(FACTS, json={"text": "Likes jazz. Hates rock."}), 422, "invalid_input"
    )
    assert "single sentence" in two
    assert_envelope(
        alice.post(
            FACTS,
            json={"text": "Likes jazz.", "valid_from": "2026-01-02", "valid_to": "2026-01-01"},
        ),
        422,
        "invalid_input",
    )
    fact = alice.get(FACTS).json()[0]["id"]
    assert_envelope(alice.patch(f"{FACTS}/{fact}", json={}), 422, "invalid_input")
    assert_envelope(
        alice.post(f"{FACTS}/{fact}/resolve", json={"existing_id": fact, "verdict": "duplicate"}),
        422,
        "invalid_input",
    )
    assert_envelope(
        alice.post(f"{FACTS}/{fact}/resolve", json={"existing_id": "fct_x", "verdict": "maybe"}),
        422,
        "invalid_input",
    )
    assert_envelope(
        alice.post("/v1/profiles/alice/sessions/s/messages", json={"messages": []}),
        422,
        "invalid_input",
    )
    assert_envelope(
        alice.post(
            "/v1/profiles/alice/sessions/s/messages",
            json={"messages": [{"role": "robot", "content": "hi"}]},
        ),
        422,
        "invalid_input",
    )
    assert_envelope(
        alice.post("/v1/profiles/alice/recall", json={"query": "   "}), 422, "invalid_input"
    )
    assert_envelope(
        alice.post(
            "/v1/profiles/alice/conflicts/cfl_x/resolve",
            json={"resolution": "a_true", "correction": "Likes jazz."},
        ),
        422,
        "invalid_input",
    )
    assert_envelope(
        alice.post(FACTS, json={"text": "Likes jazz.", "valid_from": "0001-01-01T00:00:00+14:00"}),
        422,
        "invalid_input",
    )
    lone = b'{"text": "Likes \\ud800 jazz."}'
    assert_envelope(
        alice.post(FACTS, content=lone, headers={"content-type": "application/json"}),
        422,
        "invalid_input",
    )
    long_key = "k" * 300
    assert_envelope(
        alice.post(
            f"/v1/profiles/alice/sessions/{long_key}/messages",
            json={"messages": [{"role": "user", "content": "hi"}]},
        ),
        422,
        "invalid_input",
    )


def test_an_oversized_body_is_refused_before_it_is_read(
    live: Live, alice: httpx.Client, unchanged: str
) -> None:
    big = b'{"text": "' + b"x" * MAX_BODY_BYTES + b'"}'
    declared = alice.post(FACTS, content=big, headers={"content-type": "application/json"})
    assert "1 MiB" in assert_envelope(declared, 413, "payload_too_large")

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it streams
        yield b'{"text": "'
        for _ in range(3):
            yield b"x" * (MAX_BODY_BYTES // 2)
        yield b'"}'

    streamed = alice.post(FACTS, content=chunks(), headers={"content-type": "application/json"})
    assert "content-length" not in streamed.request.headers
    assert_envelope(streamed, 413, "payload_too_large")
    mcp = alice.post("/mcp", content=big, headers={"content-type": "application/json"})
    assert_envelope(mcp, 413, "payload_too_large")
    just_under = {"text": "Likes jazz.", "quote": "y" * 3000}
    assert alice.post("/v1/profiles/bob/facts", json=just_under).status_code == 404


def test_validation_messages_stay_readable_for_many_problems() -> None:
    errors = [
        {"type": "missing", "loc": ("body", "a"), "msg": "Field required"},
        {"type": "string_type", "loc": ("body", "b"), "msg": "Input should be a valid string"},
        {"type": "missing", "loc": ("query", "c"), "msg": "Field required"},
        {"type": "missing", "loc": ("body", "d"), "msg": "Field required"},
        {"type": "missing", "loc": ("body", "e"), "msg": "Field required"},
    ]
    status, code, message = validation_message(errors)
    assert (status, code) == (422, "invalid_input")
    assert message == (
        "The body field 'a' is required; the body field 'b' is invalid: Input should be a "
        "valid string; the query parameter 'c' is required (and 2 more problems)."
    )
