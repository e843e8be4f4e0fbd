"""Keys scoped to a prefix of profile ids: one credential for a bot's many users."""

from __future__ import annotations

import pytest

from somna import InvalidInputError, Memory


def test_a_prefix_key_reaches_and_opens_only_profiles_under_its_prefix(memory: Memory) -> None:
    memory.create_profile("alice")
    key, secret = memory.create_key(prefix="shop-", name="n8n shop bot")
    found = memory.authenticate(secret)  # read back from the store, prefix included
    assert found.prefix == "shop-" and found.profiles == [] and not found.admin
    assert found.can_reach("shop-42") and found.can_reach("shop-")
    assert (
        not found.can_reach("alice")
        and not found.can_reach("shop")
        and not found.can_reach("x-shop-1")
    )

    memory.open_profile(found, "shop-42")
    assert memory.get_profile("shop-42").name == "shop-42"
    memory.open_profile(found, "shop-42")  # the second request finds it
    memory.open_profile(found, "alice")  # outside the prefix: nothing happens
    assert [p.id for p in memory.list_profiles()] == ["alice", "shop-42"]

    memory.revoke_key(key.id)
    revoked = memory.list_keys()[0]
    assert not revoked.can_reach("shop-43")
    memory.open_profile(revoked, "shop-43")
    assert [p.id for p in memory.list_profiles()] == ["alice", "shop-42"]


def test_a_prefix_key_and_named_profiles_add_up(memory: Memory) -> None:
    memory.create_profile("alice")
    _, secret = memory.create_key(prefix="shop-", profiles=["alice"])
    found = memory.authenticate(secret)
    assert found.can_reach("alice") and found.can_reach("shop-1") and not found.can_reach("bob")


@pytest.mark.parametrize("prefix", ["", "-shop", "shop one", "a" * 65, "shop/"])
def test_a_prefix_must_start_a_valid_profile_id(memory: Memory, prefix: str) -> None:
    with pytest.raises(InvalidInputError, match="is not a profile prefix"):
        memory.create_key(prefix=prefix)
    assert memory.list_keys() == []


def test_an_invalid_profile_under_the_prefix_is_refused_and_not_created(memory: Memory) -> None:
    _, secret = memory.create_key(prefix="shop-")
    with pytest.raises(InvalidInputError, match="not a valid profile id"):
        memory.open_profile(memory.authenticate(secret), "shop-" + "x" * 200)
    assert memory.list_profiles() == []
