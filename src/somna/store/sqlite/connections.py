"""The connections of one SQLite store: one to write, behind a lock, and a pool to read.

In WAL mode SQLite lets readers run beside the writer and beside each other, each
on its own connection and snapshot. With one connection shared by every thread,
each read would wait for whatever transaction another thread holds (the nightly
job's writes, a recall's reinforcement). So a read takes a connection of its own
from a pool (opened on demand, then kept), which refuses writes (`query_only`),
and only writes queue for the one write connection. A thread inside a write
reads through the write connection, to see what it has written; an in-memory
database keeps one connection for everything, since a second would open another,
empty database.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["Connections", "connect"]

PRAGMAS = (
    "journal_mode = WAL",
    "foreign_keys = ON",
    "synchronous = NORMAL",
    "busy_timeout = 30000",
    "secure_delete = ON",  # erased text is overwritten, not left in free pages
)
"""Set on the write connection, first of all (a file that is not SQLite fails there)."""
_READER_PRAGMAS = ("busy_timeout = 30000", "query_only = ON")


def connect(path: str) -> sqlite3.Connection:
    """A connection in autocommit mode (scopes BEGIN and COMMIT themselves), rows by name,
    usable from any thread (one at a time)."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30.0)
    conn.row_factory = sqlite3.Row
    return conn


def in_memory(path: str) -> bool:
    return path in ("", ":memory:") or "mode=memory" in path


class _Depth(threading.local):
    writes = 0
    """How deep this thread is inside `Connections.writer()`."""


class Connections:
    """`writer()` and `reader()` connections to one database, opened from `path`."""

    def __init__(self, path: str, writer: sqlite3.Connection) -> None:
        self.path = path
        self.lock = threading.RLock()
        """Held while the write connection is in use; reentrant for nested calls."""
        self._writer = writer
        self._shared = in_memory(path)
        self._idle: list[sqlite3.Connection] = []
        self._opened: list[sqlite3.Connection] = []
        self._pool_lock = threading.Lock()
        self._depth = _Depth()

    @contextmanager
    def writer(self) -> Iterator[sqlite3.Connection]:
        with self.lock:
            self._depth.writes += 1
            try:
                yield self._writer
            finally:
                self._depth.writes -= 1

    @contextmanager
    def reader(self) -> Iterator[sqlite3.Connection]:
        if self._shared or self._depth.writes:
            with self.writer() as conn:
                yield conn
            return
        conn = self._take()
        try:
            yield conn
        finally:
            if conn.in_transaction:  # a read left open by an error
                conn.rollback()
            with self._pool_lock:
                self._idle.append(conn)

    def _take(self) -> sqlite3.Connection:
        with self._pool_lock:
            if self._idle:
                return self._idle.pop()
        conn = connect(self.path)
        for pragma in _READER_PRAGMAS:
            conn.execute(f"PRAGMA {pragma}")
        with self._pool_lock:
            self._opened.append(conn)
        return conn

    def close(self) -> None:
        with self.lock, self._pool_lock:
            for conn in self._opened:
                conn.close()
            self._opened.clear()
            self._idle.clear()
            self._writer.close()
