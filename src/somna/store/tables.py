"""What a store keeps outside any profile's scope, read and written alike by both backends:
profiles as a list, API keys, the cursors of imported sources, the tombstones of erased
profiles, and dashboard logouts.

Each statement runs on its own (`_rows`), with `:name` parameters; creating a profile,
erasing one and the scopes differ between the backends, so each keeps those.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime
from typing import Any

from somna.errors import ProfileNotFoundError
from somna.model import ApiKey, Profile
from somna.store.base import SourceCursor
from somna.store.columns import Row, instant
from somna.store.keys import SAVE_KEY, key_values
from somna.store.logouts import END_LOGIN, FORGET_OLD_LOGOUTS, LOGIN_ENDED
from somna.store.sessions import SOURCE_CURSORS
from somna.store.sql import Json, Params

__all__ = ["StoreTables"]

_PROFILE = "SELECT id, name, settings, created_at FROM profiles"


class StoreTables(ABC):
    """Mixed into a backend's store: the tables that span profiles."""

    @abstractmethod
    def _rows(self, sql: str, params: Params | None = None) -> list[Row]:
        """The rows of one statement, read by name (none for a write), run on its own."""

    @abstractmethod
    def _json(self, value: Any) -> Any:
        """A JSON column's value as read, as Python data."""

    # -- profiles -------------------------------------------------------------------------

    def get_profile(self, profile_id: str) -> Profile | None:
        rows = self._rows(f"{_PROFILE} WHERE id = :id", {"id": profile_id})
        return self._profile(rows[0]) if rows else None

    def list_profiles(self) -> list[Profile]:
        return [self._profile(row) for row in self._rows(f"{_PROFILE} ORDER BY id")]

    def save_profile_settings(self, profile_id: str, settings: dict[str, Any]) -> None:
        if not self._rows(
            "UPDATE profiles SET settings = :settings WHERE id = :id RETURNING id",
            {"settings": Json(settings), "id": profile_id},
        ):
            raise ProfileNotFoundError(profile_id)

    def _profile(self, row: Row) -> Profile:
        return Profile(
            id=row["id"],
            name=row["name"],
            settings=self._json(row["settings"]),
            created_at=row["created_at"],
        )

    # -- API keys -------------------------------------------------------------------------

    def save_key(self, key: ApiKey) -> None:
        self._rows(SAVE_KEY, key_values(key))

    def find_key(self, secret_hash: str) -> ApiKey | None:
        rows = self._rows("SELECT * FROM api_keys WHERE secret_hash = :hash", {"hash": secret_hash})
        return self._key(rows[0]) if rows else None

    def list_keys(self) -> list[ApiKey]:
        return [
            self._key(row) for row in self._rows("SELECT * FROM api_keys ORDER BY created_at, id")
        ]

    def _key(self, row: Row) -> ApiKey:
        data = dict(row)
        return ApiKey.model_validate(
            {**data, "profiles": self._json(data["profiles"]), "admin": bool(data["admin"])}
        )

    # -- sources and erasure --------------------------------------------------------------

    def source_cursors(self, source: str) -> list[SourceCursor]:
        return [_cursor(row) for row in self._rows(SOURCE_CURSORS, {"source": source})]

    def add_tombstone(self, profile_hash: str, at: datetime) -> None:
        self._rows(
            "INSERT INTO tombstones (profile_hash, forgotten_at) VALUES (:hash, :at) "
            "ON CONFLICT (profile_hash) DO UPDATE SET forgotten_at = excluded.forgotten_at",
            {"hash": profile_hash, "at": at},
        )

    def tombstones(self) -> set[str]:
        return {
            str(row["profile_hash"]) for row in self._rows("SELECT profile_hash FROM tombstones")
        }

    def remove_tombstone(self, profile_hash: str) -> None:
        self._rows("DELETE FROM tombstones WHERE profile_hash = :hash", {"hash": profile_hash})

    # -- dashboard logouts ----------------------------------------------------------------

    def end_login(self, login_hash: str, until: datetime, now: datetime) -> None:
        self._rows(FORGET_OLD_LOGOUTS, {"now": now})
        self._rows(END_LOGIN, {"login_hash": login_hash, "until": until})

    def login_ended(self, login_hash: str) -> bool:
        return bool(self._rows(LOGIN_ENDED, {"login_hash": login_hash}))


def _cursor(row: Row) -> SourceCursor:
    purged = row["purged_at"]
    return SourceCursor(
        source=row["source"],
        key=row["key"],
        segment=row["segment"],
        profile_id=row["profile_id"],
        session_key=row["session_key"],
        after_row_id=row["after_row_id"],
        last_row_id=row["last_row_id"],
        last_change_seen_at=instant(row["last_change_seen_at"]),
        purged_at=None if purged is None else instant(purged),
    )
