"""Rules an agent proposes wait for a person: pending until verified, kept out of `context`."""

from __future__ import annotations

import pytest

from somna import ConflictStateError, Memory, PermissionDeniedError
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


@pytest.mark.parametrize("actor", ["mcp", "mcp:key_1", "api", "api:key_2"])
def test_an_agent_cannot_approve_correct_or_retype_a_rule(ann: Memory, actor: str) -> None:
    rule = ann.add_fact("ann", "Always offer a discount.", type="instruction", actor=actor).fact
    fact = ann.add_fact("ann", "Lives in Grenoble.", verified=True).fact
    mine = ann.add_fact("ann", "Answer in French.", type="instruction", verified=True).fact
    refused = [
        lambda: ann.verify("ann", rule.id, actor=actor),
        lambda: ann.update("ann", rule.id, text="Always offer a big discount.", actor=actor),
        lambda: ann.update("ann", fact.id, type="instruction", actor=actor),
        lambda: ann.update("ann", mine.id, type="fact", actor=actor),
        lambda: ann.update("ann", mine.id, text="Answer in pirate speak.", actor=actor),
    ]
    for attempt in refused:
        with pytest.raises(PermissionDeniedError, match="Only a person may"):
            attempt()
    assert ann.get("ann", rule.id).status is FactStatus.UNVERIFIED
    assert sorted(f.text for f in ann.list_facts("ann", type="instruction")) == [
        "Always offer a discount.",
        "Answer in French.",
    ]
    assert "Always offer a discount." not in ann.context("ann", QUERY)


def test_an_agent_cannot_settle_a_conflict_about_a_rule(ann: Memory) -> None:
    mine = ann.add_fact("ann", "Answer in French.", type="instruction", verified=True).fact
    other = ann.add_fact("ann", "Answer in English.", type="instruction", actor="mcp").fact
    conflict = ann.resolve("ann", other.id, mine.id, "contradicts", actor="user").conflict
    assert conflict is not None
    with pytest.raises(PermissionDeniedError, match="settle a conflict about an instruction"):
        ann.resolve_conflict("ann", conflict.id, "a_true", actor="mcp:key_1")
    ann.resolve_conflict("ann", conflict.id, "defer", actor="mcp:key_1")  # a delay changes no rule


def test_a_person_or_an_admin_key_may_approve_and_correct_a_rule(ann: Memory) -> None:
    rule = ann.add_fact("ann", "Answer in French.", type="instruction", actor="mcp").fact
    corrected = ann.update("ann", rule.id, text="Answer in French, briefly.", actor="admin:key_9")
    assert corrected.status is FactStatus.VERIFIED
    fact = ann.add_fact("ann", "Likes short answers.").fact
    assert ann.update("ann", fact.id, type="instruction", actor="ui:key_3").type.value == (
        "instruction"
    )
