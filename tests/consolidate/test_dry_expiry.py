"""`expiring_after`: the facts a dry run says hygiene would expire, as the real run decides."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from somna.consolidate.hygiene import expiring_after
from somna.model import Fact, Verdict

NOW = datetime(2026, 6, 1, tzinfo=UTC)
OLD = NOW - timedelta(days=400)  # past a 90-day plan, within a 730-day preference
TTL = {"plan": 90.0, "preference": 730.0}


def fact(text: str, category: str = "plan", seen: datetime = OLD) -> Fact:
    return Fact.model_validate(
        {"profile_id": "alice", "text": text, "category": category, "valid_from": seen,
         "recorded_at": seen, "first_observed_at": seen}
    )  # fmt: skip


def test_stale_facts_and_stale_new_facts_both_count() -> None:
    stale, alive = fact("Plans to tile the bathroom."), fact("Likes jazz.", "preference")
    new = fact("Plans to visit the coast.")
    assert expiring_after([stale, alive], [(new, {})], TTL, NOW) == 2


def test_what_the_run_reinforces_is_seen_now_and_stays() -> None:
    stale = fact("Plans to tile the bathroom.")
    same_text = fact("Plans to tile the bathroom.")
    duplicate = fact("Intends to tile the bathroom.")
    assert expiring_after([stale], [(same_text, {})], TTL, NOW) == 0
    assert expiring_after([stale], [(duplicate, {stale.id: Verdict.DUPLICATE})], TTL, NOW) == 0
    said_twice = fact("Plans to visit the coast.")
    assert expiring_after([], [(said_twice, {}), (fact(said_twice.text), {})], TTL, NOW) == 0


def test_superseded_and_disputed_facts_leave_the_active_ones() -> None:
    stale = fact("Plans to tile the bathroom.")
    fresh = fact("Plans to paint the bathroom.", seen=NOW)
    assert expiring_after([stale], [(fresh, {stale.id: Verdict.SUPERSEDES})], TTL, NOW) == 0
    stale_new = fact("Plans to paint the bathroom.")
    # A contradiction disputes both: neither is active when hygiene runs.
    assert expiring_after([stale], [(stale_new, {stale.id: Verdict.CONTRADICTS})], TTL, NOW) == 0
    # A distinct neighbor changes nothing.
    assert expiring_after([stale], [(stale_new, {stale.id: Verdict.DISTINCT})], TTL, NOW) == 2
