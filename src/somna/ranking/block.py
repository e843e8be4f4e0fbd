"""The block a system prompt gets: the portrait, then dated facts, never over budget."""

from __future__ import annotations

from collections.abc import Sequence

from somna.model import Fact, FactStatus
from somna.ranking.tokens import count_tokens

__all__ = ["HEADER", "fact_line", "render_context"]

HEADER = "Known facts about this user:"


_MARKS = {
    FactStatus.UNVERIFIED: " (unverified)",
    FactStatus.DISPUTED: " (disputed: the user also said something that contradicts it)",
}


def fact_line(fact: Fact) -> str:
    """`- [2026-05-03] Prefers tea to coffee.`, marked when nobody has confirmed it, or when
    it is one side of a contradiction nobody has settled."""
    mark = _MARKS.get(fact.status, "")
    return f"- [{fact.valid_from.date().isoformat()}] {fact.text}{mark}"


def render_context(portrait: str | None, facts: Sequence[Fact], budget_tokens: int) -> str:
    """The portrait first if it fits, then one line per fact in the given order, within budget.

    Lines are added whole while they fit; an empty string when not even the header does.
    """
    lines: list[str] = []
    used = 0

    def fits(line: str) -> bool:
        nonlocal used
        cost = count_tokens(line) + 1  # the newline
        if used + cost > budget_tokens:
            return False
        lines.append(line)
        used += cost
        return True

    if portrait:
        fits(f"About this user: {portrait}")
    if not facts or not fits(HEADER):
        return "\n".join(lines)
    for fact in facts:
        fits(fact_line(fact))
    if lines and lines[-1] == HEADER:
        lines.pop()
    return "\n".join(lines)
