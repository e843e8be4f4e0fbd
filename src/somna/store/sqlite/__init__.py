"""The embedded default store: one SQLite file, WAL mode, FTS5, exact vector search."""

from somna.store.sqlite.store import SQLiteStore

__all__ = ["SQLiteStore"]
