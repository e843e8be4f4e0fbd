"""The pure rules of a fact's life: each returns the facts as they must become, with events."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from somna.model import Conflict, EventAction, Fact, FactStatus, Resolution, lifecycle

MAY_3 = datetime(2026, 5, 3, 9, 0, tzinfo=UTC)
LATER = MAY_3 + timedelta(days=10)


def fact(text: str = "Drinks green tea.", **fields: object) -> Fact:
    return Fact.model_validate(
        {"profile_id": "alice", "text": text, "valid_from": MAY_3, "recorded_at": MAY_3, **fields}
    )


def test_create_keeps_the_fact_its_vector_and_one_created_event() -> None:
    new = fact()
    change = lifecycle.create(new, vector=[1.0, 0.0], actor="test")
    assert change.facts == [new] and change.vectors == {new.id: [1.0, 0.0]}
    [event] = change.events
    assert (event.fact_id, event.action, event.at) == (new.id, EventAction.CREATED, MAY_3)
    assert event.after == {"text": "Drinks green tea.", "status": "unverified"}


def test_reinforcing_removes_part_of_the_doubt_and_records_only_what_moved() -> None:
    old = fact(confidence=0.7, strength=0.4)
    change = lifecycle.reinforce(old, at=LATER, actor="test")
    updated = change.fact(old.id)
    assert 0.7 < updated.confidence < 1.0
    assert (updated.strength, updated.last_verified_at) == (1.0, LATER)
    [event] = change.events
    assert event.action is EventAction.REINFORCED
    assert set(event.before or {}) == {"confidence", "strength", "last_verified_at"}
    assert lifecycle.reinforce(updated, at=LATER, actor="test").fact(old.id).confidence > (
        updated.confidence
    )


def test_superseding_closes_the_old_fact_where_the_new_one_starts() -> None:
    old, new = fact(), fact("Drinks black tea.", valid_from=LATER)
    change = lifecycle.supersede(old, new, at=LATER, actor="test")
    closed = change.fact(old.id)
    assert closed.status is FactStatus.SUPERSEDED
    assert (closed.valid_to, closed.superseded_at, closed.superseded_by) == (LATER, LATER, new.id)
    assert [e.action for e in change.events] == [EventAction.SUPERSEDED]


def test_a_correction_takes_over_the_whole_valid_time_of_the_old_wording() -> None:
    old, new = fact(), fact("Drinks oolong tea.", valid_from=LATER)
    change = lifecycle.correct(old, new, vector=[0.0, 1.0], at=LATER, actor="test")
    assert change.fact(old.id).valid_to == MAY_3 == change.fact(new.id).valid_from
    assert change.fact(old.id).superseded_by == new.id
    assert [e.action for e in change.events] == [EventAction.UPDATED, EventAction.CREATED]
    assert change.events[1].after == {
        "text": "Drinks oolong tea.",
        "status": "unverified",
        "corrects": old.id,
    }


def test_retiring_keeps_the_fact_and_says_why() -> None:
    change = lifecycle.retire(fact(), at=LATER, actor="test", reason="asked to forget")
    [retired] = change.facts
    assert (retired.status, retired.retired_at) == (FactStatus.RETIRED, LATER)
    assert change.events[0].after == {
        "status": "retired",
        "retired_at": LATER.isoformat(),
        "reason": "asked to forget",
    }


def test_a_dispute_opens_one_pair_and_disputes_each_side_once() -> None:
    older, newer = fact(), fact("Never drinks tea.", status=FactStatus.DISPUTED)
    change = lifecycle.dispute(newer, older, at=LATER, actor="test")
    [conflict] = change.conflicts
    assert (conflict.fact_a_id, conflict.fact_b_id) == (older.id, newer.id)
    assert [f.id for f in change.facts] == [older.id]
    assert change.fact(older.id).status is FactStatus.DISPUTED
    assert change.events[0].after == {"status": "disputed", "conflict": conflict.id}


def test_a_disputed_fact_comes_back_verified_only_once_no_pair_holds_it() -> None:
    disputed = fact(status=FactStatus.DISPUTED)
    assert lifecycle.restore_if_settled(disputed, unsettled=1, at=LATER, actor="test").facts == []
    assert lifecycle.restore_if_settled(fact(), unsettled=0, at=LATER, actor="test").facts == []
    [back] = lifecycle.restore_if_settled(disputed, unsettled=0, at=LATER, actor="test").facts
    assert (back.status, back.last_verified_at) == (FactStatus.VERIFIED, LATER)


def test_settling_records_the_resolution_and_the_correction() -> None:
    conflict = Conflict(profile_id="alice", fact_a_id="fct_a", fact_b_id="fct_b", created_at=MAY_3)
    correction = fact("Drinks tea only in winter.")
    settled = lifecycle.settle(
        conflict, Resolution.CORRECTED, at=LATER, actor="test", correction=correction
    )
    assert (settled.resolution, settled.resolved_at, settled.resolved_by) == (
        Resolution.CORRECTED,
        LATER,
        "test",
    )
    assert (settled.correction, settled.correction_fact_id) == (correction.text, correction.id)


def test_deferring_is_not_settling() -> None:
    conflict = Conflict(profile_id="alice", fact_a_id="fct_a", fact_b_id="fct_b", created_at=MAY_3)
    with pytest.raises(ValueError, match="not settled"):
        lifecycle.settle(conflict, Resolution.DEFER, at=LATER, actor="test")


def test_a_merged_change_keeps_the_last_state_of_a_fact_changed_twice() -> None:
    original = fact()
    first = lifecycle.reinforce(original, at=MAY_3, actor="test")
    second = lifecycle.retire(first.fact(original.id), at=LATER, actor="test", reason="gone")
    merged = first.merge(second)
    assert len(merged.facts) == 1 and merged.fact(original.id).status is FactStatus.RETIRED
    assert [e.action for e in merged.events] == [EventAction.REINFORCED, EventAction.RETIRED]
