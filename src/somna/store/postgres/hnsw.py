"""HNSW indexes of large profiles, in pgvector mode.

Below `threshold` indexable facts a profile is searched exactly (every eligible
fact scored in SQL: 0.5 to 1 ms per 1,000 facts). Above it, its facts get an HNSW
index of their own, a partial expression index:

    CREATE INDEX CONCURRENTLY facts_hnsw_<sha1(profile)>_<dim> ON facts
        USING hnsw ((embedding::vector(<dim>)) vector_ip_ops)
        WHERE profile_id = '<profile>' AND vector_dims(embedding) = <dim>
          AND status IN ('superseded', 'unverified', 'verified')

* Per profile, not per dimension: the graph holds only the profile's facts, so
  the profile filter, usually the most selective one, never starves a scan; small
  profiles (most of them) keep their writes free of HNSW maintenance; and each
  profile has one dimension (`profiles.embedding_dim`), which HNSW needs fixed.
  The cost is one index per large profile, each of which the planner considers
  on every query of `facts`: at the default threshold that is one per 20,000 facts.
* The dimension is in the predicate as well as the cast, so a stale index (a
  profile erased and made again with another embedder) can never fail a write.
* Retired, expired and disputed facts are outside the predicate: a search never
  returns them, so they never waste the scan. What remains to filter (superseded
  facts in a present-tense search, valid time) is left to pgvector 0.8's
  iterative index scans, bounded by `hnsw.max_scan_tuples`; a scan that still
  comes back short is redone exactly, so a search is never starved.

The index is built lazily: the first search that finds a profile over the
threshold asks this module's thread to build it. CREATE INDEX CONCURRENTLY cannot
run inside a transaction (so not in a migration, which also runs before any
profile has facts), takes minutes on a large profile, and waits for older
transactions to end, so it runs on a connection of its own, outside the pool,
while searches stay exact until the index is valid. A session advisory lock keeps
two processes from building one index; an interrupted build leaves an invalid
index, which the next build drops first. `PostgresStore.ensure_vector_index`
builds one synchronously (operations, benchmarks, tests).
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any, Literal

import psycopg
from psycopg import Connection, sql

from somna.store.vectors import INDEXED_STATUSES

__all__ = ["MAX_HNSW_DIM", "HnswIndexes", "index_name", "index_prefix"]

log = logging.getLogger(__name__)

MAX_HNSW_DIM = 2000
"""pgvector's limit on the dimension of an HNSW index of `vector`."""
_INDEXED = sorted(s.value for s in INDEXED_STATUSES)
_INDEXED_SQL = ", ".join(f"'{status}'" for status in _INDEXED)  # enum values: plain words
_M = 16  # pgvector's defaults: graph degree and build-time candidate list
_EF_CONSTRUCTION = 64
_MAX_SCAN_TUPLES = 20_000  # how far an iterative scan may go before the exact rerun
_RECOUNT_S = 10.0  # a process recounts a profile's facts at most this often
_COUNTS_KEPT = 10_000  # profiles whose last count a process remembers
_RETRY_S = 600.0  # after a failed build
_BUILD_MEMORY_CAP = 1 << 30  # maintenance_work_mem is raised for a build, up to 1 GiB
_LOCK_CLASS = 0x736F6D6E  # "somn": the advisory lock space of index builds

Task = tuple[Literal["build", "drop"], str, int]


def index_prefix(profile_id: str) -> str:
    """The name of a profile's HNSW index without its dimension (ends with `_`)."""
    return f"facts_hnsw_{hashlib.sha1(profile_id.encode()).hexdigest()[:24]}_"


def index_name(profile_id: str, dim: int) -> str:
    return f"{index_prefix(profile_id)}{int(dim)}"


def search_sql(dim: int, eligibility: str) -> str:
    """The HNSW search of a profile: approximate candidates, then ranked exactly.

    The inner query repeats the index's expression and predicate, so the planner
    can use it (the profile id is a parameter: the scope forces custom plans). In
    relaxed order an iterative scan may return rows slightly out of order; the outer
    ORDER BY puts them back by their exact distance.
    """
    dim = int(dim)
    expression = f"f.embedding::vector({dim}) <#> %(vector)s"
    return (
        "SELECT c.id, -c.distance AS score FROM ("
        f"SELECT f.id, {expression} AS distance FROM facts f "
        f"WHERE f.profile_id = %(profile)s AND vector_dims(f.embedding) = {dim} "
        f"AND f.status IN ({_INDEXED_SQL}) AND {eligibility} "
        f"ORDER BY {expression} LIMIT %(limit)s) c ORDER BY c.distance, c.id"
    )


