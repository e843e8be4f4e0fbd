"""The fact tools of the MCP server: add (or `remember`) a fact and judge its neighbours, read,
list, correct and retire facts. `server.py` registers them beside the other tools."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from somna.interfaces.mcp.shapes import (
    FactStatusName,
    FactTypeName,
    Limit,
    Offset,
    Tools,
    VerdictName,
    conflict_view,
    fact_view,
)
from somna.memory import Memory
from somna.memory.results import Similar
from somna.memory.writes import Instant
from somna.model import FactType

__all__ = ["fact_tools"]


def _near(similar: list[Similar]) -> list[dict[str, Any]]:
    return [{**fact_view(near.fact), "similarity": round(near.similarity, 4)} for near in similar]


def fact_tools(memory: Memory, reach: Callable[[str], str], actor: Callable[[], str]) -> Tools:
    """The tools over `memory`; `reach` checks (and returns) a profile the caller may use,
    `actor` names the caller in the facts' history."""

    def fact_add(
        profile: str,
        text: str,
        type: FactTypeName = "fact",
        category: str | None = None,
        subject: str | None = None,
        confidence: float = 0.7,
        verified: bool = False,
        quote: str | None = None,
        valid_from: Instant | None = None,
    ) -> dict[str, Any]:
        """Store one fact about the user (or reinforce it if the same fact is already known).

        Returns the stored fact, whether it was new (`created`), and its similar
        facts: active facts of this profile whose meaning is close to the new one
        (cosine similarity of at least about 0.8), each with its `similarity`.
        Similar facts are candidates, not verdicts: for each one, decide how the
        new fact relates to it and call `fact_resolve` with the new fact's id, the
        similar fact's id and one verdict: `duplicate` (same meaning: the new one
        is merged into the old), `supersedes` (the new one replaces the old from
        now on, e.g. a new address), `contradicts` (both cannot be true and you
        cannot tell which: a conflict opens for the user) or `distinct` (both
        stand). `candidates` lists facts of the same subject further apart (cosine
        from about 0.6): a changed value ("Lives in Paris", then "Lives in Berlin")
        lands there; judge them the same way. With neither there is nothing to judge.

        Args:
            profile: The profile (the user's isolated memory) to store it in.
            text: One self-contained sentence, e.g. "Is allergic to peanuts."
            type: fact (default), entity, glossary, instruction (how the assistant
                should behave), persona or other.
            category: A free label such as preference, health, work or plan.
            subject: Who or what it is about; default: the user.
            confidence: How sure you are, from 0 to 1 (default 0.7).
            verified: True only when the user stated or confirmed it explicitly.
            quote: The user's own words it comes from, kept as evidence.
            valid_from: Since when it is true (ISO 8601; default: now).
        """
        added = memory.add_fact(
            reach(profile),
            text,
            type=type,
            category=category,
            subject=subject,
            confidence=confidence,
            verified=verified,
            quote=quote,
            valid_from=valid_from,
            actor=actor(),
        )
        result: dict[str, Any] = {
            "fact": fact_view(added.fact),
            "created": added.created,
            "similar": _near(added.similar),
            "candidates": _near(added.candidates),
        }
        if added.similar or added.candidates:
            result["next_step"] = (
                f"Judge each similar fact and candidate: fact_resolve(new_id={added.fact.id!r}, "
                "existing_id=<its id>, verdict=duplicate|supersedes|contradicts|distinct)."
            )
        return result

    def fact_resolve(
        profile: str, new_id: str, existing_id: str, verdict: VerdictName
    ) -> dict[str, Any]:
        """Judge how a new fact relates to a similar existing one, and apply the verdict.

        Use it on the `similar` facts that `fact_add` returned. `duplicate`: the new
        fact says the same thing; it is retired and its evidence merged into the
        existing fact, which is reinforced. `supersedes`: the new fact replaces the
        existing one, whose validity ends now (it stays in history). `contradicts`:
        they cannot both be true and you cannot tell which is; both are disputed
        (kept out of recall) and a conflict opens for the user to settle with
        `resolve_conflict`. `distinct`: they are about different things; nothing
        changes.

        Args:
            profile: The profile both facts belong to.
            new_id: The id of the fact just added.
            existing_id: The id of the similar fact it is judged against.
            verdict: duplicate, supersedes, contradicts or distinct.
        """
        outcome = memory.resolve(reach(profile), new_id, existing_id, verdict, actor=actor())
        result: dict[str, Any] = {"facts": [fact_view(f) for f in outcome.facts]}
        if outcome.conflict is not None:
            result["conflict"] = conflict_view(outcome.conflict)
        return result

    def fact_get(profile: str, fact_id: str) -> dict[str, Any]:
        """Read one fact by its id, whatever its status.

        Args:
            profile: The profile the fact belongs to.
            fact_id: The fact's id (fct_…).
        """
        return fact_view(memory.get(reach(profile), fact_id))

    def fact_list(
        profile: str,
        type: FactTypeName | None = None,
        status: FactStatusName | None = None,
        category: str | None = None,
        subject: str | None = None,
        text: str | None = None,
        limit: Limit = 20,
        offset: Offset = 0,
    ) -> dict[str, Any]:
        """List the profile's facts, newest first, optionally filtered.

        Without `status` only active facts (unverified and verified) are listed.

        Args:
            profile: The profile to list.
            type: Only facts of this type (fact, entity, glossary, instruction,
                persona, other).
            status: Only facts with this status (unverified, verified, disputed,
                superseded, retired, expired).
            category: Only facts with this category.
            subject: Only facts about this subject.
            text: Only facts whose text contains these words.
            limit: How many facts at most (1 to 1000, default 20).
            offset: How many to skip, to page through a long list.
        """
        found = memory.list_facts(
            reach(profile),
            type=type,
            status=status,
            category=category,
            subject=subject,
            text=text,
            limit=limit,
            offset=offset,
        )
        return {"facts": [fact_view(f) for f in found]}

    def fact_update(
        profile: str,
        fact_id: str,
        text: str | None = None,
        type: FactTypeName | None = None,
        category: str | None = None,
        subject: str | None = None,
        confidence: float | None = None,
    ) -> dict[str, Any]:
        """Correct a fact the user says is wrong or outdated.

        A new verified version replaces the fact and gets a new id (returned); the
        old version stays in the fact's history. Give at least one field to change.
        Instructions are the user's own: correcting one, or changing a fact's type
        to or from instruction, is refused; the user does it in the dashboard.

        Args:
            profile: The profile the fact belongs to.
            fact_id: The id of the fact to correct.
            text: The corrected sentence.
            type: The corrected type.
            category: The corrected category.
            subject: The corrected subject.
            confidence: The corrected confidence, from 0 to 1.
        """
        fact = memory.update(
            reach(profile),
            fact_id,
            text=text,
            type=type,
            category=category,
            subject=subject,
            confidence=confidence,
            actor=actor(),
        )
        return fact_view(fact)

    def fact_delete(profile: str, fact_id: str, reason: str = "deleted") -> dict[str, Any]:
        """Retire a fact the user wants forgotten or that is no longer true.

        The fact leaves recall and lists but stays in history; nothing is destroyed.

        Args:
            profile: The profile the fact belongs to.
            fact_id: The id of the fact to retire.
            reason: Why, in a few words (kept in the history).
        """
        return fact_view(memory.delete(reach(profile), fact_id, actor=actor(), reason=reason))

    def remember(
        profile: str, text: str, is_instruction: bool = False, category: str | None = None
    ) -> dict[str, Any]:
        """Remember something the user explicitly asked you to remember.

        It is stored as verified, with full confidence: use it only for what the user
        said themselves, not for your own inferences (use `fact_add` for those). An
        instruction waits, unverified, until the user approves it in the dashboard.
        Like `fact_add`, it returns similar facts to judge with `fact_resolve`.

        Args:
            profile: The profile to store it in.
            text: One self-contained sentence, e.g. "Always answers in French."
            is_instruction: True when it tells the assistant how to behave ("call me
                Sam", "keep answers short"): stored as an instruction; False
                (default) for a fact about the user or their world.
            category: A free label such as preference, health, work or plan.
        """
        return fact_add(
            profile,
            text,
            type=FactType.INSTRUCTION.value if is_instruction else FactType.FACT.value,
            category=category,
            confidence=1.0,
            verified=True,
        )

    return {
        "fact_add": fact_add,
        "fact_resolve": fact_resolve,
        "fact_get": fact_get,
        "fact_list": fact_list,
        "fact_update": fact_update,
        "fact_delete": fact_delete,
        "remember": remember,
    }
