"""A key found in the store is trusted for a second; revoking it through the same `Keys` is
seen at once, by another process within that second."""

from __future__ import annotations

import pytest

from somna import AuthenticationError, Memory
from somna.memory import keys as keys_module
from somna.memory.keys import KEY_RECHECK_SECONDS, Keys


class Ticker:
    """A monotonic clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def ticker() -> Ticker:
    return Ticker()


@pytest.fixture
def server(memory: Memory, ticker: Ticker) -> Keys:
    """The keys as a server process holds them, over the same store as `memory`."""
    memory.create_profile("alice")
    return Keys(memory.store, memory.now, timer=ticker)


def test_a_key_is_remembered_only_once_it_was_read(memory: Memory, server: Keys) -> None:
    _, secret = memory.keys.create(profiles=["alice"])
    assert server.remembered(secret) is None
    assert server.remembered("somna_not-a-key") is None
    found = server.authenticate(secret)
    assert server.remembered(secret) == found
    with pytest.raises(AuthenticationError):
        server.authenticate("somna_not-a-key")
    assert server.remembered("somna_not-a-key") is None


def test_a_key_revoked_by_another_process_is_refused_after_a_second(
    memory: Memory, server: Keys, ticker: Ticker
) -> None:
    key, secret = memory.keys.create(profiles=["alice"])
    server.authenticate(secret)
    memory.keys.revoke(key.id)  # `somna keys revoke`, another process
    ticker.now += KEY_RECHECK_SECONDS / 2
    assert server.authenticate(secret).id == key.id  # trusted from the last read
    ticker.now += KEY_RECHECK_SECONDS / 2
    assert server.remembered(secret) is None
    with pytest.raises(AuthenticationError, match="revoked"):
        server.authenticate(secret)


def test_a_key_revoked_through_the_same_keys_is_refused_at_once(
    memory: Memory, server: Keys
) -> None:
    key, secret = memory.keys.create(profiles=["alice"])
    _, other = memory.keys.create(profiles=["alice"])
    server.authenticate(secret)
    server.authenticate(other)
    server.revoke(key.id)
    assert server.remembered(secret) is None
    with pytest.raises(AuthenticationError, match="revoked"):
        server.authenticate(secret)
    assert server.remembered(other) is not None  # the other key is still trusted


def test_a_remembered_key_is_read_again_after_a_second(
    memory: Memory, server: Keys, ticker: Ticker
) -> None:
    _, secret = memory.keys.create(profiles=["alice"])
    first = server.authenticate(secret)
    ticker.now += KEY_RECHECK_SECONDS * 0.9
    assert server.authenticate(secret) is first  # not read again: the clock is not reset
    ticker.now += KEY_RECHECK_SECONDS * 0.2
    again = server.authenticate(secret)
    assert again == first and again is not first


def test_only_so_many_keys_are_remembered(
    memory: Memory, server: Keys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(keys_module, "_MAX_REMEMBERED", 2)
    secrets = [memory.keys.create(profiles=["alice"])[1] for _ in range(3)]
    for secret in secrets:
        server.authenticate(secret)
    assert server.remembered(secrets[0]) is None  # the oldest read went first
    assert server.remembered(secrets[1]) is not None
    assert server.remembered(secrets[2]) is not None


def test_a_prefix_key_opens_a_profile_once_a_second(
    memory: Memory, server: Keys, ticker: Ticker
) -> None:
    _, secret = memory.keys.create(prefix="shop-")
    key = server.authenticate(secret)
    assert server.must_open(key, "shop-1")
    assert not server.must_open(key, "alice")  # outside the prefix: nothing to open
    server.open_profile(key, "shop-1")
    assert memory.get_profile("shop-1").id == "shop-1"
    assert not server.must_open(key, "shop-1")
    ticker.now += KEY_RECHECK_SECONDS
    assert server.must_open(key, "shop-1")


def test_an_erased_profile_is_opened_again_by_the_next_request(memory: Memory) -> None:
    _, secret = memory.keys.create(prefix="shop-")
    key = memory.keys.authenticate(secret)
    memory.keys.open_profile(key, "shop-1")
    assert not memory.keys.must_open(key, "shop-1")
    memory.forget("shop-1")
    assert memory.keys.must_open(key, "shop-1")
    memory.keys.open_profile(key, "shop-1")
    assert memory.get_profile("shop-1").id == "shop-1"


def test_an_erased_profile_is_taken_out_of_remembered_keys_at_once(memory: Memory) -> None:
    memory.create_profile("alice")
    _, secret = memory.keys.create(profiles=["alice"])
    assert memory.keys.authenticate(secret).can_reach("alice")
    memory.forget("alice")
    memory.create_profile("alice")  # someone else, under the same id
    with pytest.raises(AuthenticationError):  # the key reached nothing else, so it is revoked
        memory.keys.authenticate(secret)
