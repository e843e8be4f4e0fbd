"""The chat table on its Postgres server, read in READ ONLY transactions."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from somna.errors import ConfigurationError, InvalidInputError, StoreError
from somna.sources.n8n.messages import NotJson, SourceRow

if TYPE_CHECKING:
    import psycopg

__all__ = ["DEFAULT_TABLE", "N8nTable"]

DEFAULT_TABLE = "n8n_chat_histories"
"""The table n8n's Postgres chat memory creates unless told otherwise."""
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_$]*$")
_CONNECT_TIMEOUT_S = 10


class N8nTable:
    """A chat table on a Postgres server, read in READ ONLY transactions.

    Nothing is ever written to it except by `delete_rows`, which only the purge
    calls. `name` identifies it among Somna's cursors:
    `n8n:<database>/<schema>.<table>`.

    >>> with N8nTable("postgresql://n8n@db/n8n") as table:  # doctest: +SKIP
    ...     table.name
    'n8n:n8n/public.n8n_chat_histories'
    """

    def __init__(self, dsn: str, table: str = DEFAULT_TABLE) -> None:
        try:
            import psycopg
            from psycopg.conninfo import conninfo_to_dict
        except ImportError as exc:
            raise ConfigurationError(
                "Reading an n8n table needs the Postgres driver; install it with: "
                "pip install 'somna[postgres]'."
            ) from exc
        parts = [p.strip() for p in table.split(".")]
        if len(parts) > 2 or not all(_NAME.match(p) for p in parts):
            raise InvalidInputError(
                f"{table!r} is not a table name; use NAME or SCHEMA.NAME, such as "
                f"{DEFAULT_TABLE} or public.{DEFAULT_TABLE}."
            )
        try:
            options = conninfo_to_dict(dsn)
        except psycopg.ProgrammingError as exc:
            raise InvalidInputError(
                f"The source DSN is not a valid Postgres URL or connection string: {exc}."
            ) from None
        self.where = _location(options)
        extra: dict[str, Any] = {"autocommit": True}
        if "connect_timeout" not in options:
            extra["connect_timeout"] = _CONNECT_TIMEOUT_S
        try:
            self._conn: psycopg.Connection[Any] = psycopg.connect(dsn, **extra)
        except psycopg.Error as exc:
            raise StoreError(
                f"Cannot connect to the source database {self.where}: {_why(exc)}."
            ) from exc
        self._conn.read_only = True
        try:
            self.name, self._table = self._resolve(parts)
        except BaseException:
            self._conn.close()
            raise

    def __enter__(self) -> N8nTable:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._conn.close()

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[Any]]:
        import psycopg

        try:
            with self._conn.transaction():
                yield self._conn
        except psycopg.Error as exc:
            raise StoreError(f"The source database {self.where} failed: {_why(exc)}.") from exc

    def _resolve(self, parts: list[str]) -> tuple[str, Any]:
        from psycopg import sql

        found = "to_regclass(quote_ident(%s))"
        if len(parts) == 2:
            found = "to_regclass(quote_ident(%s) || '.' || quote_ident(%s))"
        with self._transaction() as conn:
            row = conn.execute(
                "SELECT n.nspname, c.relname, current_database(), "
                "array(SELECT a.attname || ':' || format_type(a.atttypid, a.atttypmod) "
                "FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 "
                "AND NOT a.attisdropped) FROM pg_class c "
                f"JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = {found}",
                parts,
            ).fetchone()
        if row is None:
            raise InvalidInputError(
                f"There is no table {'.'.join(parts)!r} in {self.where}; pass --table with "
                f"the name of the n8n chat memory's table (by default {DEFAULT_TABLE})."
            )
        schema, name, database, columns = row
        types = dict(column.split(":", 1) for column in columns)
        # n8n's column is jsonb, which the driver decodes; a text column is decoded here.
        self._decode = types.get("message", "").startswith(("text", "character"))
        missing = [c for c in ("id", "session_id", "message") if c not in types]
        if missing or types["id"] not in ("integer", "bigint", "smallint"):
            raise InvalidInputError(
                f"{schema}.{name} in {self.where} is not an n8n chat memory table: it needs an "
                f"integer id, a session_id and a message column (missing: "
                f"{', '.join(missing) or 'an integer id'})."
            )
        return f"n8n:{database}/{schema}.{name}", sql.Identifier(schema, name)

    def read(self, watermarks: Mapping[str, int], *, above: int, limit: int) -> list[SourceRow]:
        """Up to `limit` rows with an id above `above` and above their session's watermark,
        oldest first; rows without a session id are left out. The session id is read as
        text, whatever its column's type (LangChain's Python table makes it a uuid)."""
        from psycopg import sql

        query = sql.SQL(
            "SELECT t.id, t.session_id::text, t.message FROM {table} t "
            "LEFT JOIN unnest(%(keys)s::text[], %(lasts)s::bigint[]) AS w(key, last_id) "
            "ON w.key = t.session_id::text WHERE t.id > %(above)s "
            "AND t.id > coalesce(w.last_id, 0) AND t.session_id::text <> '' "
            "ORDER BY t.id LIMIT %(limit)s"
        ).format(table=self._table)
        keys = list(watermarks)
        params = {
            "keys": keys,
            "lasts": [watermarks[k] for k in keys],
            "above": above,
            "limit": limit,
        }
        with self._transaction() as conn:
            rows = conn.execute(query, params).fetchall()
        return [SourceRow(int(i), str(s), self._decoded(m)) for i, s, m in rows]

    def _decoded(self, message: Any) -> Any:
        if not (self._decode and isinstance(message, str)):
            return message
        try:
            return json.loads(message)
        except ValueError:
            return NotJson(message)

    def delete_rows(self, session_id: str, after_row_id: int, last_row_id: int) -> int:
        """Delete one session's rows `after_row_id < id <= last_row_id`, in one transaction."""
        from psycopg import sql

        query = sql.SQL(
            "DELETE FROM {table} WHERE session_id::text = %s AND id > %s AND id <= %s"
        ).format(table=self._table)
        self._conn.read_only = False
        try:
            with self._transaction() as conn:
                return conn.execute(query, (session_id, after_row_id, last_row_id)).rowcount
        finally:
            self._conn.read_only = True


def _location(options: Mapping[str, Any]) -> str:
    """Where a DSN points, without its password, for messages."""
    user = f"{options['user']}@" if options.get("user") else ""
    host = str(options.get("host") or "localhost")
    port = f":{options['port']}" if options.get("port") else ""
    return f"postgresql://{user}{host}{port}/{options.get('dbname') or ''}"


def _why(exc: Exception) -> str:
    return " ".join(str(exc).split()).rstrip(".") or type(exc).__name__
