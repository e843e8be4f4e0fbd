"""Per-profile settings: validated, stored with the profile, recorded, and used by
`add_fact` and the nightly job; the other profiles keep the global values."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from somna import ConfigurationError, InvalidInputError, Memory
from somna.model import FactStatus, SessionStatus
from tests.support import Clock


@pytest.fixture
def two(memory: Memory) -> Memory:
    memory.create_profile("ann")
    memory.create_profile("ben")
    return memory


def test_a_change_is_stored_recorded_and_undone(two: Memory, clock: Clock) -> None:
    tuned = two.tune_profile("ann", {"idle_hours": 12, "ttl_days": {"habit": 5}}, actor="ui:k1")
    assert (tuned.idle_hours, tuned.ttl_days) == (12, {"habit": 5})
    assert two.profile_settings("ann").idle_hours == 12
    assert two.profile_settings("ben").idle_hours == two.settings.idle_hours
    two.tune_profile("ann", {"idle_hours": None})
    assert two.profile_settings("ann").idle_hours == two.settings.idle_hours
    assert two.settings_history("ann") == [
        {
            "at": clock.now.isoformat(),
            "actor": "ui:k1",
            "before": {"ttl_days": None, "idle_hours": None},
            "after": {"ttl_days": {"habit": 5.0}, "idle_hours": 12.0},
        },
        {
            "at": clock.now.isoformat(),
            "actor": "user",
            "before": {"idle_hours": 12.0},
            "after": {"idle_hours": None},
        },
    ]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"neighbor_floor": 1.5},
            "The setting neighbor_floor must be a number from 0 to 1, not 1.5",
        ),
        ({"idle_hours": -1}, "The setting idle_hours must be a number from 0 to 876000, not -1."),
        ({"idle_hours": 1e300}, "The setting idle_hours must be a number from 0 to 876000, not 1e"),
        ({"archive_days": 1e300}, "The setting archive_days must be a number from 0 to 36500"),
        ({"archive_days": float("inf")}, "archive_days must be a number from 0 to 36500, not inf"),
        ({"archive_days": float("nan")}, "archive_days must be a number from 0 to 36500, not nan"),
        ({"ttl_days": {"habit": -3}}, "ttl_days.habit must be a number of days more than 0 and"),
        ({"ttl_days": {"habit": float("inf")}}, "ttl_days.habit must be a number of days"),
        ({"ttl_days": {"habit": "soon"}}, "The setting ttl_days.habit must be a number of days"),
        ({"llm_model": "x"}, "A profile cannot override llm_model"),
    ],
)
def test_a_bad_value_is_refused_and_nothing_is_written(
    two: Memory, changes: dict[str, object], message: str
) -> None:
    two.tune_profile("ann", {"judge_floor": 0.5})
    with pytest.raises(InvalidInputError, match=message):
        two.tune_profile("ann", {"judge_floor": 0.4, **changes})
    assert two.profile_settings("ann").judge_floor == 0.5
    assert len(two.settings_history("ann")) == 1


def test_add_fact_uses_the_profile_neighbor_floor(two: Memory) -> None:
    for profile in ("ann", "ben"):
        two.add_fact(profile, "Prefers tea to coffee.")
    two.tune_profile("ann", {"neighbor_floor": 0.2})
    near = {p: two.add_fact(p, "Drinks herbal tea at night.").similar for p in ("ann", "ben")}
    assert [s.fact.text for s in near["ann"]] == ["Prefers tea to coffee."]
    assert near["ben"] == []


def test_the_nightly_job_uses_the_profile_idle_hours_and_ttl(two: Memory, clock: Clock) -> None:
    for profile in ("ann", "ben"):
        two.add_messages(profile, "chat", [("user", "I live in Grenoble.")])
        two.add_fact(profile, "Plays chess on Sundays.", category="habit")
    two.tune_profile("ann", {"idle_hours": 48, "ttl_days": {"habit": 2}})
    clock.advance(hours=5)
    two.consolidate()
    status = {p: two.sessions(p)[0].status for p in ("ann", "ben")}
    assert status == {"ann": SessionStatus.OPEN, "ben": SessionStatus.ARCHIVED}
    clock.advance(days=3)
    two.consolidate()
    habit = {
        p: two.list_facts(p, status=list(FactStatus), category="habit")[0].status
        for p in ("ann", "ben")
    }
    assert habit == {"ann": FactStatus.EXPIRED, "ben": FactStatus.UNVERIFIED}
    assert two.sessions("ann")[0].status is SessionStatus.ARCHIVED
    assert clock.now - two.sessions("ann")[0].last_message_at > timedelta(hours=48)


def _store_unchecked(memory: Memory, profile: str, overrides: dict[str, object]) -> None:
    """What a database written before the ranges existed may hold."""
    stored = memory.get_profile(profile).settings
    memory.store.save_profile_settings(profile, {**stored, "overrides": overrides})


def test_an_absurd_stored_setting_fails_its_profile_alone(two: Memory, clock: Clock) -> None:
    for profile in ("ann", "ben"):
        two.add_messages(profile, "chat", [("user", "I live in Grenoble.")])
    _store_unchecked(two, "ann", {"archive_days": 1e300, "idle_hours": 1e300})
    clock.advance(hours=5)
    run = two.consolidate()
    assert run.status.value == "partial"
    assert run.sessions_consolidated == 1
    assert two.sessions("ben")[0].status is SessionStatus.ARCHIVED
    assert two.sessions("ann")[0].status is SessionStatus.OPEN
    (failure,) = run.failures
    assert failure["profile"] == "ann"
    assert re.search(
        r"'ann' holds a setting out of range\. The setting (archive_days|idle_hours) must be",
        failure["error"],
    )
    with pytest.raises(ConfigurationError, match="'ann' holds a setting out of range"):
        two.profile_settings("ann")
    two.tune_profile("ann", {"archive_days": 30, "idle_hours": 1})  # set again: back to work
    assert two.consolidate().sessions_consolidated == 1


def test_a_profile_failing_in_any_way_leaves_the_others_their_night(
    two: Memory, clock: Clock
) -> None:
    for profile in ("ann", "ben"):
        two.add_messages(profile, "chat", [("user", "I live in Grenoble.")])
    _store_unchecked(two, "ann", {"idle_hours": "soon"})
    clock.advance(hours=5)
    run = two.consolidate()
    assert [f["profile"] for f in run.failures] == ["ann"]
    assert two.sessions("ben")[0].status is SessionStatus.ARCHIVED


def test_a_new_profile_s_overrides_are_checked_like_a_change(memory: Memory) -> None:
    with pytest.raises(InvalidInputError, match="archive_days must be a number from 0 to 36500"):
        memory.create_profile("cy", settings={"overrides": {"archive_days": 1e300}})
    assert [p.id for p in memory.list_profiles()] == []
    memory.create_profile("cy", settings={"overrides": {"archive_days": 30}, "speakers": ["Cy"]})
    assert memory.profile_settings("cy").archive_days == 30
