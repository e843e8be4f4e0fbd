"""What a PostgreSQL server is asked before its store opens, and how its errors read.

The schema's migrations, whether it has pgvector (and iterative HNSW scans), its
name for a text search configuration; and a database error as a Somna one.
"""

from __future__ import annotations

from typing import Any, Literal

import psycopg
from psycopg import Connection
from psycopg.conninfo import conninfo_to_dict

from somna.errors import ConflictStateError, InvalidInputError, SomnaError, StoreError
from somna.store.migrations import load_migrations

__all__ = [
    "VectorMode",
    "applied_version",
    "canonical_text_config",
    "detect_vector_mode",
    "has_iterative_scans",
    "location",
    "migrate",
    "translate",
]

VectorMode = Literal["pgvector", "array"]

# pg_advisory_xact_lock key that serialises schema migrations across processes ("somna").
_MIGRATION_LOCK = 0x736F6D6E61


def migrate(conn: Connection[Any]) -> None:
    """Apply the migrations this database lacks; processes opening it at once take turns."""
    migrations = load_migrations("postgres")
    if {m.version for m in migrations} <= _applied_versions(conn):
        return  # the common case: one query, no lock
    for migration in migrations:
        with conn.transaction():
            # Several processes opening a new database at once: one migrates, the
            # others wait here, then find the migration recorded.
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, "
                "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            done = conn.execute(
                "SELECT 1 FROM schema_migrations WHERE version = %s", (migration.version,)
            ).fetchone()
            if not done:
                conn.execute(migration.sql)
                conn.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                    (migration.version, migration.name),
                )


def location(dsn: str) -> str:
    """The database a DSN names, as a URL without its password, for people to read."""
    try:
        parts = conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        return "(an unreadable Postgres URL)"
    user = f"{parts['user']}@" if parts.get("user") else ""
    host = str(parts.get("host") or "localhost")
    port = f":{parts['port']}" if parts.get("port") else ""
    if host.startswith("/"):  # a Unix socket folder
        return f"postgresql://{user}/{parts.get('dbname') or ''}?host={host}"
    return f"postgresql://{user}{host}{port}/{parts.get('dbname') or ''}"


def applied_version(conn: Connection[Any]) -> int:
    return max(_applied_versions(conn), default=0)


def _applied_versions(conn: Connection[Any]) -> set[int]:
    """Every migration recorded: a version may land below one already applied."""
    found = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
    if not (found and found[0]):
        return set()
    return {int(row[0]) for row in conn.execute("SELECT version FROM schema_migrations")}


def detect_vector_mode(conn: Connection[Any]) -> VectorMode:
    row = conn.execute(
        "SELECT t.typname FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid "
        "WHERE a.attrelid = 'facts'::regclass AND a.attname = 'embedding'"
    ).fetchone()
    return "pgvector" if row and row[0] == "vector" else "array"


def has_iterative_scans(conn: Connection[Any]) -> bool:
    """Whether the database's pgvector is 0.8 or later (iterative HNSW index scans)."""
    row = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
    if row is None:
        return False
    try:
        version = tuple(int(part) for part in str(row[0]).split(".")[:2])
    except ValueError:
        return False
    return version >= (0, 8)


def canonical_text_config(conn: Connection[Any], name: str) -> str | None:
    """The server's name for a text search configuration, or None when it has no such one."""
    if not name.strip():
        return None
    try:
        row = conn.execute("SELECT %s::regconfig::text", (name,)).fetchone()
    except (psycopg.ProgrammingError, psycopg.DataError):
        return None
    return str(row[0]) if row else None


def translate(exc: psycopg.Error, *, written: bool = False) -> SomnaError:
    """A database error as Somna's: refused by a constraint, a bad value, or a failure."""
    message = (exc.diag.message_primary or str(exc)).strip().rstrip(".")
    outcome = " and nothing was written" if written else ""
    if isinstance(exc, psycopg.IntegrityError):
        return ConflictStateError(f"The change was refused by the database{outcome}: {message}.")
    if isinstance(exc, psycopg.DataError):
        return InvalidInputError(f"The database refused a value{outcome}: {message}.")
    return StoreError(f"The database failed{outcome}: {message}.")
