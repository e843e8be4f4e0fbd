"""Persistence: the `Store` port and its adapters.

`open_store(url)` picks the adapter from the URL: a file path (or
`sqlite:///path`) opens the embedded SQLite store; a Postgres URL or libpq's
keyword/value form opens a Postgres one.
"""

from __future__ import annotations

from somna.config import names_server
from somna.errors import ConfigurationError
from somna.store import base
from somna.store.base import *  # noqa: F403 (its __all__, listed once there)
from somna.store.base import Store

__all__ = sorted([*base.__all__, "open_store"])


def open_store(url: str) -> Store:
    """The store that `url` names: `./somna.db`, `sqlite:///path/to.db`, `:memory:`,
    `postgresql://user@host/db` or `host=… dbname=…`."""
    if names_server(url):
        try:
            from somna.store.postgres import PostgresStore
        except ImportError as exc:
            raise ConfigurationError(
                "SOMNA_DB names a Postgres server and the Postgres driver is not installed "
                f"({exc.name or exc}); install it with `make run EXTRAS=postgres` in a clone set "
                "up by make, or with: pip install 'somna[postgres]'."
            ) from exc
        return PostgresStore(url)
    path = url.removeprefix("sqlite:///").removeprefix("sqlite://")
    from somna.store.sqlite import SQLiteStore

    return SQLiteStore(path or "somna.db")
