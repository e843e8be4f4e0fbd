"""The MCP tools of Somna, over one `Memory`, for stdio or for the HTTP server.

`create_mcp_server(memory, profile="alice")` makes the stdio server of one
profile: no tool takes a `profile` argument, the command line fixed it.
`create_mcp_server(memory, auth=True)` makes the one the HTTP server mounts
at `/mcp`: every tool takes `profile`, checked against the API key of the
HTTP request (see `somna.interfaces.mcp.access`); a profile the key cannot
reach fails exactly like a missing one.

A `SomnaError` becomes a tool error (`isError: true`) whose text is the
error's message, for the model to read and correct. Results are JSON objects,
sent as structured content and as the same JSON, compact, in a text block.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
from collections.abc import Callable
from typing import Annotated, Any, Literal, ParamSpec, TypeVar, get_args

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent
from pydantic import Field

import somna
from somna.errors import AuthenticationError, ProfileNotFoundError, SomnaError
from somna.interfaces.mcp.access import current_key, pinned_profile
from somna.interfaces.mcp.conversation import CONVERSATION_TOOLS, conversation_tools
from somna.interfaces.mcp.strict import ToolServer, describe_arguments, refuse_unknown_arguments
from somna.memory import Memory, Recalled
from somna.memory.approval import actor_of
from somna.memory.results import Found
from somna.memory.writes import Instant
from somna.model import Conflict, Fact, FactType

__all__ = [
    "CONFLICT_STATUSES",
    "FACT_STATUSES",
    "FACT_TYPES",
    "RESOLUTIONS",
    "TOOLS",
    "VERDICTS",
    "create_mcp_server",
    "run_stdio",
]

FactTypeName = Literal["fact", "entity", "glossary", "instruction", "persona", "other"]
FactStatusName = Literal["unverified", "verified", "disputed", "superseded", "retired", "expired"]
VerdictName = Literal["duplicate", "supersedes", "contradicts", "distinct"]
ResolutionName = Literal["a_true", "b_true", "neither", "corrected", "defer"]
ConflictStatusName = Literal["open", "deferred", "resolved"]
Count = Annotated[int, Field(ge=1, le=100)]
Limit = Annotated[int, Field(ge=1, le=1000)]
Offset = Annotated[int, Field(ge=0)]

FACT_TYPES: tuple[str, ...] = get_args(FactTypeName)
FACT_STATUSES: tuple[str, ...] = get_args(FactStatusName)
VERDICTS: tuple[str, ...] = get_args(VerdictName)
RESOLUTIONS: tuple[str, ...] = get_args(ResolutionName)
CONFLICT_STATUSES: tuple[str, ...] = get_args(ConflictStatusName)
"""The values each tool accepts, spelt out for the JSON schema (a test pins them to the enums)."""

TOOLS = (
    "fact_add",
    "fact_resolve",
    "fact_search",
    "fact_get",
    "fact_list",
    "fact_update",
    "fact_delete",
    "list_conflicts",
    "resolve_conflict",
    "recall",
    "remember",
    *CONVERSATION_TOOLS,
)
"""Every tool, in the order a client lists them."""

INSTRUCTIONS = """\
Somna is the user's long-term memory. Before answering, `recall` what you may
know about the topic. When the user tells you something durable about
themselves, store it with `fact_add` (or `remember` when they ask you to), then
judge any similar facts it returns with `fact_resolve`. Facts are single,
self-contained sentences. Conflicts between facts wait for the user: show them
with `list_conflicts` and settle them with `resolve_conflict` when the user says
which is true."""

_P = ParamSpec("_P")
_R = TypeVar("_R")
_PROFILE_ARG = re.compile(r"^ {4}profile: .*\n(?: {8}.*\n)*", re.MULTILINE)


def _fact(fact: Fact) -> dict[str, Any]:
    """A fact as the model reads it: what, how sure, since when; empty fields left out."""
    data = fact.model_dump(
        mode="json",
        include={
            "id",
            "type",
            "category",
            "subject",
            "text",
            "status",
            "confidence",
            "valid_from",
            "valid_to",
            "recorded_at",
            "superseded_by",
            "expires_at",
        },
    )
    return {name: value for name, value in data.items() if value is not None}


def _conflict(conflict: Conflict) -> dict[str, Any]:
    data = conflict.model_dump(mode="json", exclude={"profile_id", "fact_a_id", "fact_b_id"})
    return {name: value for name, value in data.items() if value is not None}


def _recalled(item: Recalled) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": item.id,
        "kind": item.kind,
        "text": item.text,
        "score": round(item.score, 4),
        "valid_from": None if item.valid_from is None else item.valid_from.isoformat(),
        "recorded_at": item.recorded_at.isoformat(),
    }
    if item.fact is not None:
        data["type"] = item.fact.type.value
        data["status"] = item.fact.status.value
        data["confidence"] = item.fact.confidence
    if item.quote is not None:
        data["quote"] = item.quote
    return {name: value for name, value in data.items() if value is not None}


def _degraded(answer: dict[str, Any], found: Found[Any]) -> dict[str, Any]:
    """The answer with `degraded` (one sentence per part that was down) when a part was."""
    return {**answer, "degraded": found.degraded} if found.degraded else answer


def _reported(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Turn a `SomnaError` raised by a tool into the SDK's tool error, with its message."""

    @functools.wraps(fn)
    def tool(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return fn(*args, **kwargs)
        except SomnaError as error:
            raise ToolError(" ".join(str(error).split())) from error

    return tool


def _answered(fn: Callable[_P, dict[str, Any]]) -> Callable[_P, CallToolResult]:
    """The tool's JSON answer as structured content and, compact, as its text copy.

    Left to the SDK, a returned dict is serialised twice and its text copy
    indented: whitespace a model pays for in tokens on every call.
    """

    @functools.wraps(fn)
    def tool(*args: _P.args, **kwargs: _P.kwargs) -> CallToolResult:
        answer = fn(*args, **kwargs)
        text = json.dumps(answer, ensure_ascii=False, separators=(",", ":"))
        return CallToolResult(
            content=[TextContent(type="text", text=text)], structured_content=answer
        )

    return tool


def _description(fn: Callable[..., Any], fixed_profile: bool) -> str:
    """The tool's description: its docstring, less the `profile` argument when it is fixed."""
    doc = inspect.getdoc(fn) or ""
    return _PROFILE_ARG.sub("", doc + "\n").strip() if fixed_profile else doc


def _with_profile(fn: Callable[..., _R], profile: str) -> Callable[..., _R]:
    """`fn` with its `profile` argument fixed, and gone from its signature."""
    signature = inspect.signature(fn, eval_str=True)

    @functools.wraps(fn)
    def tool(**kwargs: Any) -> _R:
        return fn(profile, **kwargs)

    tool.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[p for p in signature.parameters.values() if p.name != "profile"]
    )
    return tool


