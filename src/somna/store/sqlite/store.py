"""`SQLiteStore`: the `Store` port on one SQLite file.

One connection per store, guarded by a lock: a scope holds it from BEGIN to
COMMIT, so a scope is a transaction. Write scopes start with BEGIN IMMEDIATE,
which takes SQLite's write lock up front, so two processes on one file queue
instead of failing half-way.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from somna.errors import (
    ConflictStateError,
    InvalidInputError,
    ProfileNotFoundError,
    StoreError,
)
from somna.model import (
    Fact,
    FactStatus,
    Profile,
    Run,
)
from somna.store.french import french_text
from somna.store.fulltext import TermCounts
from somna.store.migrations import load_migrations
from somna.store.sql import Params
from somna.store.sqlite import erasure, runs
from somna.store.sqlite.embedders import SQLiteLedger
from somna.store.sqlite.queries import (
    bind,
    parse_ts,
    placeholders,
    statements,
)
from somna.store.sqlite.rows import (
    ts,
)
from somna.store.sqlite.scope import SQLiteScope
from somna.store.sqlite.transactions import roll_back
from somna.store.tables import StoreTables
from somna.store.vectors import INDEXED_STATUSES, SummaryIndex, VectorIndex

__all__ = ["SQLiteStore"]

MMAP_BYTES = 1 << 30
"""How much of the database file SQLite reads through a memory map (1 GiB of address space)."""


class SQLiteStore(StoreTables):
    """The embedded default store.

    >>> store = SQLiteStore(":memory:")
    >>> store.create_profile(Profile(id="alice")).id
    'alice'
    """

    def __init__(self, path: str | Path = "somna.db") -> None:
        self.path = str(path)
        _create_private(self.path)
        try:
            self._conn = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=30.0
            )
        except sqlite3.Error as exc:
            raise StoreError(f"Cannot open the SQLite database {self.path!r}: {exc}.") from exc
        self._conn.row_factory = sqlite3.Row
        self._conn.create_function("somna_french", 1, french_text, deterministic=True)
        self._lock = threading.RLock()
        self._indexes: dict[str, VectorIndex] = {}
        self._summary_indexes: dict[str, SummaryIndex] = {}
        self.term_counts = TermCounts()
        for pragma in (
            "journal_mode = WAL",
            "foreign_keys = ON",
            "synchronous = NORMAL",
            "busy_timeout = 30000",
            "secure_delete = ON",  # erased text is overwritten, not left in free pages
            # Reads map the file instead of copying each page: a full-text search looks up
            # thousands of facts by rowid, each row holding its embedding (2 KB). The map
            # is address space, shared with the OS's page cache, not memory of its own.
            f"mmap_size = {MMAP_BYTES}",
        ):
            self._execute_first(f"PRAGMA {pragma}")
        self._migrate()

    def _execute_first(self, statement: str) -> None:
        """Runs an opening statement; a file that is not SQLite fails here, named, as bad input."""
        try:
            self._conn.execute(statement)
        except sqlite3.DatabaseError as exc:
            if exc.sqlite_errorcode != sqlite3.SQLITE_NOTADB:
                raise
            self._conn.close()
            raise InvalidInputError(
                f"{self.path!r} is not a Somna database (SQLite: {exc}); point SOMNA_DB or "
                "--db at a database file, or at a path that does not exist yet."
            ) from exc

    # -- life cycle -------------------------------------------------------------------

    def _migrate(self) -> None:
        with self._lock:
            conn = self._conn
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            for migration in load_migrations("sqlite"):
                try:
                    conn.execute("BEGIN IMMEDIATE")
                    done = conn.execute(
                        "SELECT 1 FROM schema_migrations WHERE version = ?", (migration.version,)
                    ).fetchone()
                    if not done:
                        for statement in statements(migration.sql):
                            conn.execute(statement)
                        conn.execute(
                            "INSERT INTO schema_migrations VALUES (?, ?, datetime('now'))",
                            (migration.version, migration.name),
                        )
                    conn.execute("COMMIT")
                except BaseException:
                    roll_back(conn)
                    raise

    @property
    def location(self) -> str:
        return self.path

    def schema_version(self) -> int:
        with self._lock:
            row = self._conn.execute("SELECT max(version) FROM schema_migrations").fetchone()
            return int(row[0] or 0)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # -- profiles ---------------------------------------------------------------------

    def create_profile(self, profile: Profile) -> Profile:
        with self._lock:
            try:
                self._conn.execute(
                    "INSERT INTO profiles (id, name, settings, created_at) VALUES (?, ?, ?, ?)",
                    (
                        profile.id,
                        profile.name,
                        json.dumps(profile.settings),
                        ts(profile.created_at),
                    ),
                )
            except sqlite3.IntegrityError as exc:
                raise ConflictStateError(f"A profile named {profile.id!r} already exists.") from exc
        return profile

    # -- erasure ------------------------------------------------------------------------

    def erase_profile(self, profile_id: str) -> dict[str, int]:
        with self._transaction(profile_id, "BEGIN IMMEDIATE"):
            counts = erasure.erase(self._conn, profile_id)
        with self._lock:
            erasure.compact(self._conn)
        self._indexes.pop(profile_id, None)
        self._summary_indexes.pop(profile_id, None)
        return counts

    # -- runs -------------------------------------------------------------------------

    def save_run(self, run: Run) -> None:
        with self._lock:
            runs.save_run(self._conn, run)

    def list_runs(self, limit: int = 20) -> list[Run]:
        with self._lock:
            return runs.list_runs(self._conn, limit)

    # -- the tables that span profiles ---------------------------------------------------

    def _rows(self, sql: str, params: Params | None = None) -> list[Any]:
        with self._lock:
            return self._conn.execute(sql, bind(params or {})).fetchall()

    def _json(self, value: Any) -> Any:
        return None if value is None else json.loads(value)

    # -- embedder -----------------------------------------------------------------------

    def embedders(self) -> SQLiteLedger:
        return SQLiteLedger(self._conn, self._lock, self._forget_vectors)

    def _forget_vectors(self) -> None:
        self._indexes.clear()
        self._summary_indexes.clear()

    # -- scopes -----------------------------------------------------------------------

    @contextmanager
    def read(self, profile_id: str) -> Iterator[SQLiteScope]:
        with self._transaction(profile_id, "BEGIN") as scope:
            yield scope

    @contextmanager
    def write(self, profile_id: str) -> Iterator[SQLiteScope]:
        with self._transaction(profile_id, "BEGIN IMMEDIATE") as scope:
            yield scope

    @contextmanager
    def _transaction(self, profile_id: str, begin: str) -> Iterator[SQLiteScope]:
        with self._lock:
            conn = self._conn
            try:
                conn.execute(begin)
            except sqlite3.OperationalError as exc:
                raise StoreError(f"The database is busy or unavailable: {exc}.") from exc
            except BaseException:  # a signal just after BEGIN took effect
                roll_back(conn)
                raise
            try:
                # The profile's facts_rev, read anyway to know the profile exists, tells a
                # search whether the cached vector index is current.
                row = conn.execute(
                    "SELECT facts_rev FROM profiles WHERE id = ?", (profile_id,)
                ).fetchone()
                if row is None:
                    raise ProfileNotFoundError(profile_id)
                scope = SQLiteScope(self, conn, profile_id, row[0])
                yield scope
                conn.execute("COMMIT")
            except BaseException as exc:
                roll_back(conn)
                if isinstance(exc, sqlite3.IntegrityError):
                    raise ConflictStateError(
                        f"The change was refused by the database and nothing was written: {exc}."
                    ) from exc
                if isinstance(exc, sqlite3.OperationalError):
                    raise StoreError(
                        f"The database failed and nothing was written: {exc}."
                    ) from exc
                raise
            scope.patch_index()

    # -- summary vectors --------------------------------------------------------------

    def summary_index(self, conn: sqlite3.Connection, profile_id: str) -> SummaryIndex | None:
        """Every summary vector of a profile; summaries are only ever added, so their count
        and last rowid tell whether the cached copy is current."""
        count, last = conn.execute(
            "SELECT count(*), max(rowid) FROM summaries WHERE profile_id = ? "
            "AND embedding IS NOT NULL",
            (profile_id,),
        ).fetchone()
        if not count:
            return None
        cached = self._summary_indexes.get(profile_id)
        if cached is not None and cached.revision == (count, last):
            return cached
        rows = conn.execute(
            "SELECT id, kind, coalesce(period_start, created_at) AS start, embedding "
            "FROM summaries WHERE profile_id = ? AND embedding IS NOT NULL",
            (profile_id,),
        ).fetchall()
        index = SummaryIndex(
            revision=(count, last),
            ids=[row["id"] for row in rows],
            matrix=np.vstack([np.frombuffer(row["embedding"], dtype="<f4") for row in rows]),
            kinds=np.array([row["kind"] for row in rows]),
            starts=np.array([datetime.fromisoformat(row["start"]).timestamp() for row in rows]),
        )
        self._summary_indexes[profile_id] = index
        return index

    # -- vector index -----------------------------------------------------------------

    def fact_index(
        self, conn: sqlite3.Connection, profile_id: str, revision: int
    ) -> VectorIndex | None:
        """The profile's cached vector index, reloaded when `revision`, the profile's
        `facts_rev` in this transaction, says that another writer changed its facts."""
        index = self.cached_fact_index(profile_id, revision)
        if index is not None:
            return index
        statuses = sorted(s.value for s in INDEXED_STATUSES)
        rows = conn.execute(
            "SELECT id, status, valid_from, valid_to, expires_at, embedding FROM facts "
            f"WHERE profile_id = ? AND status IN ({placeholders(statuses)})",
            (profile_id, *statuses),
        ).fetchall()
        if not rows:
            self._indexes.pop(profile_id, None)
            return None
        dim = len(rows[0]["embedding"]) // 4
        index = VectorIndex(dim, revision)
        for row in rows:
            index.put(
                row["id"],
                status=FactStatus(row["status"]),
                valid_from=datetime.fromisoformat(row["valid_from"]),
                valid_to=parse_ts(row["valid_to"]),
                expires_at=parse_ts(row["expires_at"]),
                vector=np.frombuffer(row["embedding"], dtype="<f4"),
            )
        self._indexes[profile_id] = index
        return index

    def cached_fact_index(self, profile_id: str, revision: int) -> VectorIndex | None:
        """The profile's cached vector index if it is at `revision`, without loading one."""
        index = self._indexes.get(profile_id)
        return index if index is not None and index.revision == revision else None

    def patch_fact_index(
        self,
        profile_id: str,
        revision_before: int,
        revision_after: int,
        patches: list[tuple[Fact, np.ndarray | None]],
    ) -> None:
        """Apply a committed scope's fact changes to the cached index, or drop a stale one."""
        index = self._indexes.get(profile_id)
        if index is None:
            return
        if index.revision != revision_before:
            self._indexes.pop(profile_id, None)
            return
        for fact, vector in patches:
            index.put_fact(fact, vector)
        index.revision = revision_after


def _create_private(path: str) -> None:
    """Create a new database file readable by its owner alone; SQLite gives its -wal and
    -shm files the same mode. An existing file keeps the mode its owner chose."""
    if path == ":memory:" or path.startswith("file:") or not path:
        return
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except OSError:
        return  # it exists, or SQLite will say why it cannot be opened
