"""Erasure and export: a person's right to have everything removed, or handed over.

The two are mirrors: `export` holds everything `forget` erases (facts of every
status with their evidence and history, conflicts, summaries, sessions with
their live and archived messages, the running summaries of threads, the
entries of consolidation runs about the profile's sessions, the API keys that
reach it), so a person can check what went.

A profile imported from an n8n table would be created again by the next
import from the rows still there, so `forget` deletes those rows when it is
given the table (and may write to it); otherwise, or when that fails, it
leaves a tombstone, the hash of the profile's id alone, that the import honours
(`somna.sources.tombstones`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from datetime import datetime
from typing import Any

from somna.errors import ProfileNotFoundError, SomnaError
from somna.model import ConflictStatus, Fact, FactStatus, Run, SummaryKind
from somna.sources.n8n import N8nTable
from somna.sources.tombstones import profile_hash
from somna.store import FactFilter, Reader, Store
from somna.store.runs import ENTRY_KINDS

__all__ = ["export", "forget"]

_ALL = 100_000
"""The most sessions, summaries of a kind or runs an export reads; one that reaches it says
so in `truncated`. Facts have no such bound: they are read page by page."""
_PAGE = 10_000  # facts read at once (the most a listing returns)
_IDS = 500  # fact ids per query of their evidence and events
_EVERY_ROW = 2**63 - 1  # the highest row id a source table can have

log = logging.getLogger(__name__)


def forget(
    store: Store, profile: str, now: datetime, source: N8nTable | None = None
) -> dict[str, int]:
    """Delete the profile's rows from `source`, or leave a tombstone; take the profile out
    of the API keys, then erase it from every table. Returns how many rows went from each
    table (`api_keys`: the keys changed; `source_rows`: the rows deleted from `source`;
    `tombstones`: 1 when one was left instead)."""
    if store.get_profile(profile) is None:
        raise ProfileNotFoundError(profile)
    purged = None if source is None else _purge_source(store, profile, source)
    if purged is None:  # first, so that no import between here and the erasure brings it back
        store.add_tombstone(profile_hash(profile), now)
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
    if purged is None:
        receipt["tombstones"] = 1
    else:
        receipt["source_rows"] = purged
    return receipt


def _purge_source(store: Store, profile: str, source: N8nTable) -> int | None:
    """Delete every row of the source's conversations that went to the profile, newer
    ones included; how many, or None when that failed (a role that may only read)."""
    keys = sorted({c.key for c in store.source_cursors(source.name) if c.profile_id == profile})
    try:
        return sum(source.delete_rows(key, 0, _EVERY_ROW) for key in keys)
    except SomnaError as exc:
        log.warning(
            "Could not delete the rows of profile %s from %s: %s", profile, source.name, exc
        )
        return None


def export(store: Store, profile: str, now: datetime) -> dict[str, Any]:
    """Everything the profile holds, as JSON-ready data."""
    found = store.get_profile(profile)
    if found is None:
        raise ProfileNotFoundError(profile)
    with store.read(profile) as tx:
        facts = list(_all_facts(tx, now))
        ids = [f.id for f in facts]
        sessions = tx.sessions(limit=_ALL)
        threads = [tx.thread_state(s.id) for s in sessions]
        data: dict[str, Any] = {
            "profile": found.model_dump(mode="json"),
            "facts": [f.model_dump(mode="json") for f in facts],
            "evidence": [
                e.model_dump(mode="json") for chunk in _chunks(ids) for e in tx.evidence(chunk)
            ],
            "events": [
                e.model_dump(mode="json") for chunk in _chunks(ids) for e in tx.events(chunk)
            ],
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
    truncated = [part for part in ("sessions", "runs") if len(data[part]) >= _ALL]
    if truncated:  # never silently: the reader is told what is not whole
        data["truncated"] = truncated
    return data


def _all_facts(tx: Reader, now: datetime) -> Iterator[Fact]:
    """Every fact of every status, page by page."""
    offset = 0
    while True:
        page = tx.list_facts(FactFilter(statuses=list(FactStatus), limit=_PAGE, offset=offset), now)
        yield from page
        if len(page) < _PAGE:
            return
        offset += _PAGE


def _chunks(ids: Sequence[str]) -> Iterator[Sequence[str]]:
    for start in range(0, len(ids), _IDS):
        yield ids[start : start + _IDS]


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
