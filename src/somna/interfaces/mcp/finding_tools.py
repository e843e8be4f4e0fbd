"""The finding tools of the MCP server: `recall` before answering, `fact_search` to find a fact
to correct, and the conflicts that wait for the user. `server.py` registers them beside the
fact tools."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from somna.interfaces.mcp.shapes import (
    ConflictStatusName,
    Count,
    FactTypeName,
    ResolutionName,
    Tools,
    conflict_view,
    fact_view,
    recalled_view,
    with_degraded,
)
from somna.memory import Memory, Recalled
from somna.memory.writes import Instant

__all__ = ["finding_tools"]


def finding_tools(memory: Memory, reach: Callable[[str], str], actor: Callable[[], str]) -> Tools:
    """The tools over `memory`; `reach` checks (and returns) a profile the caller may use,
    `actor` names the caller in the facts' history."""

    def fact_search(
        profile: str, query: str, k: Count = 5, as_of: Instant | None = None
    ) -> dict[str, Any]:
        """Find the active facts most relevant to a query, by words and by meaning.

        Returns up to `k` facts, best first, each with its `score`. Prefer `recall`
        to prepare an answer (it also weighs recency and confidence and brings
        conversation summaries); use this to look for a fact to correct or delete.

        Args:
            profile: The profile to search.
            query: Words or a question, e.g. "where does she live?"
            k: How many facts to return (1 to 100, default 5).
            as_of: Search the facts that were true at that moment (ISO 8601),
                including facts superseded since.
        """
        hits = memory.search(reach(profile), query, k, as_of=as_of)
        return with_degraded(
            {"facts": [{**fact_view(h.fact), "score": round(h.score, 4)} for h in hits]}, hits
        )

    def list_conflicts(profile: str, status: ConflictStatusName = "open") -> dict[str, Any]:
        """List the conflicts between facts that wait for the user to settle them.

        Each conflict holds two facts, `fact_a` and `fact_b`, that cannot both be
        true. Ask the user which is right, then call `resolve_conflict`.

        Args:
            profile: The profile to look in.
            status: open (default; includes deferred ones whose delay is over),
                deferred or resolved.
        """
        pairs = memory.conflicts(reach(profile), status)
        return {
            "conflicts": [
                {
                    **conflict_view(pair.conflict),
                    "fact_a": fact_view(pair.fact_a),
                    "fact_b": fact_view(pair.fact_b),
                }
                for pair in pairs
            ]
        }

    def resolve_conflict(
        profile: str, conflict_id: str, resolution: ResolutionName, correction: str | None = None
    ) -> dict[str, Any]:
        """Settle a conflict between two facts with the user's answer.

        Resolutions: `a_true` (fact_a is right: fact_b is retired), `b_true`
        (fact_b is right: fact_a is retired), `neither` (both are wrong: both are
        retired), `corrected` (both are wrong and `correction` says what is true:
        both are retired and the correction is stored as a new verified fact), or
        `defer` (the user does not know yet: both stay out of recall and the
        conflict comes back later). A fact that wins becomes verified. A conflict
        about an instruction is the user's to settle in the dashboard (only `defer` here).

        Args:
            profile: The profile the conflict belongs to.
            conflict_id: The conflict's id (cfl_…), from `list_conflicts`.
            resolution: a_true, b_true, neither, corrected or defer.
            correction: The true sentence; required with `corrected`, refused otherwise.
        """
        pair = memory.resolve_conflict(
            reach(profile),
            conflict_id,
            resolution,
            correction=correction,
            actor=actor(),
        )
        result: dict[str, Any] = {
            **conflict_view(pair.conflict),
            "fact_a": fact_view(pair.fact_a),
            "fact_b": fact_view(pair.fact_b),
        }
        if pair.correction is not None:
            result["correction_fact"] = fact_view(pair.correction)
        return result

    def recall(
        profile: str,
        query: str,
        k: Count = 5,
        types: list[FactTypeName] | None = None,
        include_summaries: bool = True,
        as_of: Instant | None = None,
        format: Literal["compact", "full"] = "compact",
    ) -> dict[str, Any]:
        """Recall what you should know about the user before answering: facts and
        summaries of past conversations, best first.

        Each item has its `id`, `text`, `date` (when it became true) and `status`
        (verified, unverified, or summary for a past conversation). Unverified facts
        were inferred and may be wrong: prefer verified ones when they disagree.

        Args:
            profile: The profile to recall from.
            query: What the user is asking about, as a question or keywords.
            k: How many items to return (1 to 100, default 5).
            types: Only facts of these types, e.g. ["instruction", "persona"].
            include_summaries: Whether to include summaries of past conversations.
            as_of: Recall what was true at that moment (ISO 8601) instead of now.
            format: "compact" (default) or "full": also the kind, score, type,
                confidence, record date and quote of each item.
        """
        found = memory.recall(
            reach(profile),
            query,
            k,
            as_of=as_of,
            types=list(types) if types is not None else None,
            include_summaries=include_summaries,
        )
        shape = recalled_view if format == "full" else Recalled.compact
        return with_degraded({"results": [shape(item) for item in found]}, found)

    return {
        "fact_search": fact_search,
        "list_conflicts": list_conflicts,
        "resolve_conflict": resolve_conflict,
        "recall": recall,
    }
