"""Reinforcement by recall: written off the conversation path, many recalls in few writes."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from somna import Memory
from somna.memory.usage import UsageRecorder
from somna.store import Store
from tests.support import Clock


class _GatedStore:
    """The store, with its write scopes counted and the first one held until `opened`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.writes = 0
        self.entered = threading.Event()
        self.opened = threading.Event()

    @contextmanager
    def write(self, profile_id: str) -> Iterator[Any]:
        self.entered.set()
        assert self.opened.wait(10)
        self.writes += 1
        with self.store.write(profile_id) as tx:
            yield tx


def test_uses_waiting_in_the_queue_are_written_together_and_counted_one_by_one(
    memory: Memory, clock: Clock
) -> None:
    memory.create_profile("alice")
    memory.create_profile("bob")
    tea = memory.add_fact("alice", "Drinks green tea every morning.").fact
    bike = memory.add_fact("alice", "Owns a red bicycle.").fact
    chess = memory.add_fact("bob", "Plays chess on Sundays.").fact
    gated = _GatedStore(memory.store)
    usage = UsageRecorder(gated)  # type: ignore[arg-type]
    usage.record("alice", [tea], clock.now)
    assert gated.entered.wait(10)  # the first use is being written: the rest must wait
    later = clock.now + timedelta(hours=1)
    for _ in range(20):
        usage.record("alice", [tea, bike], later)
    usage.record("bob", [chess], later)
    gated.opened.set()
    usage.flush()
    usage.close()
    assert gated.writes == 3  # the first use, then one write for each profile of the rest
    assert (
        memory.get("alice", tea.id).recall_count,
        memory.get("alice", bike.id).recall_count,
    ) == (
        21,
        20,
    )
    assert memory.get("alice", tea.id).last_recalled_at == later
    assert memory.get("bob", chess.id).recall_count == 1


def test_a_failed_write_is_logged_and_the_queue_goes_on(memory: Memory, clock: Clock) -> None:
    memory.create_profile("alice")
    tea = memory.add_fact("alice", "Drinks green tea every morning.").fact
    usage = UsageRecorder(memory.store)
    usage.record("nobody", [tea], clock.now)  # no such profile: its write fails
    usage.record("alice", [tea], clock.now)
    usage.flush()
    usage.close()
    assert memory.get("alice", tea.id).recall_count == 1
