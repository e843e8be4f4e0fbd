"""A profile in counts (`Memory.overview`, `Memory.count_facts`) and a deletion taken back
(`Memory.restore`), on every store."""

from __future__ import annotations

import pytest

from somna import ConflictStateError, Memory
from somna.model import EventAction, FactStatus, Run, RunStatus


def test_the_overview_counts_what_each_profile_holds_and_waits_for(memory: Memory) -> None:
    memory.create_profile("ann")
    memory.create_profile("bob")
    for text in ("Keeps bees.", "Sails on weekends.", "Grows tomatoes."):
        memory.add_fact("ann", text)
    gone = memory.add_fact("ann", "Owns a red scooter.").fact
    memory.delete("ann", gone.id)
    a = memory.add_fact("ann", "Drinks no coffee.").fact
    b = memory.add_fact("ann", "Drinks three coffees a day.").fact
    memory.resolve("ann", b.id, a.id, "contradicts")
    memory.add_fact("ann", "Answer in French.", type="instruction", actor="mcp:bot")
    memory.add_messages("ann", "chat-1", [("user", "Hello there.")])
    memory.store.save_run(Run(status=RunStatus.PARTIAL, started_at=memory.now()))
    memory.store.save_run(Run(profile_id="bob", status=RunStatus.FAILED, started_at=memory.now()))

    ann, bob = memory.overview(["ann", "bob"])
    assert ann.facts[FactStatus.UNVERIFIED] == 4  # three, and the proposed rule
    assert (ann.facts[FactStatus.RETIRED], ann.facts[FactStatus.DISPUTED]) == (1, 2)
    assert (ann.active_facts, ann.open_conflicts, ann.pending_rules, ann.open_sessions) == (
        4,
        1,
        1,
        1,
    )
    assert ann.last_run is not None and ann.last_run.status is RunStatus.PARTIAL
    assert ann.failed_runs == 1  # the run over every profile; bob's own is bob's
    assert (bob.active_facts, bob.open_sessions, bob.failed_runs) == (0, 0, 2)
    assert memory.count_facts("ann", status=["retired", "disputed"]) == 3
    assert memory.count_facts("ann", text="COFFEE", status="disputed") == 2


def test_a_retired_fact_is_restored_unverified_with_its_history(memory: Memory) -> None:
    memory.create_profile("ann")
    fact = memory.add_fact("ann", "Keeps bees.").fact
    memory.delete("ann", fact.id, actor="ui:key_x")
    back = memory.restore("ann", fact.id, actor="ui:key_x")
    assert back.status is FactStatus.UNVERIFIED and back.retired_at is None
    assert [e.action for e in memory.history("ann", fact.id).events][-1] is EventAction.RESTORED
    with pytest.raises(ConflictStateError, match="only expired or retired facts can be"):
        memory.restore("ann", fact.id)
