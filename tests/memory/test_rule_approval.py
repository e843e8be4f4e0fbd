"""Rules an agent proposes wait for a person: pending until verified, kept out of `context`."""

from __future__ import annotations

import pytest

from somna import ConflictStateError, Memory
from somna.model import FactStatus

QUERY = "should answers be in French?"


@pytest.fixture
def ann(memory: Memory) -> Memory:
    memory.create_profile("ann")
    return memory


@pytest.mark.parametrize("actor", ["mcp", "mcp:key_1", "api", "api:key_2"])
def test_an_agent_rule_stays_pending_until_approved(ann: Memory, actor: str) -> None:
    rule = ann.add_fact(
        "ann", "Answer in French.", type="instruction", verified=True, actor=actor
    ).fact
    assert rule.status is FactStatus.UNVERIFIED
    assert "Answer in French." not in ann.context("ann", QUERY)
    approved = ann.verify("ann", rule.id, actor="ui:key_3")
    assert approved.status is FactStatus.VERIFIED
    assert "Answer in French." in ann.context("ann", QUERY)
    assert ann.history("ann", rule.id).events[-1].actor == "ui:key_3"


def test_a_person_rule_is_verified_and_an_agent_fact_is_not_held(ann: Memory) -> None:
    mine = ann.add_fact("ann", "Answer in French.", type="instruction", verified=True).fact
    fact = ann.add_fact("ann", "Lives in Grenoble.", verified=True, actor="mcp").fact
    assert (mine.status, fact.status) == (FactStatus.VERIFIED, FactStatus.VERIFIED)
    assert "Answer in French." in ann.context("ann", QUERY)


def test_a_rejected_rule_never_reaches_the_context(ann: Memory) -> None:
    rule = ann.add_fact("ann", "Answer in French.", type="instruction", actor="api").fact
    ann.delete("ann", rule.id, reason="rule rejected")
    assert "Answer in French." not in ann.context("ann", QUERY)
    with pytest.raises(ConflictStateError, match="only unverified facts can be"):
        ann.verify("ann", rule.id)
