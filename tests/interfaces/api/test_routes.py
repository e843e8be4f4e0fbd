"""Every REST route, over real HTTP: what a client sends and what it gets back.

The first test walks a profile's whole life through the API and then checks,
against the app's own route table, that it called every route.
"""

from __future__ import annotations

from pathlib import Path

import httpx

from somna.embed import BundledEmbedder
from somna.model import FactStatus
from tests.interfaces.api.live import Live, api_routes, live_server, route_pattern


def test_a_profile_lives_its_whole_life_through_every_route(
    live: Live, admin: httpx.Client
) -> None:
    called: set[tuple[str, str]] = set()

    def record(request: httpx.Request) -> None:
        called.add((request.method, request.url.path))

    admin.event_hooks["request"].append(record)
    base = "/v1/profiles/carol"

    health = admin.get("/v1/health")
    assert health.status_code == 200 and health.json()["auth"] is True

    created = admin.post("/v1/profiles", json={"id": "carol", "name": "Carol"})
    assert created.status_code == 201 and created.json()["name"] == "Carol"
    assert "carol" in [p["id"] for p in admin.get("/v1/profiles").json()]
    assert admin.get(base).json()["id"] == "carol"

    turns = [
        {"role": "user", "content": "I moved to Berlin last week."},
        {"role": "assistant", "content": "Noted, welcome to Berlin!"},
    ]
    session = admin.post(f"{base}/sessions/chat-1/messages", json={"messages": turns})
    assert session.status_code == 200 and session.json()["key"] == "chat-1"
    window = admin.get(f"{base}/sessions/chat-1/messages", params={"n": 15}).json()
    assert [m["content"] for m in window] == [t["content"] for t in turns]
    listed = admin.get(f"{base}/sessions").json()
    assert [(s["key"], s["messages"]) for s in listed] == [("chat-1", 2)]
    assert admin.get(f"{base}/sessions/resume").json()["key"] == "chat-1"
    thread = admin.get(f"{base}/sessions/chat-1/thread").json()
    assert thread["summary"] is None and len(thread["turns"]) == 2
    later = [{"role": "user", "content": "The flat has a balcony.", "device": "tablet"}]
    admin.post(f"{base}/sessions/chat-2/messages", json={"messages": later})
    merged = admin.post(f"{base}/sessions/merge", json={"into": "chat-1", "other": "chat-2"})
    assert merged.status_code == 200 and merged.json()["device"] == "tablet"
    assert admin.get(f"{base}/metrics").json()["turns"] == 3
    no_table = admin.post("/v1/sources/n8n/import", json={})  # no DSN: tested in full elsewhere
    assert no_table.status_code == 422

    first = admin.post(f"{base}/facts", json={"text": "Lives in Paris.", "category": "home"})
    assert first.status_code == 201 and first.json()["created"] is True
    paris = first.json()["fact"]["id"]
    again = admin.post(f"{base}/facts", json={"text": "Lives in Paris."})
    assert again.status_code == 200 and again.json()["created"] is False
    near = admin.post(f"{base}/facts", json={"text": "Lives in Paris, France."}).json()
    assert [s["fact"]["id"] for s in near["similar"]] == [paris]
    assert 0.8 <= near["similar"][0]["similarity"] <= 1.0
    outcome = admin.post(
        f"{base}/facts/{near['fact']['id']}/resolve",
        json={"existing_id": paris, "verdict": "duplicate"},
    )
    assert outcome.status_code == 200
    assert {f["id"]: f["status"] for f in outcome.json()["facts"]}[near["fact"]["id"]] == "retired"

    veggie = admin.post(f"{base}/facts", json={"text": "Is vegetarian."}).json()["fact"]["id"]
    meat = admin.post(f"{base}/facts", json={"text": "Eats steak every day."}).json()["fact"]["id"]
    batch = admin.post(f"{base}/facts:batch", json={"facts": [{"text": "Keeps bees."}]})
    assert batch.status_code == 200 and batch.json()["added"][0]["created"], batch.text
    disputed = admin.post(
        f"{base}/facts/{meat}/resolve", json={"existing_id": veggie, "verdict": "contradicts"}
    ).json()
    conflict = disputed["conflict"]["id"]
    listed = admin.get(f"{base}/conflicts", params={"status": "open"}).json()
    assert [c["conflict"]["id"] for c in listed] == [conflict]
    veggie_wins = "a_true" if listed[0]["fact_a"]["id"] == veggie else "b_true"
    settled = admin.post(f"{base}/conflicts/{conflict}/resolve", json={"resolution": veggie_wins})
    assert settled.status_code == 200 and settled.json()["conflict"]["status"] == "resolved"

    assert admin.get(f"{base}/facts/{veggie}").json()["status"] == "verified"
    verified = admin.get(f"{base}/facts", params={"status": "verified", "type": "fact"}).json()
    assert [f["id"] for f in verified] == [veggie]
    corrected = admin.patch(f"{base}/facts/{paris}", json={"text": "Lives in Berlin."})
    assert corrected.status_code == 200 and corrected.json()["id"] != paris
    berlin = corrected.json()["id"]
    history = admin.get(f"{base}/facts/{berlin}/history").json()
    assert [v["text"] for v in history["versions"]] == ["Lives in Paris.", "Lives in Berlin."]
    assert history["events"] and history["fact"]["id"] == berlin

    hits = admin.get(f"{base}/search", params={"q": "Which city does she live in?"}).json()
    assert hits[0]["fact"]["id"] == berlin and hits[0]["score"] > 0
    posted = admin.post(f"{base}/search", json={"query": "Which city?", "k": 1}).json()
    assert len(posted) == 1
    recalled = admin.post(
        f"{base}/recall", json={"query": "where does she live", "k": 3, "types": ["fact"]}
    ).json()
    assert recalled[0]["id"] == berlin and recalled[0]["kind"] == "fact"
    assert {"rrf", "recency", "confidence"} <= set(recalled[0]["signals"])
    context = admin.post(
        f"{base}/context", json={"query": "vegetarian dinner plans", "budget_tokens": 200}
    )
    assert "Is vegetarian." in context.json()["context"]

    retired = admin.delete(f"{base}/facts/{meat}")
    assert retired.status_code == 409  # already retired when the conflict was settled
    gone = admin.delete(f"{base}/facts/{berlin}", params={"reason": "moved away"})
    assert gone.status_code == 200 and gone.json()["status"] == FactStatus.RETIRED

    run = admin.post("/v1/consolidate", json={"profile": "carol", "idle_hours": 0})
    assert run.status_code == 200, run.text
    assert run.json()["profile_id"] == "carol" and run.json()["sessions_seen"] == 1
    assert [r["id"] for r in admin.get("/v1/runs").json()] == [run.json()["id"]]
    assert admin.get(f"/v1/runs/{run.json()['id']}").json()["status"] == run.json()["status"]
    summaries = admin.get(f"{base}/summaries", params={"kind": "session"})
    assert summaries.status_code == 200 and isinstance(summaries.json(), list)
    checked = admin.get("/v1/llm/check")
    assert checked.status_code == 200, checked.text
    assert checked.json()["provider"] == "rules" and checked.json()["usable"] is True

    exported = admin.get(f"{base}/export").json()
    assert exported["profile"]["id"] == "carol"
    assert {"facts", "events", "evidence", "conflicts", "summaries", "sessions"} <= set(exported)

    made = admin.post("/v1/keys", json={"profiles": ["carol"], "name": "carol's bot"})
    assert made.status_code == 201 and made.json()["secret"].startswith("somna_")
    key_id = made.json()["key"]["id"]
    assert "secret_hash" not in made.json()["key"]
    with live.client(made.json()["secret"]) as carol:
        assert carol.get(base).status_code == 200
        assert key_id in [k["id"] for k in admin.get("/v1/keys").json()]
        assert admin.delete(f"/v1/keys/{key_id}").json()["revoked_at"] is not None
        assert carol.get(base).status_code == 401

    erased = admin.delete(base)
    assert erased.status_code == 200 and erased.json()["erased"]["facts"] >= 4
    assert admin.get(base).json()["error"]["code"] == "profile_not_found"

    routes = api_routes(live.app)
    missed = [
        f"{method} {template}"
        for method, template in routes
        if not any(m == method and route_pattern(template).match(p) for m, p in called)
    ]
    assert len(routes) >= 25 and missed == []


