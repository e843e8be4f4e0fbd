"""Ending a SQLite transaction that an exception cut short, a signal's included."""

from __future__ import annotations

import sqlite3

__all__ = ["roll_back"]


def roll_back(conn: sqlite3.Connection) -> None:
    """ROLLBACK, when a transaction is open.

    A Ctrl-C (`KeyboardInterrupt`) is raised wherever Python is when the signal
    is handled: it may be just after COMMIT took effect, with nothing left to roll
    back, and a plain ROLLBACK would then fail and hide the interrupt behind a
    traceback.
    """
    if conn.in_transaction:
        conn.execute("ROLLBACK")
