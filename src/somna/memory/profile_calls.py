"""The profiles of `Memory`: create, read and tune them.

A profile is the isolation unit; its own settings (overrides of the global ones,
each change kept in a history) are checked by `somna.tuning`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from somna import tuning
from somna.config import Settings
from somna.errors import ProfileNotFoundError
from somna.memory.core import MemoryCore
from somna.memory.inputs import checked
from somna.model import Profile

__all__ = ["ProfileCalls"]


class ProfileCalls(MemoryCore):
    """Create, read and tune profiles: what every other part checks first."""

    def create_profile(
        self, profile: str, name: str | None = None, settings: Mapping[str, Any] | None = None
    ) -> Profile:
        """A new profile; `settings["overrides"]`, if given, is checked like `tune_profile`."""
        own = tuning.checked_profile_settings(self.settings, settings or {})
        created = checked(
            lambda: Profile(
                id=profile,
                name=name or profile,
                settings=own,
                created_at=self.now(),
            )
        )
        return self.store.create_profile(created)

    def get_profile(self, profile: str) -> Profile:
        found = self.store.get_profile(profile)
        if found is None:
            raise ProfileNotFoundError(profile)
        return found

    def list_profiles(self) -> list[Profile]:
        return self.store.list_profiles()

    def profile_settings(self, profile: str) -> Settings:
        """The settings in force for `profile`: the global ones with its own overrides on top."""
        return tuning.for_profile(self.settings, self.get_profile(profile))

    def tune_profile(
        self, profile: str, changes: Mapping[str, Any], *, actor: str = "user"
    ) -> Settings:
        """Override some settings for one profile (None restores the global value).

        Only `tuning.TUNABLE` may be overridden; each change is validated, then
        stored with the profile and recorded in its settings history.
        """
        found = self.get_profile(profile)
        stored = tuning.tuned(self.settings, found, changes, actor=actor, at=self.now())
        self.store.save_profile_settings(profile, stored)
        return tuning.for_profile(self.settings, found.model_copy(update={"settings": stored}))

    def settings_history(self, profile: str) -> list[dict[str, Any]]:
        """Every change of the profile's own settings, oldest first: at, actor, before, after."""
        events = self.get_profile(profile).settings.get(tuning.EVENTS) or []
        return [dict(event) for event in events]
