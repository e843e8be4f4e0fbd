"""A dashboard logout is a row every server process reads, kept until its login expires."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from somna.store import Store

NOW = datetime(2026, 12, 4, 9, 0, tzinfo=UTC)


def test_a_logout_is_remembered_until_its_login_would_have_expired(store: Store) -> None:
    assert not store.login_ended("a" * 64)
    store.end_login("a" * 64, NOW + timedelta(days=14), NOW)
    store.end_login("a" * 64, NOW + timedelta(days=14), NOW)  # logged out twice: one row
    store.end_login("b" * 64, NOW + timedelta(hours=1), NOW)
    assert store.login_ended("a" * 64) and store.login_ended("b" * 64)
    assert not store.login_ended("c" * 64)
    later = NOW + timedelta(days=1)  # b's login has expired: its cookie is refused anyway
    store.end_login("c" * 64, later + timedelta(days=14), later)
    assert [store.login_ended(h * 64) for h in "abc"] == [True, False, True]