def test_a_profile_key_uses_its_profile_with_either_header(live: Live) -> None:
    with httpx.Client(base_url=live.url, headers={"X-API-Key": live.alice}) as client:
        added = client.post("/v1/profiles/alice/facts", json={"text": "Plays the cello."})
        assert added.status_code == 201
        assert added.json()["fact"]["profile_id"] == "alice"
    history = live.memory.history("alice", added.json()["fact"]["id"])
    assert history.events[0].actor.startswith("api:key_")


def test_a_profile_key_consolidates_only_a_named_profile(alice: httpx.Client) -> None:
    refused = alice.post("/v1/consolidate", json={})
    assert refused.status_code == 403  # as docs/api.md's error table says of admin-only calls
    assert refused.json()["error"]["code"] == "forbidden"
    assert "admin" in refused.json()["error"]["message"]
    assert alice.post("/v1/consolidate", json={"profile": "alice"}).status_code == 200
    assert [r["profile_id"] for r in alice.get("/v1/runs").json()] == ["alice"]


def test_an_app_without_keys_answers_only_local_callers(
    tmp_path: Path, embedder: BundledEmbedder
) -> None:
    with live_server(tmp_path, embedder, auth=False) as live, live.client() as client:
        assert client.get("/v1/profiles").status_code == 200
        assert client.get("/v1/profiles/bob").status_code == 200
        rebound = client.get("/v1/profiles", headers={"Host": "evil.example:8420"})
        assert rebound.status_code == 400
        assert rebound.json()["error"]["code"] == "bad_request"
        page = client.get("/v1/profiles", headers={"Origin": "https://evil.example"})
        assert page.status_code == 403
        local_page = client.get("/v1/profiles", headers={"Origin": "http://localhost:3000"})
        assert local_page.status_code == 200