def create_mcp_server(
    memory: Memory, *, profile: str | None = None, auth: bool = False
) -> MCPServer[Any]:
    """The MCP server of Somna's tools over `memory`.

    With `profile`, every tool works in that profile and takes no `profile`
    argument (stdio). Without it, tools take `profile`; with `auth`, the API key
    of the current HTTP request (`current_key`) must reach it.
    """

    def reach(name: str) -> str:
        if not auth:
            return name
        key = current_key.get()
        if key is None:
            raise AuthenticationError("This MCP endpoint needs an API key.")
        pinned = pinned_profile.get()
        if not key.can_reach(name) or (pinned is not None and name != pinned):
            raise ProfileNotFoundError(name)
        memory.keys.open_profile(key, name)
        return name

    def actor() -> str:
        return actor_of("mcp", current_key.get())

    @_reported
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
            "fact": _fact(added.fact),
            "created": added.created,
            "similar": [
                {**_fact(near.fact), "similarity": round(near.similarity, 4)}
                for near in added.similar
            ],
            "candidates": [
                {**_fact(near.fact), "similarity": round(near.similarity, 4)}
                for near in added.candidates
            ],
        }
        if added.similar or added.candidates:
            result["next_step"] = (
                f"Judge each similar fact and candidate: fact_resolve(new_id={added.fact.id!r}, "
                "existing_id=<its id>, verdict=duplicate|supersedes|contradicts|distinct)."
            )
        return result

    @_reported
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
        result: dict[str, Any] = {"facts": [_fact(f) for f in outcome.facts]}
        if outcome.conflict is not None:
            result["conflict"] = _conflict(outcome.conflict)
        return result

    @_reported
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
        return _degraded(
            {"facts": [{**_fact(h.fact), "score": round(h.score, 4)} for h in hits]}, hits
        )

    @_reported
    def fact_get(profile: str, fact_id: str) -> dict[str, Any]:
        """Read one fact by its id, whatever its status.

        Args:
            profile: The profile the fact belongs to.
            fact_id: The fact's id (fct_…).
        """
        return _fact(memory.get(reach(profile), fact_id))

    @_reported
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
        return {"facts": [_fact(f) for f in found]}

    @_reported
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
        return _fact(fact)

    @_reported
    def fact_delete(profile: str, fact_id: str, reason: str = "deleted") -> dict[str, Any]:
        """Retire a fact the user wants forgotten or that is no longer true.

        The fact leaves recall and lists but stays in history; nothing is destroyed.

        Args:
            profile: The profile the fact belongs to.
            fact_id: The id of the fact to retire.
            reason: Why, in a few words (kept in the history).
        """
        return _fact(memory.delete(reach(profile), fact_id, actor=actor(), reason=reason))

    @_reported
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
                    **_conflict(pair.conflict),
                    "fact_a": _fact(pair.fact_a),
                    "fact_b": _fact(pair.fact_b),
                }
                for pair in pairs
            ]
        }

    @_reported
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
            **_conflict(pair.conflict),
            "fact_a": _fact(pair.fact_a),
            "fact_b": _fact(pair.fact_b),
        }
        if pair.correction is not None:
            result["correction_fact"] = _fact(pair.correction)
        return result

    @_reported
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
        shape = _recalled if format == "full" else Recalled.compact
        return _degraded({"results": [shape(item) for item in found]}, found)

    @_reported
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

    server = ToolServer(
        "somna",
        title="Somna memory",
        instructions=INSTRUCTIONS,
        version=somna.__version__,
        log_level="WARNING",
    )
    functions: dict[str, Callable[..., dict[str, Any]]] = {
        "fact_add": fact_add,
        "fact_resolve": fact_resolve,
        "fact_search": fact_search,
        "fact_get": fact_get,
        "fact_list": fact_list,
        "fact_update": fact_update,
        "fact_delete": fact_delete,
        "list_conflicts": list_conflicts,
        "resolve_conflict": resolve_conflict,
        "recall": recall,
        "remember": remember,
        **{name: _reported(tool) for name, tool in conversation_tools(memory, reach).items()},
    }
    for name in TOOLS:
        fn = functions[name]
        answered = _answered(fn)
        server.add_tool(
            answered if profile is None else _with_profile(answered, profile),
            name=name,
            description=_description(fn, fixed_profile=profile is not None),
        )
        refuse_unknown_arguments(server, name)
        describe_arguments(server, name, fn.__doc__)
    return server


def run_stdio(memory: Memory, profile: str) -> None:
    """Serve the tools of `profile` on stdin/stdout until the client closes them."""
    server = create_mcp_server(memory, profile=profile)
    anyio.run(server.run_stdio_async)
