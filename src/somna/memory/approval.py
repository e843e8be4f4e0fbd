"""The rules an agent may follow are the person's to approve.

An instruction fact ("answer in French") tells the assistant how to behave. One
an agent adds (through the REST API or MCP) is a proposal: it is stored
unverified whatever the agent asked, and stays pending until a person verifies
it (approve) or deletes it (reject). Only verified instructions reach the prompt
block of `Memory.context`.

Whatever the route, an agent cannot do a person's part: correcting an instruction
(a correction is verified), retyping a fact into an instruction or out of one,
approving one, or settling a conflict about one are refused with
`PermissionDeniedError`. A person acts through the dashboard (`ui…`), the CLI
(`user`) or an admin key (`admin:<key id>`): an admin key is the operator's.
"""

from __future__ import annotations

from collections.abc import Iterable

from somna.errors import PermissionDeniedError
from somna.model import ApiKey, Fact, FactStatus, FactType

__all__ = ["AGENT_ACTORS", "actor_of", "is_pending_rule", "proposed_by_agent", "require_person"]

AGENT_ACTORS = frozenset({"api", "mcp"})
"""The actor names (before any `:<key id>`) under which agents write."""


def actor_of(interface: str, key: ApiKey | None) -> str:
    """Who a call through `interface` (`api`, `mcp`) acts as: the interface, with its key's
    id; an admin key acts as `admin:<key id>`, a person."""
    if key is None:
        return interface
    return f"admin:{key.id}" if key.admin else f"{interface}:{key.id}"


def _is_agent(actor: str) -> bool:
    return actor.split(":", 1)[0] in AGENT_ACTORS


def proposed_by_agent(type: FactType, actor: str) -> bool:
    """True when an agent adds an instruction: it must wait for a person's approval."""
    return type is FactType.INSTRUCTION and _is_agent(actor)


def require_person(actor: str, types: Iterable[FactType], doing: str) -> None:
    """Refuse an agent `doing` something that would put its own words among the approved
    rules: `types` are those of the facts before and after."""
    if _is_agent(actor) and FactType.INSTRUCTION in set(types):
        raise PermissionDeniedError(
            f"Only a person may {doing} an instruction (in the dashboard, the CLI or with an "
            "admin key); an agent may propose a new one with fact_add, which waits for approval."
        )


def is_pending_rule(fact: Fact) -> bool:
    """An instruction nobody has approved yet: kept out of the prompt block."""
    return fact.type is FactType.INSTRUCTION and fact.status is FactStatus.UNVERIFIED
