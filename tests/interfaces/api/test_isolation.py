"""A key for profile alice can neither read nor change profile bob, through any route.

The routes come from the app's own table, so a new route without a case here
fails the test instead of slipping through unchecked.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from somna.embed import BundledEmbedder
from somna.errors import ProfileNotFoundError
from somna.interfaces.api.errors import error_body
from somna.memory import Memory
from tests.interfaces.api.live import Live, api_routes, new_memory

# A valid body for every route that takes one, so the only reason to refuse is the key.
BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("POST", "/v1/profiles"): {"id": "mallory"},
    ("POST", "/v1/profiles/{profile}/sessions/{session_key}/messages"): {
        "messages": [{"role": "user", "content": "Forget everything."}]
    },
    ("POST", "/v1/profiles/{profile}/facts"): {"text": "Owns a red bike."},
    ("POST", "/v1/profiles/{profile}/facts/{fact_id}/resolve"): {
        "existing_id": "{other_fact}",
        "verdict": "duplicate",
    },
    ("PATCH", "/v1/profiles/{profile}/facts/{fact_id}"): {"text": "Hates tea."},
    ("POST", "/v1/profiles/{profile}/conflicts/{conflict_id}/resolve"): {"resolution": "a_true"},
    ("POST", "/v1/profiles/{profile}/search"): {"query": "tea"},
    ("POST", "/v1/profiles/{profile}/recall"): {"query": "tea"},
    ("POST", "/v1/profiles/{profile}/context"): {"query": "tea"},
    ("POST", "/v1/consolidate"): {"profile": "{profile}", "idle_hours": 0},
    ("POST", "/v1/keys"): {"profiles": ["bob"], "admin": True},
    ("POST", "/v1/profiles/{profile}/sessions/merge"): {"into": "{session_key}", "other": "x"},
    ("POST", "/v1/sources/n8n/import"): {"dsn": "postgresql://bob@127.0.0.1:1/n8n"},
}
QUERIES: dict[tuple[str, str], dict[str, str]] = {
    ("GET", "/v1/profiles/{profile}/search"): {"q": "tea"},
}
ADMIN_ONLY = {
    ("POST", "/v1/profiles"),
    "/v1/keys",
    "/v1/keys/{key_id}",
    "/v1/sources/n8n/import",
    "/v1/llm/check",
}
OPEN = {"/v1/health"}
RUNS = {"/v1/runs", "/v1/runs/{run_id}"}


def _bob(memory: Memory) -> dict[str, str]:
    """Give bob a fact pair in conflict, a session and a run; return their ids."""
    tea = memory.add_fact("bob", "Drinks green tea every morning.").fact.id
    coffee = memory.add_fact("bob", "Never drinks tea.").fact.id
    conflict = memory.resolve("bob", coffee, tea, "contradicts").conflict
    assert conflict is not None
    memory.add_messages("bob", "bob-chat", [("user", "My sister is called Eve.")])
    run = memory.consolidate("bob", idle_hours=1000)
    return {
        "fact_id": tea,
        "other_fact": coffee,
        "conflict_id": conflict.id,
        "session_key": "bob-chat",
        "run_id": run.id,
    }


def _state(memory: Memory) -> dict[str, Any]:
    memory.flush()
    return {
        "bob": memory.export("bob"),
        "profiles": [p.id for p in memory.list_profiles()],
        "keys": [k.model_dump_json() for k in memory.keys.all()],
        "runs": [r.id for r in memory.runs(100)],
    }


def _fill(template: Any, values: dict[str, str]) -> Any:
    if isinstance(template, str):
        return template.format(**values)
    if isinstance(template, dict):
        return {k: _fill(v, values) for k, v in template.items()}
    if isinstance(template, list):
        return [_fill(v, values) for v in template]
    return template


def _call(client: httpx.Client, method: str, path: str, values: dict[str, str]) -> httpx.Response:
    body = BODIES.get((method, path))
    return client.request(
        method,
        _fill(path, values),
        json=None if body is None else _fill(body, values),
        params=QUERIES.get((method, path)),
    )


def test_a_key_for_alice_reaches_nothing_of_bob_through_any_route(
    live: Live, alice: httpx.Client
) -> None:
    ids = _bob(live.memory)
    ids["key_id"] = live.memory.keys.all()[0].id
    values = {**ids, "profile": "bob"}
    before = _state(live.memory)
    hidden = error_body("profile_not_found", str(ProfileNotFoundError("bob")))

    checked = []
    for method, path in api_routes(live.app):
        response = _call(alice, method, path, values)
        where = f"{method} {path}"
        if "{profile}" in path or path == "/v1/consolidate":
            assert (response.status_code, response.json()) == (404, hidden), where
        elif (method, path) == ("GET", "/v1/profiles"):
            assert response.status_code == 200, where
            assert [p["id"] for p in response.json()] == ["alice"], where
        elif path in ADMIN_ONLY or (method, path) in ADMIN_ONLY:
            assert response.status_code == 403, where
            assert response.json()["error"]["code"] == "forbidden", where
        elif path == "/v1/runs":
            assert response.status_code == 200, where
            assert ids["run_id"] not in [r["id"] for r in response.json()], where
        elif path == "/v1/runs/{run_id}":
            assert response.status_code == 404, where
        else:
            assert path in OPEN, f"{where} has no isolation case: add one"
            assert response.status_code == 200, where
        checked.append(where)

    assert len(checked) == len(api_routes(live.app)) >= 25
    assert _state(live.memory) == before


def test_the_document_lists_the_key_schemes_on_exactly_the_routes_that_refuse_no_key(
    live: Live,
) -> None:
    values = {**_bob(live.memory), "profile": "alice", "key_id": "key_x"}
    operations = live.app.openapi()["paths"]
    with httpx.Client(base_url=live.url) as anonymous:
        for method, path in api_routes(live.app):
            response = _call(anonymous, method, path, values)
            security = operations[path][method.lower()].get("security")
            if path in OPEN:
                assert response.status_code == 200 and security is None, f"{method} {path}"
            else:
                assert response.status_code == 401, f"{method} {path}"
                assert security == [{"bearer": []}, {"apiKey": []}], f"{method} {path}"


def test_bob_ids_under_alice_profile_are_not_found(live: Live, alice: httpx.Client) -> None:
    values = {**_bob(live.memory), "profile": "alice"}
    before = _state(live.memory)
    by_id = [
        (method, path)
        for method, path in api_routes(live.app)
        if "{fact_id}" in path or "{conflict_id}" in path
    ]
    assert len(by_id) == 6
    for method, path in by_id:
        response = _call(alice, method, path, values)
        assert response.status_code == 404, f"{method} {path}"
        assert response.json()["error"]["code"] in {"fact_not_found", "conflict_not_found"}
        assert "bob" not in response.json()["error"]["message"]
    assert _state(live.memory) == before


def test_an_unreachable_profile_looks_exactly_like_a_missing_one(
    live: Live, admin: httpx.Client, alice: httpx.Client
) -> None:
    missing = admin.get("/v1/profiles/ghost/facts")
    hidden = alice.get("/v1/profiles/bob/facts")
    assert missing.status_code == hidden.status_code == 404
    assert missing.json() == error_body("profile_not_found", str(ProfileNotFoundError("ghost")))
    assert hidden.json() == error_body("profile_not_found", str(ProfileNotFoundError("bob")))
    assert set(missing.headers) == set(hidden.headers)


def test_a_revoked_or_unknown_key_reaches_nothing(live: Live) -> None:
    key = live.memory.keys.all()[1]
    live.memory.keys.revoke(key.id)
    for headers in (
        {"Authorization": f"Bearer {live.alice}"},
        {"X-API-Key": "somna_not-a-key"},
        {"Authorization": "Basic YWxpY2U6c2VjcmV0"},
        {},
    ):
        with httpx.Client(base_url=live.url, headers=headers) as client:
            response = client.get("/v1/profiles/alice/facts")
        assert response.status_code == 401, headers
        assert response.json()["error"]["code"] == "unauthorized"
        assert response.headers["www-authenticate"] == "Bearer"


def test_a_key_revoked_by_another_process_is_refused_within_seconds(
    live: Live, alice: httpx.Client, tmp_path: Path, embedder: BundledEmbedder
) -> None:
    assert alice.get("/v1/profiles/alice/facts").status_code == 200
    with new_memory(tmp_path, embedder) as other:  # `somna keys revoke` on the same database
        other.keys.revoke(next(k.id for k in other.keys.all() if k.name == "alice"))
    deadline = time.monotonic() + 10
    while (status := alice.get("/v1/profiles/alice/facts").status_code) == 200:
        assert time.monotonic() < deadline, "the revoked key was still accepted after 10 s"
        time.sleep(0.1)
    assert status == 401
    assert alice.post("/mcp", json={}).status_code == 401
