"""`somna demo`: the nightly job on sample conversations, then what memory holds.

It ingests the conversations shipped in `samples/demo.jsonl` (English and
French, seven sessions from March to June 2026) into the profile "demo",
consolidates them with the configured LLM (the offline `rules` provider by
default) as of now, and prints the facts with their dates and quotes, the open
conflicts, the portrait, and one recall.

The samples are written so that each behaviour shows: a preference that changes
(superseded), a fact said again (reinforced), a contradiction left unsettled
(disputed), instructions to remember (English and French), and pleasantries
and hypotheticals that must leave no fact. Running it again is safe: sessions
already imported are skipped, nothing is left to consolidate, and the same
state is shown.
"""

from __future__ import annotations

import shlex
import shutil
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import typer

from somna.interfaces.cli import render
from somna.interfaces.cli.consolidation import session_progress
from somna.interfaces.cli.options import CliState, DbOption, open_memory
from somna.memory import Memory
from somna.model import Evidence, Fact, FactStatus, SummaryKind, utcnow
from somna.sources import Conversation, read_jsonl

__all__ = ["PROFILE", "QUERY", "SAMPLES", "demo", "how_to_run", "sample_conversations"]

PROFILE = "demo"
SAMPLES = "samples/demo.jsonl"
"""The sample conversations, relative to this package."""
QUERY = "Which programming language does the user prefer?"


def sample_conversations(profile: str = PROFILE) -> list[Conversation]:
    """The shipped sample conversations, as the profile's sessions."""
    source = resources.files("somna.interfaces.cli").joinpath(SAMPLES)
    with resources.as_file(source) as path:
        return read_jsonl(Path(path), profile=profile, now=utcnow())


def _step(title: str) -> None:
    render.say("")
    render.say(title, style="bold")


def _ingest(memory: Memory, conversations: Sequence[Conversation]) -> None:
    _step(
        f"1. Ingest {render.plural(len(conversations), 'sample conversation')} "
        f'(English and French, March to June 2026) into profile "{PROFILE}".'
    )
    done = memory.ingest(conversations)
    if done.sessions:
        render.say(
            f"  Added {render.plural(done.sessions, 'session')} "
            f"({render.plural(done.messages, 'message')})."
        )
    if done.skipped:
        render.say(
            f"  Skipped {render.plural(done.skipped, 'session')} imported by an earlier run."
        )


def _consolidate(memory: Memory) -> None:
    provider = memory.settings.llm_provider
    _step(
        f"2. Consolidate: the nightly job reads each quiet session once with the "
        f"{provider} provider, checks every quote, and reconciles the facts."
    )
    with session_progress() as progress:
        run = memory.consolidate(PROFILE, progress=progress)
    if run.sessions_seen == 0:
        render.say("  Nothing left to consolidate: an earlier run did it. The state is unchanged.")
        return
    render.say(
        f"  {render.plural(run.sessions_consolidated, 'session')} consolidated"
        f"{f', {run.sessions_failed} failed' if run.sessions_failed else ''}: "
        f"{run.facts_added} facts added, {run.facts_reinforced} reinforced, "
        f"{run.facts_superseded} superseded, {run.facts_disputed} disputed, "
        f"{run.facts_rejected} rejected ({render.plural(run.llm_calls, 'model call')})."
    )


def _facts(memory: Memory) -> None:
    _step(
        "3. Facts: each with the date it became true and the words it comes from. "
        "Greetings, thanks and what-ifs left none."
    )
    found = memory.list_facts(PROFILE, status=list(FactStatus), limit=1_000)
    found.sort(key=lambda f: (f.valid_from, f.recorded_at, f.id))
    rows: list[tuple[Fact, list[Evidence]]] = []
    for fact in found:
        evidence = memory.history(PROFILE, fact.id).evidence
        rows.append((fact, [e for e in evidence if e.fact_id == fact.id]))
    if not rows:
        render.say("  No facts.", style="dim")
        return
    render.show(render.quoted_facts_table(rows))
    replaced = {f.id: f for f in found}
    for old in found:
        new = replaced.get(old.superseded_by or "")
        if old.status is FactStatus.SUPERSEDED and new is not None and old.valid_to is not None:
            render.say(
                f'  Superseded: "{old.text}" was true until {old.valid_to:%Y-%m-%d}; '
                f'since then "{new.text}"'
            )
    for fact, evidence in rows:
        sessions = {e.session_id for e in evidence}
        if len(sessions) > 1:
            render.say(
                f'  Reinforced: "{fact.text}" was said in {len(sessions)} sessions; '
                "it is one fact with every quote."
            )


