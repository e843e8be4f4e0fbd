"""The numbers and sentences of the pages: nights added up from runs, the SVG drawn from them,
a run's part per profile, and settings changes told as sentences."""

from __future__ import annotations

from datetime import UTC, datetime

from somna.interfaces.web.charts import Series, bars, lines
from somna.interfaces.web.runs import nightly, parts
from somna.interfaces.web.story import setting_changes
from somna.model import ApiKey, Run, Session, SessionStatus


def _run(day: int, hour: int, **counts: int | bool) -> Run:
    return Run(profile_id="p", started_at=datetime(2026, 5, day, hour, tzinfo=UTC), **counts)


def test_runs_are_added_up_per_night_and_dry_runs_left_out() -> None:
    runs = [
        _run(4, 2, facts_added=3, llm_calls=2, prompt_tokens=900),
        _run(3, 23, facts_added=1, facts_expired=2, llm_calls=1, prompt_tokens=400),
        _run(3, 2, facts_added=2, facts_rejected=1, llm_calls=1, prompt_tokens=500),
        _run(4, 3, facts_added=50, dry_run=True),
    ]
    nights = nightly(runs)
    assert list(nights) == ["2026-05-03", "2026-05-04"]
    assert nights["2026-05-03"] == {
        "facts_added": 3,
        "facts_superseded": 0,
        "facts_expired": 2,
        "facts_rejected": 1,
        "llm_calls": 2,
        "prompt_tokens": 900,
    }
    assert nights["2026-05-04"]["facts_added"] == 3


def test_charts_label_every_value_for_readers() -> None:
    drawn = str(lines("Tokens", ["05-03", "05-04"], [Series("replay", [900.0, 1800.0])]))
    assert 'role="img" aria-label="Tokens"' in drawn
    assert "<title>05-04: 1,800 replay</title>" in drawn
    assert ">replay</li>" in drawn
    grouped = str(bars("Facts", ["05-03"], [Series("added", [3.0]), Series("expired", [0.0])]))
    assert grouped.count("<rect") == 2
    assert "<title>05-03: 3 added</title>" in grouped


def test_a_run_over_every_profile_counts_for_each_with_its_own_part() -> None:
    start = datetime(2026, 5, 4, 2, tzinfo=UTC)
    done = Session(
        profile_id="p",
        key="chat-1",
        started_at=start,
        last_message_at=start,
        status=SessionStatus.CONSOLIDATED,
        consolidated_at=start.replace(minute=5),
    )
    failed = Session(profile_id="p", key="chat-2", started_at=start, last_message_at=start)
    everyone = Run(
        started_at=start,
        finished_at=start.replace(minute=10),
        failures=[
            {"session": failed.id, "key": "chat-2", "error": "The model did not answer."},
            {"session": "ses_of_another_profile", "key": "x", "error": "Timed out."},
            {"profile": "p", "error": "A setting is out of range."},
            {"profile": "q", "error": "A setting is out of range."},
        ],
    )
    own = _run(3, 2, facts_added=2)
    other = Run(profile_id="q", started_at=start)
    found = parts([everyone, other, own], "p", [done, failed])
    assert [(p.run, p.everyone) for p in found] == [(everyone, True), (own, False)]
    assert found[0].consolidated == [done] and found[1].consolidated == []
    assert found[0].failures == everyone.failures[0:3:2]


def test_settings_changes_read_as_sentences_with_the_key_name() -> None:
    key = ApiKey(name="ops-laptop", secret_hash="x")
    history = [
        {
            "at": "2026-05-03T09:00:00+00:00",
            "actor": f"ui:{key.id}",
            "before": {"idle_hours": None, "ttl_days": {"intent": 30.0, "plan": 90.0}},
            "after": {"idle_hours": 6.0, "ttl_days": {"intent": 14.0, "trip": 10.0}},
        },
        {
            "at": "2026-05-04T09:00:00+00:00",
            "actor": "api",
            "before": {"judge_floor": 0.7},
            "after": {"judge_floor": None},
        },
    ]
    lines = setting_changes(history, {key.id: key})
    assert [line.text for line in lines] == [
        "the REST API set judge floor from 0.7 to the global value",
        "ops-laptop (the dashboard) set idle hours from the global value to 6; time to live: "
        "intent 30 → 14 days, plan removed, trip added (10 days)",
    ]
