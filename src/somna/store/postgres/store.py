"""`PostgresStore`: the `Store` port on PostgreSQL, through a psycopg 3 connection pool.

A scope borrows one pooled connection for one transaction. A read scope is
REPEATABLE READ READ ONLY, so all its queries see one snapshot. A write scope
is READ COMMITTED and starts by locking its profile's row, so writers of one
profile queue (as SQLite's BEGIN IMMEDIATE makes every writer queue) while
writers of different profiles run side by side.

Embeddings live in a pgvector `vector` column when the extension is there
(`vector_mode == "pgvector"`, searched in SQL: exactly, or through an HNSW index
of its own once a profile is large, see `hnsw.py`), or in a `real[]` column
searched in process by a `VectorIndex` cached per profile
(`vector_mode == "array"`), invalidated through the profile's `facts_rev`.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

import numpy as np
import psycopg
from psycopg import Connection
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from somna.errors import (
    ConfigurationError,
    ConflictStateError,
    InvalidInputError,
    ProfileNotFoundError,
    StoreError,
)
from somna.model import Profile, Run
from somna.store.fulltext import TermCounts
from somna.store.postgres import erasure, runs
from somna.store.postgres.caches import IndexCache
from somna.store.postgres.embedders import PostgresLedger
from somna.store.postgres.hnsw import HnswIndexes, index_name, index_prefix
from somna.store.postgres.queries import Float4ArrayDumper, bind, named
from somna.store.postgres.rows import (
    jsonb,
)
from somna.store.postgres.scope import PostgresScope
from somna.store.postgres.server import (
    VectorMode,
    applied_version,
    canonical_text_config,
    detect_vector_mode,
    has_iterative_scans,
    location,
    migrate,
    translate,
)
from somna.store.sql import Params
from somna.store.tables import StoreTables

__all__ = ["PostgresStore", "VectorMode"]

_CONNECT_TIMEOUT_S = 10
_BEGIN_READ = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
_BEGIN_WRITE = "BEGIN"


class PostgresStore(StoreTables):
    """The shared store: one PostgreSQL database, any number of processes.

    >>> store = PostgresStore("postgresql://somna@db.internal/somna")  # doctest: +SKIP
    >>> store.vector_mode  # doctest: +SKIP
    'pgvector'

    `text_config` is the text search configuration of the profiles this store
    creates, unless a profile's settings name another (`{"text_config": "french"}`).
    English stems by default, as SQLite's main index does, and every profile has a
    French index beside it; `simple` (no stemming) found LoCoMo's evidence less often.
    `pool_size` bounds the connections this store holds; `cached_profiles` bounds
    the profiles whose vectors it keeps in memory in array mode; a write waits at
    most `lock_timeout` seconds for its profile, then fails with `StoreError`.

    In pgvector mode (pgvector 0.8 or later), a profile with more than
    `hnsw_threshold` searchable facts gets an HNSW index, built in the background
    after a search finds it that large, and searched with `hnsw_ef_search`
    candidates (or the search's limit, when larger); `hnsw_threshold=None` keeps
    every search exact. `vector_searches` counts the searches by the way they
    went: "exact", "hnsw", or "hnsw-short" (an index scan that came back short,
    redone exactly).
    """

    def __init__(
        self,
        dsn: str,
        *,
        pool_size: int = 5,
        text_config: str = "english",
        cached_profiles: int = 64,
        lock_timeout: float = 30.0,
        hnsw_threshold: int | None = 20_000,
        hnsw_ef_search: int = 100,
    ) -> None:
        if pool_size < 1:
            raise ConfigurationError(f"pool_size must be at least 1, not {pool_size}.")
        if hnsw_threshold is not None and hnsw_threshold < 0:
            raise ConfigurationError(
                f"hnsw_threshold must be a number of facts or None, not {hnsw_threshold}."
            )
        if not 1 <= hnsw_ef_search <= 1000:
            raise ConfigurationError(
                f"hnsw_ef_search must be between 1 and 1000, not {hnsw_ef_search}."
            )
        self.hnsw_threshold = hnsw_threshold
        self.vector_searches: Counter[str] = Counter()
        self._searches_lock = threading.Lock()
        self.lock_timeout = lock_timeout
        self._location = location(dsn)
        self._cache = IndexCache(max_profiles=cached_profiles)
        self.term_counts = TermCounts()
        extra: dict[str, Any] = {"autocommit": True}
        try:
            if "connect_timeout" not in conninfo_to_dict(dsn):
                extra["connect_timeout"] = _CONNECT_TIMEOUT_S
        except psycopg.ProgrammingError as exc:
            raise ConfigurationError(
                f"{self._location} is not a valid Postgres URL or connection string: {exc}."
            ) from exc
        try:
            with psycopg.connect(dsn, **extra) as conn:
                migrate(conn)
                self.vector_mode: VectorMode = detect_vector_mode(conn)
                hnsw = self.vector_mode == "pgvector" and has_iterative_scans(conn)
                config = canonical_text_config(conn, text_config)
        except psycopg.Error as exc:
            reason = str(exc).strip().rstrip(".")
            raise StoreError(
                f"Cannot open the Postgres database {self._location}: {reason}."
            ) from exc
        if config is None:
            raise ConfigurationError(
                f"text_config={text_config!r} is not a text search configuration of "
                f"{self._location}; use 'simple' or a language such as 'english' or 'french'."
            )
        self.text_config: str = config
        self._hnsw = (
            HnswIndexes(dsn, extra, threshold=hnsw_threshold, ef_search=hnsw_ef_search)
            if hnsw
            else None
        )
        """The HNSW index builder, where the server's pgvector can search them (0.8+)."""
        self._pool: ConnectionPool[Connection[Any]] = ConnectionPool(
            dsn,
            min_size=1,
            max_size=pool_size,
            kwargs=extra,
            configure=self._configure,
            open=True,
            name=f"somna {self._location}",
        )

    # -- life cycle -------------------------------------------------------------------

    def _configure(self, conn: Connection[Any]) -> None:
        """Set up each new pooled connection."""
        # A writer waits for a profile's lock as long as SQLite waits for its file lock,
        # then fails with StoreError instead of hanging (a nested write scope, say).
        conn.execute(f"SET lock_timeout = {int(self.lock_timeout * 1000)}")
        if self.vector_mode == "pgvector":
            from pgvector.psycopg import register_vector

            register_vector(conn)  # numpy arrays are sent as `vector`
        else:
            conn.adapters.register_dumper(np.ndarray, Float4ArrayDumper)  # as real[]

    @property
    def location(self) -> str:
        return self._location

    def schema_version(self) -> int:
        with self._connection() as conn:
            return applied_version(conn)

    def close(self) -> None:
        if self._hnsw is not None:
            self._hnsw.close()
        self._pool.close()

    # -- HNSW indexes (pgvector mode) -------------------------------------------------

    @property
    def _hnsw_searches(self) -> bool:
        """Whether searches of large profiles go through their HNSW index."""
        return self._hnsw is not None and self.hnsw_threshold is not None

    def ensure_vector_index(self, profile_id: str, *, force: bool = False) -> str | None:
        """Builds the profile's HNSW index now, if it has more searchable facts than
        `hnsw_threshold` (or `force`), and returns its name; None when it has none
        (array mode, pgvector before 0.8, a small profile, over 2,000 dimensions).

        Searches ask for it in the background anyway; this is for operations,
        benchmarks and tests. It may take minutes on a large profile, and waits for
        transactions older than itself: never call it inside one of this store's scopes.
        """
        with self._connection() as conn:
            row = conn.execute(
                "SELECT embedding_dim FROM profiles WHERE id = %s", (profile_id,)
            ).fetchone()
        if row is None:
            raise ProfileNotFoundError(profile_id)
        if self._hnsw is None or row[0] is None:
            return None
        try:
            return self._hnsw.ensure(profile_id, int(row[0]), force=force)
        except psycopg.Error as exc:
            raise translate(exc) from exc

    def _counted_search(self, path: str) -> None:
        with self._searches_lock:
            self.vector_searches[path] += 1

    @contextmanager
    def _connection(self) -> Iterator[Connection[Any]]:
        """A pooled connection in autocommit mode; a database failure becomes a Somna error."""
        try:
            with self._pool.connection() as conn:
                yield conn
        except psycopg.Error as exc:
            raise translate(exc) from exc

    # -- profiles ---------------------------------------------------------------------

    def create_profile(self, profile: Profile) -> Profile:
        wanted = profile.settings.get("text_config", self.text_config)
        with self._connection() as conn:
            config = canonical_text_config(conn, wanted) if isinstance(wanted, str) else None
            if config is None:
                available = [row[0] for row in conn.execute("SELECT cfgname FROM pg_ts_config")]
                raise InvalidInputError(
                    f"Profile {profile.id!r} asks for the text search configuration {wanted!r}, "
                    f"which {self._location} does not have; use one of: "
                    f"{', '.join(sorted(available))}."
                )
            created = conn.execute(
                "INSERT INTO profiles (id, name, settings, created_at, text_config) "
                "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING RETURNING id",
                (profile.id, profile.name, jsonb(profile.settings), profile.created_at, config),
            ).fetchone()
        if created is None:
            raise ConflictStateError(f"A profile named {profile.id!r} already exists.")
        return profile

    def erase_profile(self, profile_id: str) -> dict[str, int]:
        with self.write(profile_id) as scope:
            cursor = scope.cursor
            counts = erasure.erase(cursor, profile_id)
            dim = scope.embedding_dim
            indexed = (
                self._hnsw is not None
                and dim is not None
                and cursor.execute(
                    "SELECT to_regclass(%s) IS NOT NULL AS found", (index_name(profile_id, dim),)
                ).fetchone()
                == {"found": True}
            )
        if indexed and self._hnsw is not None and dim is not None:
            # Outside the transaction, as it was built: DROP INDEX CONCURRENTLY.
            self._hnsw.request(("drop", profile_id, dim))
        self._cache.forget(profile_id)
        with self._connection() as conn:
            erasure.vacuum(conn, [table for table, count in counts.items() if count])
        return counts

    # -- runs (not scoped: they span profiles) ----------------------------------------

    def save_run(self, run: Run) -> None:
        with self._connection() as conn:
            runs.save_run(conn, run)

    def list_runs(self, limit: int = 20) -> list[Run]:
        with self._connection() as conn:
            return runs.list_runs(conn, limit)

    # -- the tables that span profiles ---------------------------------------------------

    def _rows(self, sql: str, params: Params | None = None) -> list[Any]:
        with self._connection() as conn:
            cursor = conn.cursor(row_factory=dict_row).execute(named(sql), bind(params or {}))
            return cursor.fetchall() if cursor.description else []

    def _json(self, value: Any) -> Any:
        return value  # psycopg reads jsonb as Python data

    # -- embedder -----------------------------------------------------------------------

    def embedders(self) -> PostgresLedger:
        return PostgresLedger(self._connection, self._forget_vectors)

    def _forget_vectors(self, profile_ids: list[str]) -> None:
        for profile_id in profile_ids:
            self._cache.forget(profile_id)

    # -- scopes -----------------------------------------------------------------------

    @contextmanager
    def read(self, profile_id: str) -> Iterator[PostgresScope]:
        with self._transaction(profile_id, write=False) as scope:
            yield scope

    @contextmanager
    def write(self, profile_id: str) -> Iterator[PostgresScope]:
        with self._transaction(profile_id, write=True) as scope:
            yield scope

    @contextmanager
    def _transaction(self, profile_id: str, *, write: bool) -> Iterator[PostgresScope]:
        with self._connection() as conn:
            cursor = conn.cursor(row_factory=dict_row)
            try:
                cursor.execute(_BEGIN_WRITE if write else _BEGIN_READ)
                # The write lock of the profile: writers of one profile take turns.
                lock = " FOR NO KEY UPDATE" if write else ""
                # Whether the profile's HNSW index is there and valid, in the same round trip.
                hnsw = (
                    "(SELECT i.indisvalid FROM pg_index i WHERE i.indexrelid = "
                    "to_regclass(%s::text || embedding_dim::text))"
                    if self._hnsw_searches
                    else "NULL::boolean"
                )
                params = (index_prefix(profile_id), profile_id)
                row = cursor.execute(
                    "SELECT facts_rev, summaries_rev, text_config, embedding_dim, "
                    f"{hnsw} AS hnsw FROM profiles WHERE id = %s{lock}",
                    params if self._hnsw_searches else params[1:],
                ).fetchone()
                if row is None:
                    raise ProfileNotFoundError(profile_id)
                scope = PostgresScope(
                    self,
                    cursor,
                    profile_id,
                    revision=row["facts_rev"],
                    summaries_rev=row["summaries_rev"],
                    text_config=row["text_config"],
                    embedding_dim=row["embedding_dim"],
                    hnsw=bool(row["hnsw"]),
                )
                yield scope
                cursor.execute("COMMIT")
            except BaseException as exc:
                if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    with suppress(psycopg.Error):  # a broken connection: the pool drops it
                        conn.execute("ROLLBACK")
                if isinstance(exc, psycopg.Error):
                    raise translate(exc, written=write) from exc
                raise
        changed = scope.changed_revisions
        if changed is not None:
            self._cache.patch(profile_id, *changed, scope.patches)
