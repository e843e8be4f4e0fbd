"""What docs/api.md promises about adding facts holds over real HTTP."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

PAGE = (Path(__file__).resolve().parents[3] / "docs" / "api.md").read_text(encoding="utf-8")


def test_the_similar_fact_in_the_docs_is_what_the_server_answers(alice: httpx.Client) -> None:
    example = re.search(
        r"-d '\{\"text\": \"(?P<new>[^\"]+)\".*?\"similar\": \[\{\"fact\": \{\"id\": \"[^\"]+\", "
        r"\"text\": \"(?P<old>[^\"]+)\", …\}, \"similarity\": (?P<score>[0-9.]+)\}\]",
        PAGE,
        re.S,
    )
    assert example is not None, "docs/api.md lost its add-a-fact example"
    existing = alice.post("/v1/profiles/alice/facts", json={"text": example["old"]})
    assert existing.status_code == 201
    alice.post("/v1/profiles/alice/facts", json={"text": "Lives in Paris."})
    added = alice.post(
        "/v1/profiles/alice/facts", json={"text": example["new"], "category": "home"}
    ).json()
    assert added["created"] is True
    assert added["note"] is None
    [similar] = added["similar"]  # Paris is far below the floor, as the docs say
    assert similar["fact"]["id"] == existing.json()["fact"]["id"]
    assert round(similar["similarity"], 2) == float(example["score"])


def test_re_adding_a_known_fact_with_another_category_says_it_kept_the_stored_one(
    alice: httpx.Client,
) -> None:
    first = alice.post(
        "/v1/profiles/alice/facts", json={"text": "Lives in Berlin.", "category": "home"}
    ).json()["fact"]
    again = alice.post(
        "/v1/profiles/alice/facts", json={"text": "Lives in Berlin.", "category": "residence"}
    )
    assert again.status_code == 200
    body = again.json()
    assert body["created"] is False
    assert body["fact"]["id"] == first["id"]
    assert body["fact"]["category"] == "home"
    note = body["note"]
    assert "'home'" in note and "'residence'" in note
    assert f"PATCH /v1/profiles/alice/facts/{first['id']}" in note
    same = alice.post(
        "/v1/profiles/alice/facts", json={"text": "Lives in Berlin.", "category": "home"}
    ).json()
    assert same["created"] is False and same["note"] is None
    # What the note advises does change it.
    patched = alice.patch(f"/v1/profiles/alice/facts/{first['id']}", json={"category": "residence"})
    assert patched.status_code == 200
    assert patched.json()["category"] == "residence"
