"""POST …/facts:batch stores many facts in one call, or none of them."""

from __future__ import annotations

import httpx

BASE = "/v1/profiles/alice/facts"


def test_a_batch_stores_each_fact_once_in_order(alice: httpx.Client) -> None:
    sent = [
        {"text": "Keeps three hives of bees."},
        {"text": "Drives a green van.", "category": "transport"},
        {"text": "Keeps three hives of bees.", "quote": "my three hives"},
    ]
    answer = alice.post(f"{BASE}:batch", json={"facts": sent})
    assert answer.status_code == 200, answer.text
    added = answer.json()["added"]
    assert [a["fact"]["text"] for a in added] == [f["text"] for f in sent]
    assert [a["created"] for a in added] == [True, True, False]
    assert added[2]["fact"]["id"] == added[0]["fact"]["id"]
    listed = alice.get(BASE).json()
    assert sorted(f["text"] for f in listed) == [
        "Drives a green van.",
        "Keeps three hives of bees.",
    ]


def test_a_fact_the_store_refuses_names_its_index_and_nothing_is_written(
    alice: httpx.Client,
) -> None:
    sent = [
        {"text": "Keeps three hives of bees."},
        {"text": "Rents a stall.", "valid_from": "2026-05-02T00:00:00Z", "valid_to": "2026-05-01"},
    ]
    answer = alice.post(f"{BASE}:batch", json={"facts": sent})
    assert answer.status_code == 422, answer.text
    assert "index 1 of the batch" in answer.json()["error"]["message"]
    assert alice.get(BASE).json() == []


def test_a_malformed_fact_names_its_place_and_nothing_is_written(alice: httpx.Client) -> None:
    sent = [{"text": "Keeps three hives of bees."}, {"text": ""}]
    answer = alice.post(f"{BASE}:batch", json={"facts": sent})
    assert answer.status_code == 422, answer.text
    assert "'facts.1.text'" in answer.json()["error"]["message"]
    assert alice.get(BASE).json() == []


def test_an_empty_batch_is_refused(alice: httpx.Client) -> None:
    answer = alice.post(f"{BASE}:batch", json={"facts": []})
    assert answer.status_code == 422, answer.text
    assert alice.post("/v1/profiles/bob/facts:batch", json={"facts": []}).status_code in (403, 404)