def search_settings(ef_search: int, limit: int) -> tuple[str, dict[str, Any]]:
    """The transaction-local settings of an HNSW search, as one statement."""
    return (
        "SELECT set_config('hnsw.ef_search', %(ef)s, true), "
        "set_config('hnsw.iterative_scan', 'relaxed_order', true), "
        "set_config('hnsw.max_scan_tuples', %(max_scan)s, true), "
        "set_config('plan_cache_mode', 'force_custom_plan', true)",
        {"ef": str(min(1000, max(ef_search, limit))), "max_scan": str(_MAX_SCAN_TUPLES)},
    )


def count_sql() -> str:
    """Counts a profile's indexable facts, stopping at `%(stop)s`."""
    return (
        "SELECT count(*) AS n FROM (SELECT 1 FROM facts WHERE profile_id = %(profile)s "
        f"AND status IN ({_INDEXED_SQL}) LIMIT %(stop)s) c"
    )


class HnswIndexes:
    """Builds and drops profiles' HNSW indexes, on a thread and connection of their own."""

    def __init__(
        self,
        conninfo: str,
        connect_kwargs: dict[str, Any],
        *,
        threshold: int | None,
        ef_search: int,
    ) -> None:
        self.threshold = threshold
        self.ef_search = ef_search
        self._conninfo = conninfo
        self._kwargs = {**connect_kwargs, "autocommit": True}
        self._lock = threading.Condition()
        self._tasks: deque[Task] = deque()
        self._busy = False
        self._closed = False
        self._thread: threading.Thread | None = None
        self._working: Connection[Any] | None = None
        self._counted: dict[str, tuple[int, float]] = {}  # profile: (facts_rev, when)
        self._failed: dict[tuple[str, int], float] = {}  # (profile, dim): when

    # -- what searches ask --------------------------------------------------------------

    def should_count(self, profile_id: str, revision: int, dim: int) -> bool:
        """Whether an exact search should count the profile's facts (rarely: see below).

        Once per process, then again only when its facts changed and `_RECOUNT_S`
        passed; never while a build is queued or after one failed recently.
        """
        if dim > MAX_HNSW_DIM:
            return False
        now = time.monotonic()
        with self._lock:
            failed = self._failed.get((profile_id, dim))
            if failed is not None and now - failed < _RETRY_S:
                return False
            if ("build", profile_id, dim) in self._tasks:
                return False
            last = self._counted.get(profile_id)
            return last is None or (last[0] != revision and now - last[1] >= _RECOUNT_S)

    def counted(self, profile_id: str, revision: int, dim: int, count: int) -> None:
        """Records a count; a profile over the threshold gets its index built."""
        with self._lock:
            self._counted.pop(profile_id, None)
            self._counted[profile_id] = (revision, time.monotonic())
            if len(self._counted) > _COUNTS_KEPT:
                del self._counted[next(iter(self._counted))]  # the longest uncounted
        if self.threshold is not None and count > self.threshold:
            self.request(("build", profile_id, dim))

    def request(self, task: Task) -> None:
        with self._lock:
            if self._closed or task in self._tasks:
                return
            self._tasks.append(task)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="somna-hnsw-builds", daemon=True
                )
                self._thread.start()
            self._lock.notify_all()

    def wait(self, timeout: float | None = None) -> bool:
        """Waits until no build or drop is queued or running; False on timeout."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._tasks and not self._busy, timeout)

    def close(self) -> None:
        """Stops the thread; a build under way is cancelled (and redone another time)."""
        with self._lock:
            self._closed = True
            self._tasks.clear()
            working, thread = self._working, self._thread
            self._lock.notify_all()
        if working is not None:
            with suppress(psycopg.Error):
                working.cancel_safe(timeout=5)
        if thread is not None:
            thread.join(timeout=30)

    # -- the work -----------------------------------------------------------------------

    def ensure(self, profile_id: str, dim: int, *, force: bool = False) -> str | None:
        """Builds the profile's index now, if it has more facts than the threshold (or
        `force`); the index's name once valid, None when it has none. Call it outside
        any scope: a concurrent build waits for older transactions to end."""
        if dim > MAX_HNSW_DIM:
            return None
        with psycopg.connect(self._conninfo, **self._kwargs) as conn:
            with self._lock:
                if self._closed:
                    return None
            return self._build(conn, profile_id, dim, force=force)

    def _run(self) -> None:
        while True:
            with self._lock:
                self._busy = False
                self._lock.notify_all()
                self._lock.wait_for(lambda: self._closed or bool(self._tasks))
                if self._closed:
                    return
                task = self._tasks[0]
                self._busy = True
            action, profile_id, dim = task
            try:
                with psycopg.connect(self._conninfo, **self._kwargs) as conn:
                    with self._lock:
                        self._working = conn
                    if action == "build" and self._build(conn, profile_id, dim):
                        with self._lock:
                            self._failed.pop((profile_id, dim), None)
                    elif action == "drop":
                        self._drop(conn, profile_id, dim)
            except Exception as exc:  # a failed build costs speed, never correctness
                with self._lock:
                    closing = self._closed
                    self._failed[(profile_id, dim)] = time.monotonic()
                if not closing:
                    log.warning(
                        "Could not %s the HNSW index of profile %r (%s); its searches stay "
                        "exact, and the build is retried in %d minutes.",
                        action, profile_id, exc, _RETRY_S // 60,
                    )  # fmt: skip
            finally:
                with self._lock:
                    self._working = None
                    if self._tasks and self._tasks[0] == task:
                        self._tasks.popleft()

    def _build(
        self, conn: Connection[Any], profile_id: str, dim: int, *, force: bool = False
    ) -> str | None:
        name = index_name(profile_id, dim)
        # An index build may wait on older transactions as long as it must.
        conn.execute("SET lock_timeout = 0")
        conn.execute("SET statement_timeout = 0")
        with _advisory_lock(conn, profile_id):
            state = _index_state(conn, name)
            if state == "valid":
                return name
            if state == "invalid":  # an interrupted build: CONCURRENTLY left it behind
                conn.execute(sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS {}").format(
                    sql.Identifier(name)
                ))  # fmt: skip
            stop = None if self.threshold is None else self.threshold + 1
            row = conn.execute(count_sql(), {"profile": profile_id, "stop": stop}).fetchone()
            count = int(row[0]) if row else 0
            if not force and (self.threshold is None or count <= self.threshold):
                return None
            _raise_build_memory(conn, count, dim)
            started = time.monotonic()
            conn.execute(_create_sql(profile_id, dim))
            if _index_state(conn, name) != "valid":
                return None
        log.info(
            "Built the HNSW index of profile %r (%d dimensions) in %.1f s.",
            profile_id, dim, time.monotonic() - started,
        )  # fmt: skip
        return name

    def _drop(self, conn: Connection[Any], profile_id: str, dim: int) -> None:
        name = index_name(profile_id, dim)
        with _advisory_lock(conn, profile_id):
            if _index_state(conn, name) is not None:
                conn.execute(
                    sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS {}").format(sql.Identifier(name))
                )


def _create_sql(profile_id: str, dim: int) -> sql.Composed:
    dim = int(dim)
    return sql.SQL(
        "CREATE INDEX CONCURRENTLY IF NOT EXISTS {name} ON facts USING hnsw "
        "((embedding::vector({dim})) vector_ip_ops) WITH (m = {m}, ef_construction = {ef}) "
        "WHERE profile_id = {profile} AND vector_dims(embedding) = {dim} "
        "AND status IN ({statuses})"
    ).format(
        name=sql.Identifier(index_name(profile_id, dim)),
        dim=sql.Literal(dim),
        m=sql.Literal(_M),
        ef=sql.Literal(_EF_CONSTRUCTION),
        profile=sql.Literal(profile_id),
        statuses=sql.SQL(", ").join(sql.Literal(s) for s in _INDEXED),
    )


def _index_state(conn: Connection[Any], name: str) -> Literal["valid", "invalid"] | None:
    row = conn.execute(
        "SELECT i.indisvalid FROM pg_index i WHERE i.indexrelid = to_regclass(%s)", (name,)
    ).fetchone()
    if row is None:
        return None
    return "valid" if row[0] else "invalid"


def _raise_build_memory(conn: Connection[Any], count: int, dim: int) -> None:
    """Gives the build the memory its graph needs (it slows down a lot past it)."""
    wanted = min(_BUILD_MEMORY_CAP, int(count * (dim * 4 + _M * 2 * 8 + 128) * 1.3))
    row = conn.execute(
        "SELECT setting::bigint * 1024 FROM pg_settings WHERE name = 'maintenance_work_mem'"
    ).fetchone()
    if row is not None and wanted > int(row[0]):
        conn.execute(
            sql.SQL("SET maintenance_work_mem = {}").format(
                sql.Literal(f"{wanted // (1 << 20) + 1}MB")
            )
        )


@contextmanager
def _advisory_lock(conn: Connection[Any], profile_id: str) -> Iterator[None]:
    """Holds the session lock of the profile's index builds (one process at a time)."""
    digest = hashlib.sha1(profile_id.encode()).digest()
    key = (_LOCK_CLASS, int.from_bytes(digest[:4], "big", signed=True))
    conn.execute("SELECT pg_advisory_lock(%s, %s)", key)
    try:
        yield
    finally:
        if not conn.closed:
            with suppress(psycopg.Error):  # a broken connection takes its locks with it
                conn.execute("SELECT pg_advisory_unlock(%s, %s)", key)
