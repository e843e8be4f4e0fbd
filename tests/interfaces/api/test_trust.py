"""What no key can break over REST: settings out of range, a night for every profile."""

from __future__ import annotations

import httpx
import pytest

from tests.interfaces.api.live import Live


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (
            {"archive_days": 1e300},
            "The setting archive_days must be a number from 0 to 36500, not 1e+300.",
        ),
        (
            {"idle_hours": 1e300},
            "The setting idle_hours must be a number from 0 to 876000, not 1e+300.",
        ),
        (
            {"ttl_days": {"intent": -3}},
            "The setting ttl_days.intent must be a number of days more than 0 and at most "
            "36500, not -3.",
        ),
        ({"llm_model": "big"}, "A profile cannot override llm_model"),
    ],
)
def test_a_profile_is_not_created_with_a_setting_out_of_range(
    live: Live, admin: httpx.Client, overrides: dict[str, object], message: str
) -> None:
    answer = admin.post("/v1/profiles", json={"id": "carol", "settings": {"overrides": overrides}})
    assert answer.status_code == 422
    assert message in answer.json()["error"]["message"]
    assert admin.get("/v1/profiles/carol").status_code == 404


def test_a_profile_is_created_with_its_overrides_in_range(live: Live, admin: httpx.Client) -> None:
    sent = {"overrides": {"archive_days": 30, "ttl_days": {"intent": 10}}}
    assert admin.post("/v1/profiles", json={"id": "carol", "settings": sent}).status_code == 201
    tuned = live.memory.profile_settings("carol")
    assert (tuned.archive_days, tuned.ttl_days) == (30.0, {"intent": 10.0})


def test_one_profile_s_absurd_setting_leaves_the_others_their_night(
    live: Live, admin: httpx.Client
) -> None:
    for profile in ("alice", "bob"):
        sent = {"messages": [{"role": "user", "content": "I play the oboe."}]}
        admin.post(f"/v1/profiles/{profile}/sessions/chat/messages", json=sent).raise_for_status()
    stored = live.memory.get_profile("alice").settings  # as a database of before the ranges
    live.memory.store.save_profile_settings("alice", {**stored, "overrides": {"idle_hours": 1e300}})
    answer = admin.post("/v1/consolidate", json={"idle_hours": 0})
    assert answer.status_code == 200
    run = answer.json()
    assert (run["status"], run["sessions_consolidated"]) == ("partial", 1)
    assert [f["profile"] for f in run["failures"]] == ["alice"]
    assert "idle_hours must be a number from 0 to 876000" in run["failures"][0]["error"]
