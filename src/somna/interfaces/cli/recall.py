"""`somna search`, `somna recall` and `somna context`: what an agent would find, be reminded
of, and be shown, and how."""

from __future__ import annotations

from typing import Annotated

import typer

from somna.interfaces.cli import render
from somna.interfaces.cli.options import (
    AsOfOption,
    DbOption,
    JsonOption,
    ProfileArg,
    QueryArg,
    read_memory,
)

__all__ = ["context", "recall", "search"]


def search(
    ctx: typer.Context,
    profile: ProfileArg,
    query: QueryArg,
    k: Annotated[int, typer.Option("--k", "-k", min=1, help="How many facts to return.")] = 5,
    as_of: AsOfOption = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Find the active facts most relevant to a query: full text and vectors, fused by rank.

    With --as-of, searches the facts that were true at that moment, including
    facts superseded since.

    Example:

        somna search alice "where does she live?"
        somna search alice "where does she live?" --as-of 2024-06-01 --k 3 --json
    """
    with read_memory(ctx, db) as memory:
        hits = memory.search(profile, query, k, as_of=as_of)
    render.degraded(hits.degraded)
    render.show_list(hits, as_json, render.search_table, "Nothing found.")


def recall(
    ctx: typer.Context,
    profile: ProfileArg,
    query: QueryArg,
    k: Annotated[int, typer.Option("--k", "-k", min=1, help="How many items to return.")] = 5,
    as_of: AsOfOption = None,
    no_summaries: Annotated[
        bool, typer.Option("--no-summaries", help="Facts only, no conversation summaries.")
    ] = False,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Recall what matters for a query: facts and conversation summaries, with why each came.

    Candidates from full text and vectors are fused by rank and weighed by
    recency, confidence and strength; recalled facts are reinforced. No model
    is called.

    Example:

        somna recall alice "what should I cook for her tonight?"
        somna recall alice "where did she live?" --as-of 2025-01-01 --json
    """
    with read_memory(ctx, db) as memory:
        recalled = memory.recall(profile, query, k, as_of=as_of, include_summaries=not no_summaries)
        memory.flush()
    render.degraded(recalled.degraded)
    render.show_list(recalled, as_json, render.recalled_table, "Nothing recalled.")


def context(
    ctx: typer.Context,
    profile: ProfileArg,
    query: QueryArg,
    budget: Annotated[
        int, typer.Option("--budget", min=1, help="The most tokens the block may take.")
    ] = 800,
    session: Annotated[
        str | None, typer.Option("--session", help="The conversation the query comes from.")
    ] = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Print the block for a system prompt: the portrait, then one dated line per fact.

    Unverified facts are marked; the block never exceeds the token budget. With
    --json: {"context": the block, "degraded": the parts that were down}, as the
    REST API answers.

    Example:

        somna context alice "what should I cook for her tonight?" --budget 300
        somna context alice "what should I cook for her tonight?" --json
    """
    with read_memory(ctx, db) as memory:
        block = memory.context(profile, query, session_key=session, budget_tokens=budget)
        memory.flush()
    render.degraded(block.degraded)
    if as_json:
        render.print_json({"context": str(block), "degraded": block.degraded})
    else:
        typer.echo(block)
