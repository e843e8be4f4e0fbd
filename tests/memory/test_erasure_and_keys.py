"""Forget erases a profile for good; export gives back everything; API keys are scoped."""

from __future__ import annotations

import json

import pytest

from somna import AuthenticationError, InvalidInputError, Memory, ProfileNotFoundError
from somna.errors import NotFoundError


@pytest.fixture
def alice(memory: Memory) -> Memory:
    memory.create_profile("alice")
    memory.create_profile("bob")
    for who in ("alice", "bob"):
        a = memory.add_fact(who, "Is vegetarian.", quote="I don't eat meat").fact
        b = memory.add_fact(who, "Eats steak every week.").fact
        memory.resolve(who, b.id, a.id, "contradicts")
        memory.add_messages(who, "chat", [("user", "Hello there.")])
    return memory


def test_export_holds_everything_a_profile_has(alice: Memory) -> None:
    data = alice.export("alice")
    json.dumps(data)  # JSON-ready as it is
    assert data["profile"]["id"] == "alice"
    assert {f["text"] for f in data["facts"]} == {"Is vegetarian.", "Eats steak every week."}
    assert [e["quote"] for e in data["evidence"]] == ["I don't eat meat"]
    assert len(data["events"]) == 4 and len(data["conflicts"]) == 1
    assert [m["content"] for m in data["messages"]] == ["Hello there."]


def test_forget_erases_the_profile_and_counts_what_went(alice: Memory) -> None:
    bob_before = alice.export("bob")
    receipt = alice.forget("alice")
    held = {"conflicts": 1, "fact_events": 4, "evidence": 1, "messages": 1, "facts": 2,
            "sessions": 1, "profiles": 1, "tombstones": 1}  # fmt: skip
    # Every other table the profile could have rows in is named, with nothing in it.
    assert {"summaries", "archived_messages", "runs", "run_entries", "api_keys"} <= set(receipt)
    assert receipt == held | {table: 0 for table in set(receipt) - set(held)}
    with pytest.raises(ProfileNotFoundError):
        alice.get_profile("alice")
    with pytest.raises(ProfileNotFoundError):
        alice.forget("alice")
    assert alice.export("bob") == bob_before
    alice.create_profile("alice")  # the name is free again, and empty
    assert alice.list_facts("alice") == []


def test_an_api_key_reaches_only_its_profiles(alice: Memory) -> None:
    key, secret = alice.keys.create(profiles=["alice"], name="agent")
    assert secret.startswith("somna_") and secret not in key.model_dump_json()
    found = alice.keys.authenticate(secret)
    assert found.id == key.id and found.can_reach("alice") and not found.can_reach("bob")
    admin, admin_secret = alice.keys.create(admin=True)
    assert alice.keys.authenticate(admin_secret).can_reach("anyone")
    assert {k.id for k in alice.keys.all()} == {key.id, admin.id}


def test_unknown_or_revoked_keys_are_refused(alice: Memory) -> None:
    key, secret = alice.keys.create(profiles=["alice"])
    with pytest.raises(AuthenticationError):
        alice.keys.authenticate("somna_not-a-key")
    alice.keys.revoke(key.id)
    with pytest.raises(AuthenticationError, match="revoked"):
        alice.keys.authenticate(secret)
    with pytest.raises(NotFoundError):
        alice.keys.revoke("key_nope")


def test_a_key_needs_a_real_profile_or_admin(alice: Memory) -> None:
    with pytest.raises(InvalidInputError, match="at least one profile"):
        alice.keys.create()
    with pytest.raises(ProfileNotFoundError):
        alice.keys.create(profiles=["carol"])
    assert alice.keys.all() == []
