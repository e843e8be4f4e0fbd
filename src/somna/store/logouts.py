"""How both backends remember a dashboard logout: the statements, one per step.

A login lives in a signed cookie that any server process can check; its logout
is a row every process reads, kept until the login would have expired anyway.
"""

from __future__ import annotations

__all__ = ["END_LOGIN", "FORGET_OLD_LOGOUTS", "LOGIN_ENDED"]

END_LOGIN = (
    "INSERT INTO logouts (login_hash, until) VALUES (:login_hash, :until) "
    "ON CONFLICT (login_hash) DO NOTHING"
)
FORGET_OLD_LOGOUTS = "DELETE FROM logouts WHERE until < :now"
"""Logouts of logins that have expired since: their cookies are refused anyway."""
LOGIN_ENDED = "SELECT 1 FROM logouts WHERE login_hash = :login_hash"
