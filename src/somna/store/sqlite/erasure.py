"""Erasure on SQLite: no byte of the profile's text left in the file or its WAL.

Deleting rows is not enough on SQLite: FTS5 keeps the words of deleted rows in
its segments until they are merged, freed pages keep their old bytes unless
`secure_delete` is on (every connection Somna opens sets it), pages rebalanced
by the deletes can keep old bytes in their unused space, and the WAL keeps every
page image written since the last checkpoint. So erasure deletes, merges each
full-text index into one fresh segment ('optimize'), then the store rewrites the
file (VACUUM) and truncates the WAL.
"""

from __future__ import annotations

import logging
import sqlite3

from somna.store.erasure import deletion_order

__all__ = ["compact", "erase"]

log = logging.getLogger(__name__)

_PROFILE_TABLES = (
    "SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) c "
    "WHERE m.type = 'table' AND c.name = 'profile_id'"
)
_REFERENCES = (
    'SELECT m.name, k."table" FROM sqlite_master m, pragma_foreign_key_list(m.name) k '
    "WHERE m.type = 'table'"
)
_FTS_TABLES = (
    "SELECT name FROM sqlite_master WHERE type = 'table' "
    "AND sql LIKE 'CREATE VIRTUAL TABLE%USING fts5%'"
)


def erase(conn: sqlite3.Connection, profile_id: str) -> dict[str, int]:
    """Delete every row of the profile, in the open write transaction; returns the counts
    per table, taken before any delete so a cascade does not hide what went."""
    tables = [row[0] for row in conn.execute(_PROFILE_TABLES)]
    references = [(row[0], row[1]) for row in conn.execute(_REFERENCES)]
    counts = {
        table: conn.execute(
            f'SELECT count(*) FROM "{table}" WHERE profile_id = ?', (profile_id,)
        ).fetchone()[0]
        for table in tables
    }
    conn.execute("UPDATE facts SET superseded_by = NULL WHERE profile_id = ?", (profile_id,))
    for table in deletion_order(tables, references):
        conn.execute(f'DELETE FROM "{table}" WHERE profile_id = ?', (profile_id,))
    counts["profiles"] = conn.execute("DELETE FROM profiles WHERE id = ?", (profile_id,)).rowcount
    for (fts,) in conn.execute(_FTS_TABLES).fetchall():
        conn.execute(f'INSERT INTO "{fts}" ("{fts}") VALUES (\'optimize\')')
    return counts


def compact(conn: sqlite3.Connection) -> bool:
    """Rewrite the file (VACUUM), then copy the WAL into it and truncate the WAL.

    `secure_delete` zeroes a deleted row, but a page rebalanced by the deletes can keep
    old bytes in its unused space; VACUUM writes every page afresh. Returns False when
    another connection's open read kept the checkpoint from finishing (the next one
    completes the job). Best effort: the erasure has committed, so a failure is logged."""
    try:
        conn.execute("VACUUM")
        busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    except sqlite3.OperationalError as exc:
        log.warning("Compacting the database after an erasure failed; run VACUUM: %s", exc)
        return False
    return busy is None or busy[0] == 0
