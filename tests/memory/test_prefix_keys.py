"""Keys scoped to a prefix of profile ids: one credential for a bot's many users."""

from __future__ import annotations

import pytest

from somna import InvalidInputError, Memory


def test_a_prefix_key_reaches_and_opens_only_profiles_under_its_prefix(memory: Memory) -> None:
    memory.create_profile("alice")
    key, secret = memory.keys.create(prefix="shop-", name="n8n shop bot")
    found = memory.keys.authenticate(secret)  # read back from the store, prefix included
    assert found.prefix == "shop-" and found.profiles == [] and not found.admin
    assert found.can_reach("shop-42") and found.can_reach("shop-")
    assert (
        not found.can_reach("alice")
        and not found.can_reach("shop")
        and not found.can_reach("x-shop-1")
    )

    memory.keys.open_profile(found, "shop-42")
    assert memory.get_profile("shop-42").name == "shop-42"
    memory.keys.open_profile(found, "shop-42")  # the second request finds it
    memory.keys.open_profile(found, "alice")  # outside the prefix: nothing happens
    assert [p.id for p in memory.list_profiles()] == ["alice", "shop-42"]

    memory.keys.revoke(key.id)
    revoked = memory.keys.all()[0]
    assert not revoked.can_reach("shop-43")
    memory.keys.open_profile(revoked, "shop-43")
    assert [p.id for p in memory.list_profiles()] == ["alice", "shop-42"]


def test_a_prefix_key_and_named_profiles_add_up(memory: Memory) -> None:
    memory.create_profile("alice")
    _, secret = memory.keys.create(prefix="shop-", profiles=["alice"])
    found = memory.keys.authenticate(secret)
    assert found.can_reach("alice") and found.can_reach("shop-1") and not found.can_reach("bob")


@pytest.mark.parametrize("prefix", ["", "-shop", "shop one", "a" * 65, "shop/"])
def test_a_prefix_must_start_a_valid_profile_id(memory: Memory, prefix: str) -> None:
    with pytest.raises(InvalidInputError, match="is not a profile prefix"):
        memory.keys.create(prefix=prefix)
    assert memory.keys.all() == []


def test_an_invalid_profile_under_the_prefix_is_refused_and_not_created(memory: Memory) -> None:
    _, secret = memory.keys.create(prefix="shop-")
    with pytest.raises(InvalidInputError, match="not a valid profile id"):
        memory.keys.open_profile(memory.keys.authenticate(secret), "shop-" + "x" * 200)
    assert memory.list_profiles() == []
