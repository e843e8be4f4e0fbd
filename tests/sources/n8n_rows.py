"""An n8n chat memory table on the test Postgres, with realistic and malformed rows.

The table is n8n's own (`id serial, session_id varchar, message jsonb`; the
message nullable, as LangChain's table lets it be), in a fresh place of a test
server (tests/store/pg_servers.py): a schema of the machine's PostgreSQL 15
("array"), or a database of the pgserver PostgreSQL ("pgvector").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from tests.store.pg_servers import ServerKind, TestServers

__all__ = ["MALFORMED", "N8nChat"]

MALFORMED: list[tuple[str, str | None]] = [
    ("'\"just a string\"'::jsonb", "not a JSON object"),
    ("'[1, 2]'::jsonb", "not a JSON object"),
    ("'null'::jsonb", "null"),
    ("NULL", "null"),
    ('\'{"type": "human"}\'::jsonb', "no content"),
    ('\'{"type": "ai", "data": {"content": "   "}}\'::jsonb', "no content"),
    ('\'{"type": "robot", "content": "beep"}\'::jsonb', "unknown type"),
    ('\'{"content": "who said this?"}\'::jsonb', "no type"),
]
"""Raw SQL values of malformed `message`s, with the reason the import gives for each."""


class N8nChat:
    """The chat table of one test: add rows as n8n writes them, read the table back."""

    def __init__(
        self,
        servers: TestServers,
        folder: Path,
        table: str = "n8n_chat_histories",
        kind: ServerKind = "array",
    ) -> None:
        self.dsn = servers.database(kind, folder)
        self.table = table
        with self._connect() as conn:
            conn.execute(
                f"CREATE TABLE {table} (id SERIAL PRIMARY KEY, "
                "session_id VARCHAR(255) NOT NULL, message JSONB)"
            )

    def _connect(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.dsn, autocommit=True)

    def say(self, session_id: str, *turns: tuple[str, str], shape: str = "n8n") -> list[int]:
        """Append turns ("human" | "ai", text) as n8n does, or in LangChain's `data` shape."""
        ids = []
        with self._connect() as conn:
            for kind, text in turns:
                if shape == "n8n":
                    message = {
                        "type": kind,
                        "content": text,
                        "additional_kwargs": {},
                        "response_metadata": {},
                    }
                else:
                    message = {"type": kind, "data": {"content": text, "type": kind}}
                row = conn.execute(
                    f"INSERT INTO {self.table} (session_id, message) VALUES (%s, %s) RETURNING id",
                    (session_id, Jsonb(message)),
                ).fetchone()
                assert row is not None
                ids.append(int(row[0]))
        return ids

    def insert(self, session_id: str, message: object) -> None:
        """Append one row whose message is `message` as it is, such as a recorded one."""
        with self._connect() as conn:
            conn.execute(
                f"INSERT INTO {self.table} (session_id, message) VALUES (%s, %s)",
                (session_id, Jsonb(message)),
            )

    def raw(self, session_id: str, value_sql: str) -> int:
        """Append one row whose message is the SQL expression `value_sql` (malformed ones)."""
        with self._connect() as conn:
            row = conn.execute(
                f"INSERT INTO {self.table} (session_id, message) VALUES (%s, {value_sql}) "
                "RETURNING id",
                (session_id,),
            ).fetchone()
        assert row is not None
        return int(row[0])

    def rows(self) -> list[tuple[int, str, Any]]:
        """Every row, by id: to compare the table before and after."""
        with self._connect() as conn:
            found = conn.execute(
                f"SELECT id, session_id, message FROM {self.table} ORDER BY id"
            ).fetchall()
        return [(int(i), str(s), m) for i, s, m in found]

    def ids(self, session_id: str) -> list[int]:
        return [i for i, s, _ in self.rows() if s == session_id]
