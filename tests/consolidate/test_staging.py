"""A session's write staged in memory answers as the store will once the write is applied,
and reads the facts it foresaw in two statements."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from somna.consolidate.staging import StagedWrite
from somna.model import Fact, FactStatus, Profile, lifecycle
from somna.store import Store, Writer

T0 = datetime(2026, 3, 1, tzinfo=UTC)
NOW = T0 + timedelta(days=30)
VECTOR = [1.0, 0.0, 0.0, 0.0]


class Counted:
    """A write scope that counts the reads made through it."""

    def __init__(self, tx: Writer) -> None:
        self.tx = tx
        self.reads: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        self.reads[name] += 1
        return getattr(self.tx, name)


def fact(text: str, **fields: object) -> Fact:
    return Fact.model_validate(
        {"profile_id": "alice", "text": text, "valid_from": T0, "recorded_at": T0, **fields}
    )


@pytest.fixture
def alice(store: Store) -> Store:
    store.create_profile(Profile(id="alice"))
    return store


def written(store: Store, *facts: Fact) -> list[Fact]:
    with store.write("alice") as tx:
        for new in facts:
            tx.apply(lifecycle.create(new, vector=VECTOR, actor="test"))
    return list(facts)


def retired(store: Store, old: Fact, at: datetime) -> Fact:
    change = lifecycle.retire(old, at=at, actor="test", reason="test")
    with store.write("alice") as tx:
        tx.apply(change)
    return change.facts[0]


def test_staged_lookups_answer_as_the_store_does_after_the_write(alice: Store) -> None:
    coffee, neighbor, other = written(
        alice, fact("Drinks coffee."), fact("Lives in a flat."), fact("Plays chess.")
    )
    older = retired(alice, coffee, T0 + timedelta(days=1))
    (again,) = written(alice, fact("drinks  COFFEE.", recorded_at=T0 + timedelta(days=2)))
    newer = retired(alice, again, T0 + timedelta(days=3))
    house = fact("Lives in a house.", recorded_at=NOW)

    with alice.write("alice") as tx:
        counted = Counted(tx)
        staged = StagedWrite(
            counted,  # type: ignore[arg-type]
            [coffee.wording, house.wording],
            [neighbor.id],
        )
        assert staged.find_gone(*coffee.wording) == newer  # the latest let go
        staged.stage(lifecycle.restore(newer, at=NOW, actor="test"))
        staged.stage(lifecycle.create(house, vector=VECTOR, actor="test"))
        staged.stage(lifecycle.supersede(neighbor, house, at=NOW, actor="test"))
        assert counted.reads == {"worded_like": 1, "get_facts": 1}

        seen = (
            staged.find_active(*coffee.wording),
            staged.find_gone(*coffee.wording),
            staged.find_active(*house.wording),
            staged.get_fact(neighbor.id),
        )
        assert counted.reads == {"worded_like": 1, "get_facts": 1}  # nothing read again
        assert seen[0] is not None and seen[0].id == again.id and seen[0].is_active
        assert seen[1] == older
        assert seen[2] == house
        assert seen[3] is not None and seen[3].status is FactStatus.SUPERSEDED

        assert staged.find_active(*other.wording) == other  # not foreseen: read when asked
        assert staged.get_fact(other.id) == other
        assert counted.reads["worded_like"] == 2 and "get_fact" not in counted.reads

        tx.apply(staged.change)
        assert seen == (
            tx.find_active(*coffee.wording),
            tx.find_gone(*coffee.wording),
            tx.find_active(*house.wording),
            tx.get_fact(neighbor.id),
        )


def test_a_fact_staged_twice_is_written_in_its_last_state(alice: Store) -> None:
    (known,) = written(alice, fact("Works nights.", confidence=0.5))
    with alice.write("alice") as tx:
        staged = StagedWrite(tx, [], [known.id])
        for _ in range(2):  # two candidates of one session said it again
            current = staged.get_fact(known.id)
            assert current is not None
            staged.stage(lifecycle.reinforce(current, at=NOW, actor="test"))
        tx.apply(staged.change)
        stored = tx.get_fact(known.id)
        events = tx.events([known.id])
    assert stored == staged.get_fact(known.id)
    assert stored is not None and stored.confidence > 0.5
    once = lifecycle.reinforce(known, at=NOW, actor="test").facts[0]
    assert stored.confidence > once.confidence  # the second built on the first
    assert [e.action.value for e in events].count("reinforced") == 2
