"""The Runs page: what each night's consolidation did, in charts and in a table.

A run over every profile (`somna consolidate` without --profile) is listed on
each profile's page with that profile's part: its conversations consolidated
and the ones that failed, beside the whole run's counts. The charts add up the
profile's own runs.

"Replaying the whole history" is what a memory without consolidation pays: each
night the model reads every conversation so far again. Its cost on a night is
the running total of what the nightly job read up to that night, which the
chart sets against what it actually read.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Request, Response

from somna.interfaces.web.base import PREFIX, HtmlRoute, ViewerDep
from somna.interfaces.web.charts import Series, bars, lines
from somna.model import Run, Session

__all__ = ["Part", "nightly", "parts", "router"]

router = APIRouter(
    prefix=f"{PREFIX}/profiles/{{profile}}", route_class=HtmlRoute, include_in_schema=False
)

_RUNNING = timedelta(hours=24)
"""How far after its start a run still running may have consolidated a conversation."""

_COUNTED = ("facts_added", "facts_superseded", "facts_expired", "facts_rejected")


def nightly(runs: list[Run]) -> dict[str, dict[str, int]]:
    """The runs' counts added up per night (UTC date of the start), oldest night first."""
    nights: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for run in runs:
        if run.dry_run:
            continue
        night = nights[run.started_at.strftime("%Y-%m-%d")]
        for name in (*_COUNTED, "llm_calls", "prompt_tokens"):
            night[name] += int(getattr(run, name))
    return dict(sorted(nights.items()))


@dataclass(frozen=True)
class Part:
    """What a run did for one profile: the whole run when it ran for that profile alone,
    else the profile's conversations it consolidated and its failures (of a conversation, or
    of the whole profile)."""

    run: Run
    everyone: bool
    consolidated: list[Session]
    failures: list[dict[str, Any]]


def parts(runs: list[Run], profile: str, sessions: list[Session]) -> list[Part]:
    """The runs that covered `profile` (its own, and those over every profile), newest first."""
    ids = {s.id for s in sessions}
    found = []
    for run in runs:
        if run.profile_id not in (None, profile):
            continue
        end = run.finished_at or run.started_at + _RUNNING
        consolidated = [
            s
            for s in sessions
            if s.consolidated_at is not None and run.started_at <= s.consolidated_at <= end
        ]
        failures = [
            f for f in run.failures if f.get("session") in ids or f.get("profile") == profile
        ]
        found.append(Part(run, run.profile_id is None, consolidated, failures))
    return found


@router.get("/runs")
def runs_page(request: Request, profile: str, viewer: ViewerDep) -> Response:
    viewer.reach(profile)
    covered = parts(
        viewer.memory.runs(limit=500), profile, viewer.memory.sessions(profile, limit=2000)
    )
    mine = [p.run for p in covered if not p.everyone]
    nights = nightly(mine)
    labels = [night[5:] for night in nights]
    read, replay, so_far = [], [], 0
    calls, replay_calls, calls_so_far = [], [], 0
    for counts in nights.values():
        so_far += counts["prompt_tokens"]
        calls_so_far += counts["llm_calls"]
        read.append(float(counts["prompt_tokens"]))
        replay.append(float(so_far))
        calls.append(float(counts["llm_calls"]))
        replay_calls.append(float(calls_so_far))
    charts = []
    if nights:
        charts = [
            bars(
                "Facts per night",
                labels,
                [
                    Series(name.removeprefix("facts_"), [float(c[name]) for c in nights.values()])
                    for name in _COUNTED
                ],
            ),
            lines(
                "LLM calls per night",
                labels,
                [
                    Series("made by the nightly job", calls),
                    Series("replaying all history", replay_calls),
                ],
            ),
        ]
        if so_far:
            tokens = [
                Series("read by the nightly job", read),
                Series("replaying all history", replay),
            ]
            charts.insert(1, lines("Prompt tokens per night", labels, tokens))
    return viewer.page(
        request,
        "runs.html",
        profile,
        "runs",
        parts=covered[:50],
        charts=charts,
        tokens=so_far,
    )
