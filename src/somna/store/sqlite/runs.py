"""Runs on SQLite: counters in `runs`, each profile's entries in `run_entries`."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from somna.model import Run
from somna.store.runs import counters, entries, with_entries
from somna.store.sqlite.rows import ts
from somna.store.sqlite.transactions import roll_back

__all__ = ["list_runs", "save_run"]

# A run of one profile is written only while that profile exists.
_SAVE = (
    "INSERT INTO runs (id, profile_id, started_at, finished_at, status, body) "
    "SELECT :id, :profile, :started, :finished, :status, :body "
    "WHERE :profile IS NULL OR EXISTS (SELECT 1 FROM profiles WHERE id = :profile) "
    "ON CONFLICT (id) DO UPDATE SET finished_at = excluded.finished_at, "
    "status = excluded.status, body = excluded.body"
)
# An entry is written under its session's profile, and only while that session exists;
# a profile's own entry, only while that profile exists.
_SAVE_ENTRY = (
    "INSERT INTO run_entries (run_id, profile_id, kind, seq, body) "
    "SELECT ?, id, ?, ?, ? FROM profiles "
    "WHERE id = COALESCE((SELECT profile_id FROM sessions WHERE id = ?), ?)"
)


def save_run(conn: sqlite3.Connection, run: Run) -> None:
    """Insert or update the run and replace its entries, in one transaction."""
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            _SAVE,
            {
                "id": run.id,
                "profile": run.profile_id,
                "started": ts(run.started_at),
                "finished": ts(run.finished_at),
                "status": run.status,
                "body": counters(run).model_dump_json(),
            },
        )
        conn.execute("DELETE FROM run_entries WHERE run_id = ?", (run.id,))
        conn.executemany(
            _SAVE_ENTRY,
            [
                (run.id, kind, seq, json.dumps(entry), session, profile)
                for kind, seq, session, profile, entry in entries(run)
            ],
        )
        conn.execute("COMMIT")
    except BaseException:
        roll_back(conn)
        raise


def list_runs(conn: sqlite3.Connection, limit: int) -> list[Run]:
    """The latest runs, newest first, each with the entries still held for it."""
    rows = conn.execute(
        "SELECT body FROM runs ORDER BY started_at DESC, id DESC LIMIT ?", (limit,)
    ).fetchall()
    runs = [Run.model_validate_json(row[0]) for row in rows]
    if not runs:
        return []
    found: dict[str, list[tuple[str, int, dict[str, Any]]]] = {run.id: [] for run in runs}
    for run_id, kind, seq, body in conn.execute(
        "SELECT e.run_id, e.kind, e.seq, e.body FROM run_entries e JOIN (SELECT id FROM runs "
        "ORDER BY started_at DESC, id DESC LIMIT ?) r ON r.id = e.run_id",
        (limit,),
    ):
        if run_id in found:
            found[run_id].append((kind, seq, json.loads(body)))
    return [with_entries(run, found[run.id]) for run in runs]
