"""The rules an agent may follow are the person's to approve.

An instruction fact ("answer in French") tells the assistant how to behave. One
an agent adds (through the REST API or MCP) is a proposal: it is stored
unverified whatever the agent asked, and stays pending until a person verifies
it (approve) or deletes it (reject). Only verified instructions reach the prompt
block of `Memory.context`.
"""

from __future__ import annotations

from somna.model import Fact, FactStatus, FactType

__all__ = ["AGENT_ACTORS", "is_pending_rule", "proposed_by_agent"]

AGENT_ACTORS = frozenset({"api", "mcp"})
"""The actor names (before any `:<key id>`) under which agents write."""


def proposed_by_agent(type: FactType, actor: str) -> bool:
    """True when an agent adds an instruction: it must wait for a person's approval."""
    return type is FactType.INSTRUCTION and actor.split(":", 1)[0] in AGENT_ACTORS


def is_pending_rule(fact: Fact) -> bool:
    """An instruction nobody has approved yet: kept out of the prompt block."""
    return fact.type is FactType.INSTRUCTION and fact.status is FactStatus.UNVERIFIED
