"""POST …/facts answers with the facts the new one may contradict, apart from `similar`."""

from __future__ import annotations

import httpx


def test_adding_a_fact_lists_the_candidates_to_judge(admin: httpx.Client) -> None:
    base = "/v1/profiles/alice/facts"
    paris = admin.post(base, json={"text": "The user lives in Paris."}).json()["fact"]["id"]
    added = admin.post(base, json={"text": "The user lives in Berlin."})
    assert added.status_code == 201, added.text
    body = added.json()
    assert body["similar"] == []
    assert [c["fact"]["id"] for c in body["candidates"]] == [paris]
    assert 0.6 <= body["candidates"][0]["similarity"] < 0.8
