"""Erasure on PostgreSQL: the profile's rows deleted, then the touched tables vacuumed.

What Postgres guarantees: once the transaction commits, no query of any
session sees the rows again. A plain VACUUM (run after the commit) then
removes the dead row versions from the tables and their indexes, so the space
is reused; the bytes of a removed row version may stay in a page's free space
or in WAL segments until they are overwritten or recycled, which Postgres does
not promise to do at any given time (see docs/reliability.md).
"""

from __future__ import annotations

import logging
from typing import Any

import psycopg
from psycopg import Connection, Cursor

from somna.store.erasure import deletion_order

__all__ = ["erase", "vacuum"]

log = logging.getLogger(__name__)

_PROFILE_TABLES = (
    "SELECT c.table_name AS name FROM information_schema.columns c "
    "JOIN information_schema.tables t USING (table_schema, table_name) "
    "WHERE c.column_name = 'profile_id' AND c.table_schema = current_schema() "
    "AND t.table_type = 'BASE TABLE'"
)
_REFERENCES = (
    "SELECT child.relname AS child, parent.relname AS parent FROM pg_constraint k "
    "JOIN pg_class child ON child.oid = k.conrelid JOIN pg_class parent ON parent.oid = "
    "k.confrelid WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace"
)


def erase(cursor: Cursor[dict[str, Any]], profile_id: str) -> dict[str, int]:
    """Delete every row of the profile, in the open write transaction; returns the counts
    per table, taken before any delete so a cascade does not hide what went."""
    tables = [row["name"] for row in cursor.execute(_PROFILE_TABLES).fetchall()]
    references = [(r["child"], r["parent"]) for r in cursor.execute(_REFERENCES).fetchall()]
    counts: dict[str, int] = {}
    for table in tables:
        row = cursor.execute(
            f'SELECT count(*) AS n FROM "{table}" WHERE profile_id = %s', (profile_id,)
        ).fetchone()
        counts[table] = int(row["n"]) if row else 0
    for table in deletion_order(tables, references):
        cursor.execute(f'DELETE FROM "{table}" WHERE profile_id = %s', (profile_id,))
    counts["profiles"] = cursor.execute(
        "DELETE FROM profiles WHERE id = %s", (profile_id,)
    ).rowcount
    return counts


def vacuum(conn: Connection[Any], tables: list[str]) -> None:
    """VACUUM the tables erasure touched (autocommit: VACUUM runs outside a transaction).
    Best effort: the erasure has committed, so a failure here is logged, not raised."""
    names = ", ".join(f'"{table}"' for table in sorted(tables))
    try:
        conn.execute(f"VACUUM {names}")
    except psycopg.Error as exc:
        log.warning("VACUUM after an erasure failed; the space is reclaimed later: %s", exc)
