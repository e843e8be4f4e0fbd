"""The Runs page: what each night's consolidation did, in charts and in a table.

"Replaying the whole history" is what a memory without consolidation pays: each
night the model reads every conversation so far again. Its cost on a night is
the running total of what the nightly job read up to that night, which the
chart sets against what it actually read.
"""

from __future__ import annotations

from collections import defaultdict

from fastapi import APIRouter, Request, Response

from somna.interfaces.web.base import PREFIX, HtmlRoute, ViewerDep
from somna.interfaces.web.charts import Series, bars, lines
from somna.model import Run

__all__ = ["router"]

router = APIRouter(
    prefix=f"{PREFIX}/profiles/{{profile}}", route_class=HtmlRoute, include_in_schema=False
)

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


@router.get("/runs")
def runs_page(request: Request, profile: str, viewer: ViewerDep) -> Response:
    viewer.reach(profile)
    mine = [r for r in viewer.memory.runs(limit=500) if r.profile_id == profile]
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
        runs=mine[:50],
        charts=charts,
        tokens=so_far,
    )
