"""Erasure and export: a person's right to have everything removed, or handed over.

The two are mirrors: `export` holds everything `forget` erases (facts of every
status with their evidence and history, conflicts, summaries, sessions with
their live and archived messages, the running summaries of threads, the
entries of consolidation runs about the profile's sessions, the API keys that
reach it), so a person can check what went.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from typing import Any

from somna.errors import ProfileNotFoundError
from somna.model import ConflictStatus, FactStatus, Run, SummaryKind
from somna.store import FactFilter, Store
from somna.store.runs import ENTRY_KINDS

__all__ = ["export", "forget"]

_ALL = 100_000  # no profile holds more of any one kind than a person could read


def forget(store: Store, profile: str, now: datetime) -> dict[str, int]:
    """Take the profile out of the API keys, then erase it from every table; returns how
    many rows went from each table (`api_keys`: the keys changed)."""
    if store.get_profile(profile) is None:
        raise ProfileNotFoundError(profile)
    # Keys first, so the store's erasure ends with every page written (its checkpoint).
    # A key must not reach a profile created later under the same id, and a key left
    # reaching nothing keeps no name a person gave it for this profile.
    changed = 0
    for key in store.list_keys():
        if profile not in key.profiles:
            continue
        remaining = [p for p in key.profiles if p != profile]
        update: dict[str, Any] = {"profiles": remaining}
        if not remaining and not key.admin:
            update |= {"name": "", "revoked_at": key.revoked_at or now}
        store.save_key(key.model_copy(update=update))
        changed += 1
    receipt = store.erase_profile(profile)
    receipt["api_keys"] = changed
    return receipt


def export(store: Store, profile: str, now: datetime) -> dict[str, Any]:
    """Everything the profile holds, as JSON-ready data."""
    found = store.get_profile(profile)
    if found is None:
        raise ProfileNotFoundError(profile)
    with store.read(profile) as tx:
        facts = tx.list_facts(FactFilter(statuses=list(FactStatus), limit=10_000), now)
        ids = [f.id for f in facts]
        sessions = tx.sessions(limit=_ALL)
        threads = [tx.thread_state(s.id) for s in sessions]
        data: dict[str, Any] = {
            "profile": found.model_dump(mode="json"),
            "facts": [f.model_dump(mode="json") for f in facts],
            "evidence": [e.model_dump(mode="json") for e in tx.evidence(ids)],
            "events": [e.model_dump(mode="json") for e in tx.events(ids)],
            "conflicts": [
                c.model_dump(mode="json") for c in tx.list_conflicts(list(ConflictStatus))
            ],
            "summaries": [
                s.model_dump(mode="json")
                for kind in SummaryKind
                for s in tx.summaries(kind, limit=_ALL)
            ],
            "sessions": [s.model_dump(mode="json") for s in sessions],
            "messages": [
                m.model_dump(mode="json")
                for session in sessions
                for m in tx.session_transcript(session.id)
            ],
            "threads": [
                {**asdict(t), "updated_at": t.updated_at.isoformat()}
                for t in threads
                if t is not None
            ],
        }
    data["runs"] = _runs(store, profile, {s.id for s in sessions})
    data["api_keys"] = [
        k.model_dump(mode="json", exclude={"secret_hash"})
        for k in store.list_keys()
        if profile in k.profiles
    ]
    return data


def _runs(store: Store, profile: str, sessions: set[str]) -> list[dict[str, Any]]:
    """The runs of this profile, and of every profile where they were about one of its
    sessions, each holding only the entries about its sessions."""
    kept = []
    for run in store.list_runs(_ALL):
        own: Run = run.model_copy(
            update={
                kind: [e for e in getattr(run, kind) if e.get("session") in sessions]
                for kind in ENTRY_KINDS
            }
        )
        if run.profile_id == profile or any(getattr(own, kind) for kind in ENTRY_KINDS):
            kept.append(own.model_dump(mode="json"))
    return kept
