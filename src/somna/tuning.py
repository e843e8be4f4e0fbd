"""Per-profile settings: the few global settings a profile may override, and their history.

A profile keeps its overrides in `Profile.settings["overrides"]` and every change
as an event in `Profile.settings["settings_events"]` (who, when, what moved), so
the values live with the profile they tune. `for_profile` gives the settings in
force for one profile: the global ones with that profile's overrides on top.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from somna.config import Settings
from somna.errors import InvalidInputError
from somna.model import Profile

__all__ = ["EVENTS", "OVERRIDES", "TUNABLE", "for_profile", "overrides_of", "tuned"]

TUNABLE = ("neighbor_floor", "judge_floor", "ttl_days", "idle_hours", "archive_days")
"""The settings a profile may override; the others stay global."""

OVERRIDES = "overrides"
EVENTS = "settings_events"


def overrides_of(profile: Profile) -> dict[str, Any]:
    """The profile's own values, only for settings it may override."""
    stored = profile.settings.get(OVERRIDES)
    if not isinstance(stored, Mapping):
        return {}
    return {name: value for name, value in stored.items() if name in TUNABLE}


def for_profile(settings: Settings, profile: Profile) -> Settings:
    """The settings in force for `profile`: the global ones, its overrides on top."""
    overrides = overrides_of(profile)
    return settings.model_copy(update=overrides) if overrides else settings


def tuned(
    settings: Settings,
    profile: Profile,
    changes: Mapping[str, Any],
    *,
    actor: str,
    at: datetime,
) -> dict[str, Any]:
    """The profile's new `settings` mapping with `changes` validated, stored and recorded.

    A value of None removes the override (the global setting applies again).
    Raises `InvalidInputError` with one sentence for an unknown name or a bad value.
    """
    unknown = sorted(set(changes) - set(TUNABLE))
    if unknown:
        raise InvalidInputError(
            f"A profile cannot override {', '.join(unknown)}; it may set: {', '.join(TUNABLE)}."
        )
    current = overrides_of(profile)
    wanted = {**current, **changes}
    wanted = {name: value for name, value in wanted.items() if value is not None}
    try:
        checked = Settings.model_validate({**settings.model_dump(), **wanted})
    except ValidationError as exc:
        problem = exc.errors()[0]
        field = ".".join(str(part) for part in problem["loc"])
        raise InvalidInputError(f"The setting {field} is invalid: {problem['msg']}.") from exc
    kept = {name: getattr(checked, name) for name in wanted}
    before = {n: current.get(n) for n in TUNABLE if current.get(n) != kept.get(n)}
    after = {n: kept.get(n) for n in before}
    events = list(profile.settings.get(EVENTS) or [])
    if before:
        events.append({"at": at.isoformat(), "actor": actor, "before": before, "after": after})
    return {**profile.settings, OVERRIDES: kept, EVENTS: events}
