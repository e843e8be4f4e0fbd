"""The conversation side over real HTTP: sessions across devices, threads, metrics, and the n8n
import, with what each key may do."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.interfaces.api.live import Live
from tests.sources.n8n_rows import N8nChat
from tests.store.pg_servers import TestServers

BASE = "/v1/profiles/alice"


def _say(client: httpx.Client, key: str, device: str, *turns: tuple[str, str, str]) -> None:
    messages = [{"role": r, "content": c, "at": at, "device": device} for r, c, at in turns]
    response = client.post(f"{BASE}/sessions/{key}/messages", json={"messages": messages})
    assert response.status_code == 200, response.text


def test_sessions_resume_and_merge_across_devices(alice: httpx.Client) -> None:
    _say(alice, "phone", "phone-1", ("user", "Plan a picnic for Sunday.", "2026-05-03T08:00:00Z"))
    _say(alice, "desk", "desk-1", ("user", "Add lemonade to it.", "2026-05-03T08:10:00Z"))
    listed = alice.get(f"{BASE}/sessions").json()
    assert [(s["key"], s["device"], s["messages"]) for s in listed] == [
        ("desk", "desk-1", 1),
        ("phone", "phone-1", 1),
    ]
    assert listed[0]["status"] == "closed"  # quiet for longer than idle_hours by now
    only = alice.get(f"{BASE}/sessions", params={"device": "phone-1", "limit": 5}).json()
    assert [s["key"] for s in only] == ["phone"]
    resumed = alice.get(f"{BASE}/sessions/resume").json()
    assert resumed["key"] == "desk" and resumed["thread"]["text"] == "user: Add lemonade to it."
    merged = alice.post(f"{BASE}/sessions/merge", json={"into": "phone", "other": "desk"})
    assert merged.status_code == 200 and merged.json()["messages"] == 2
    window = alice.get(f"{BASE}/sessions/phone/messages").json()
    assert [m["meta"]["device"] for m in window] == ["phone-1", "desk-1"]
    refused = alice.post(f"{BASE}/sessions/merge", json={"into": "phone", "other": "phone"})
    assert refused.status_code == 422
    gone = alice.post(f"{BASE}/sessions/merge", json={"into": "phone", "other": "desk"})
    assert gone.status_code == 404 and "desk" in gone.json()["error"]["message"]


def test_a_consolidated_session_cannot_be_merged(alice: httpx.Client) -> None:
    _say(alice, "old", "phone", ("user", "I adopted a cat named Miso.", "2026-05-01T08:00:00Z"))
    assert alice.post("/v1/consolidate", json={"profile": "alice"}).status_code == 200
    _say(alice, "new", "phone", ("user", "Any vet nearby?", "2026-05-03T08:00:00Z"))
    refused = alice.post(f"{BASE}/sessions/merge", json={"into": "new", "other": "old"})
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "conflict_state"
    archived = [s for s in alice.get(f"{BASE}/sessions").json() if s["key"] == "old"]
    assert archived[0]["status"] == "archived" and archived[0]["consolidated_at"]


def test_the_thread_folds_past_its_budget(alice: httpx.Client) -> None:
    turns = [
        (role, f"Turn {i}: the {role} talks about shelf number {i} in the garage.",
         f"2026-05-03T08:{i:02d}:00Z")
        for i, role in enumerate(["user", "assistant"] * 8)
    ]  # fmt: skip
    _say(alice, "long", "desk", *turns)
    thread = alice.get(f"{BASE}/sessions/long/thread", params={"budget": 120, "keep": 3}).json()
    assert thread["folded"] == 13 and len(thread["turns"]) == 3
    assert thread["text"].startswith("Earlier in this conversation: ") and thread["tokens"] <= 120
    whole = alice.get(f"{BASE}/sessions/long/thread", params={"budget": 5000}).json()
    assert whole["summary"] is None and len(whole["turns"]) == 16
    assert alice.get(f"{BASE}/sessions/long/thread", params={"budget": 10}).status_code == 422


def test_metrics_of_a_profile(alice: httpx.Client) -> None:
    _say(
        alice,
        "m",
        "phone",
        ("user", "Find me a dentist.", "2026-05-03T08:00:00Z"),
        ("assistant", "Could you clarify which neighborhood?", "2026-05-03T08:00:30Z"),
    )
    found = alice.get(f"{BASE}/metrics").json()
    assert found["sessions"] == 1 and found["clarifications"] == 1
    assert found["per_session"][0]["time_to_close_s"] == 30.0
    one = alice.get(f"{BASE}/metrics", params={"session": "nowhere"}).json()
    assert one["sessions"] == 0 and one["per_session"] == []


def test_another_profile_s_sessions_are_unreachable(alice: httpx.Client) -> None:
    for path in ("/sessions", "/sessions/resume", "/metrics", "/sessions/k/thread"):
        assert alice.get(f"/v1/profiles/bob{path}").status_code == 404


@pytest.fixture
def chat(postgres_servers: TestServers, tmp_path: Path) -> N8nChat:
    return N8nChat(postgres_servers, tmp_path / "n8n")


def test_n8n_import_over_http_is_admin_only_and_imports_once(
    live: Live, admin: httpx.Client, alice: httpx.Client, chat: N8nChat
) -> None:
    chat.say("user-7", ("human", "I live in Porto."), ("ai", "Lovely city."))
    chat.say("user-8__Chat_memory__2_", ("human", "I fly kites."))
    body = {"dsn": chat.dsn, "table": chat.table, "node_names": ["Chat memory (2)"]}
    assert alice.post("/v1/sources/n8n/import", json=body).status_code == 403
    first = admin.post("/v1/sources/n8n/import", json=body)
    assert first.status_code == 200, first.text
    report = first.json()
    assert (report["rows"], report["messages"], report["new_sessions"]) == (3, 3, 2)
    assert report["kinds"] == {"human": 2, "ai": 1}
    assert report["profiles"] == 2 and report["source"].startswith("n8n:")
    assert admin.get("/v1/profiles/user-8").status_code == 200  # the node's suffix dropped
    again = admin.post("/v1/sources/n8n/import", json=body).json()
    assert again["rows"] == 0 and again["messages"] == 0
    window = admin.get("/v1/profiles/user-7/sessions").json()
    assert [s["messages"] for s in window] == [2]
    bad = admin.post("/v1/sources/n8n/import", json={**body, "profile_from": "everyone"})
    assert bad.status_code == 422
    missing = admin.post("/v1/sources/n8n/import", json={"table": chat.table})
    assert missing.status_code == 422 and "SOMNA_N8N_DSN" in missing.json()["error"]["message"]
