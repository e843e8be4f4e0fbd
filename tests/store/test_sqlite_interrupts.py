"""A Ctrl-C that lands inside a SQLite transaction, even just after its BEGIN or its COMMIT
took effect, reaches the caller as the interrupt it is, with no transaction left open."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from somna.model import Profile, Run
from somna.store.sqlite import SQLiteStore

T0 = datetime(2026, 12, 4, 9, 0, tzinfo=UTC)


class _InterruptedAfter:
    """The store's connection, raising `KeyboardInterrupt` just after `statement` took
    effect, as a signal handled right then would."""

    def __init__(self, conn: sqlite3.Connection, statement: str) -> None:
        self._conn = conn
        self._statement = statement

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        cursor = self._conn.execute(sql, *args)
        if sql == self._statement:
            raise KeyboardInterrupt
        return cursor

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


@pytest.mark.parametrize("statement", ["BEGIN IMMEDIATE", "COMMIT"])
def test_an_interrupt_right_after_begin_or_commit_is_raised_as_itself(
    tmp_path: Path, statement: str
) -> None:
    store = SQLiteStore(str(tmp_path / "somna.db"))
    store.create_profile(Profile(id="alice"))
    conn = store._conn
    store._conn = _InterruptedAfter(conn, statement)  # type: ignore[assignment]
    with pytest.raises(KeyboardInterrupt):
        store.save_run(Run(started_at=T0))
    with pytest.raises(KeyboardInterrupt), store.write("alice"):
        pass
    store._conn = conn
    assert not conn.in_transaction
    with store.write("alice"):  # the next transaction starts as usual
        pass
    store.close()
