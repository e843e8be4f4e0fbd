"""Runs on PostgreSQL: counters in `runs`, each profile's entries in `run_entries`."""

from __future__ import annotations

from typing import Any

from psycopg import Connection
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from somna.model import Run
from somna.store.runs import counters, entries, with_entries

__all__ = ["list_runs", "save_run"]

# A run of one profile is written only while that profile exists.
_SAVE = (
    "INSERT INTO runs (id, profile_id, started_at, finished_at, status, body) "
    "SELECT %(id)s, %(profile)s, %(started)s, %(finished)s, %(status)s, %(body)s "
    "WHERE %(profile)s::text IS NULL OR EXISTS "
    "(SELECT 1 FROM profiles WHERE id = %(profile)s FOR KEY SHARE) "
    "ON CONFLICT (id) DO UPDATE SET finished_at = excluded.finished_at, "
    "status = excluded.status, body = excluded.body"
)
# Locks the entries' profiles (of their sessions, or named) against a concurrent erasure,
# skipping one already gone.
_LOCK_PROFILES = (
    "SELECT id FROM profiles WHERE id = ANY(%s) "
    "OR id IN (SELECT profile_id FROM sessions WHERE id = ANY(%s)) FOR KEY SHARE"
)
# An entry is written under its session's profile, and only while that session exists;
# a profile's own entry, only while that profile exists.
_SAVE_ENTRY = (
    "INSERT INTO run_entries (run_id, profile_id, kind, seq, body) "
    "SELECT %s, id, %s, %s, %s FROM profiles "
    "WHERE id = COALESCE((SELECT profile_id FROM sessions WHERE id = %s::text), %s::text)"
)


def save_run(conn: Connection[Any], run: Run) -> None:
    """Insert or update the run and replace its entries, in one transaction."""
    found = list(entries(run))
    with conn.transaction():
        conn.execute(
            _SAVE,
            {
                "id": run.id,
                "profile": run.profile_id,
                "started": run.started_at,
                "finished": run.finished_at,
                "status": run.status,
                "body": Jsonb(counters(run).model_dump(mode="json")),
            },
        )
        conn.execute("DELETE FROM run_entries WHERE run_id = %s", (run.id,))
        if found:
            profiles = sorted({profile for *_, profile, _ in found if profile is not None})
            sessions = sorted({session for _, _, session, _, _ in found if session is not None})
            conn.execute(_LOCK_PROFILES, (profiles, sessions))
            with conn.cursor() as cursor:
                cursor.executemany(
                    _SAVE_ENTRY,
                    [
                        (run.id, kind, seq, Jsonb(entry), session, profile)
                        for kind, seq, session, profile, entry in found
                    ],
                )


def list_runs(conn: Connection[Any], limit: int) -> list[Run]:
    """The latest runs, newest first, each with the entries still held for it."""
    cursor = conn.cursor(row_factory=dict_row)
    rows = cursor.execute(
        "SELECT body FROM runs ORDER BY started_at DESC, id DESC LIMIT %s", (limit,)
    ).fetchall()
    runs = [Run.model_validate(row["body"]) for row in rows]
    if not runs:
        return []
    found: dict[str, list[tuple[str, int, dict[str, Any]]]] = {run.id: [] for run in runs}
    for row in cursor.execute(
        "SELECT run_id, kind, seq, body FROM run_entries WHERE run_id = ANY(%s)",
        ([run.id for run in runs],),
    ):
        found[row["run_id"]].append((row["kind"], row["seq"], row["body"]))
    return [with_entries(run, found[run.id]) for run in runs]
