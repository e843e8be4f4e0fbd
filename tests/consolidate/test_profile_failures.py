"""A profile that fails as a whole in a run over every profile: the others get their night,
and its failure is kept with the run, under that profile, for the operator to see."""

from __future__ import annotations

from typing import Any

import pytest

from somna import Memory
from somna.model import Run, RunStatus
from somna.store import Store
from tests.support import Clock


@pytest.fixture
def two(memory: Memory, clock: Clock) -> Memory:
    for profile in ("ann", "ben"):
        memory.create_profile(profile)
        memory.add_messages(profile, "chat", [("user", "I play the oboe on Sundays.")])
    stored = memory.get_profile("ann").settings  # as a database of before the ranges
    memory.store.save_profile_settings("ann", {**stored, "overrides": {"idle_hours": 1e300}})
    clock.advance(hours=5)
    return memory


def _stored(memory: Memory, run: Run) -> Run:
    return next(r for r in memory.runs() if r.id == run.id)


def test_a_profile_s_failure_is_stored_with_the_run(two: Memory) -> None:
    run = two.consolidate()
    assert (run.status, run.sessions_consolidated) == (RunStatus.PARTIAL, 1)
    stored = _stored(two, run)
    assert stored.failures == run.failures
    [failure] = stored.failures
    assert failure["profile"] == "ann" and "out of range" in failure["error"]


def test_erasing_the_profile_takes_its_failure_from_the_run(two: Memory) -> None:
    run = two.consolidate()
    two.forget("ann")
    assert _stored(two, run).failures == []


class _Broken(Exception):
    """A bug in one profile's part, of no kind the run knows."""


class _BrokenFor:
    """A store whose reads of one profile fail with an unexpected exception."""

    def __init__(self, store: Store, profile: str) -> None:
        self._store, self._profile = store, profile

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def read(self, profile_id: str) -> Any:
        if profile_id == self._profile:
            raise _Broken("no reader")
        return self._store.read(profile_id)


def test_an_unexpected_exception_in_one_profile_is_stored_under_it(
    two: Memory, clock: Clock
) -> None:
    two.tune_profile("ann", {"idle_hours": 1})  # the setting fixed, the store now breaks
    broken = Memory(
        store=_BrokenFor(two.store, "ben"),  # type: ignore[arg-type]
        embedder=two.embedder,
        settings=two.settings,
        clock=clock,
    )
    run = broken.consolidate()
    assert (run.status, run.sessions_consolidated) == (RunStatus.PARTIAL, 1)
    assert _stored(two, run).failures == [{"profile": "ben", "error": "_Broken: no reader"}]
