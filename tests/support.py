"""Test support: a hand-moved clock, and everything a profile holds, to compare states."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from somna import Fact, FactStatus, Memory
from somna.model import ConflictStatus


class Clock:
    """A clock that tests move by hand."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


def all_facts(memory: Memory, profile: str) -> list[Fact]:
    return memory.list_facts(profile, status=list(FactStatus), limit=10_000)


def snapshot(memory: Memory, profile: str) -> dict[str, Any]:
    """Every fact, event, piece of evidence and conflict of a profile, as comparable data."""
    facts = all_facts(memory, profile)
    events, evidence = [], []
    for fact in facts:
        history = memory.history(profile, fact.id)
        events += [e.model_dump_json() for e in history.events]
        evidence += [e.model_dump_json() for e in history.evidence]
    conflicts = [
        pair.conflict.model_dump_json()
        for status in ConflictStatus
        for pair in memory.conflicts(profile, status=status)
    ]
    return {
        "facts": sorted(f.model_dump_json() for f in facts),
        "events": sorted(set(events)),
        "evidence": sorted(set(evidence)),
        "conflicts": sorted(set(conflicts)),
    }