def _conflicts(memory: Memory) -> None:
    _step(
        "4. Open conflicts: statements that contradict each other, which the conversations "
        "never settle. Both stay out of recall until a person decides."
    )
    pairs = memory.conflicts(PROFILE)
    if not pairs:
        render.say("  No open conflict.", style="dim")
        return
    render.show(render.conflicts_table(pairs))
    render.say(
        f"  Settle one with: somna conflicts resolve {PROFILE} {pairs[0].conflict.id} "
        "a_true|b_true|neither|corrected|defer",
        style="dim",
    )


def _portrait(memory: Memory) -> None:
    _step("5. Portrait: who the user is and what they like, rewritten after each night.")
    latest = memory.summaries(PROFILE, SummaryKind.PORTRAIT, limit=1)
    if latest:
        render.say(f"  {latest[0].text}")
    else:
        render.say("  No portrait yet.", style="dim")


def _recall(memory: Memory) -> None:
    _step(
        f'6. Recall: what an agent finds when it asks "{QUERY}". '
        "Only facts true now, with their dates."
    )
    hits = memory.search(PROFILE, QUERY, k=3)
    if hits:
        render.show(render.search_table(hits))
    else:
        render.say("  Nothing found.", style="dim")


def demo(ctx: typer.Context, db: DbOption = None) -> None:
    """Ingest sample conversations, consolidate them, and show what memory made of them.

    Seven sample sessions (English and French, March to June 2026) go into
    profile "demo" and through the nightly job with the configured LLM (the
    offline rules provider by default). Then: the facts with their dates and
    quotes, the open conflicts, the portrait, and one recall. Safe to run again:
    imported sessions are skipped. Uses --db, SOMNA_DB or ./somna.db.

    Example:

        somna demo
        somna demo --db /tmp/somna-demo.db
    """
    conversations = sample_conversations()
    with open_memory(ctx, db) as memory:
        _ingest(memory, conversations)
        _consolidate(memory)
        _facts(memory)
        _conflicts(memory)
        _portrait(memory)
        _recall(memory)
    somna = how_to_run()
    where = db or ctx.ensure_object(CliState).db
    also = f" --db {shlex.quote(where)}" if where else ""
    _step("Next: explore the same memory yourself.")
    for command in (
        f"facts list {PROFILE} --status superseded --status disputed",
        f"conflicts list {PROFILE}",
        f"summaries {PROFILE}",
        "runs",
    ):
        render.say(f"  {somna}{also} {command}")
    render.say(f"  {somna}{also} serve --no-auth    # then open http://127.0.0.1:8420/ui")
    if somna != "somna":
        render.say(
            f"  (Or type `. {shlex.quote(str(Path(somna).parent / 'activate'))}` once, "
            "then plain `somna`.)",
            style="dim",
        )


def how_to_run() -> str:
    """How to type this very `somna` here: its bare name when PATH finds it, else its path."""
    here = Path(sys.argv[0])
    if here.name != "somna" or not here.is_file():
        return "somna"  # run some other way (python -m, a test): the plain name is all we know
    found = shutil.which("somna")
    if found and Path(found).resolve() == here.resolve():
        return "somna"
    try:
        return shlex.quote(str(here.resolve().relative_to(Path.cwd().resolve())))
    except ValueError:
        return shlex.quote(str(here.resolve()))
