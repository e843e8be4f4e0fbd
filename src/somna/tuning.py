"""Per-profile settings: the few global settings a profile may override, and their history.

A profile keeps its overrides in `Profile.settings["overrides"]` and every change
as an event in `Profile.settings["settings_events"]` (who, when, what moved), so
the values live with the profile they tune. `for_profile` gives the settings in
force for one profile: the global ones with that profile's overrides on top.
Which settings a profile may override, and their ranges, are declared in
`somna.config`; every way in (REST profile creation, the dashboard's Settings
form) goes through `checked_overrides`.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from somna.config import Settings, per_profile, problem
from somna.errors import ConfigurationError, InvalidInputError
from somna.model import Profile

__all__ = [
    "EVENTS",
    "OVERRIDES",
    "TUNABLE",
    "checked_overrides",
    "checked_profile_settings",
    "for_profile",
    "overrides_of",
    "tuned",
]

TUNABLE = per_profile()
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
    """The settings in force for `profile`: the global ones, its overrides on top.

    The stored overrides are checked again: a database written before the ranges
    existed may hold one out of range, which fails this profile alone, by name.
    """
    overrides = overrides_of(profile)
    if not overrides:
        return settings
    try:
        return Settings.model_validate({**settings.model_dump(), **overrides})
    except ValidationError as exc:
        raise ConfigurationError(
            f"The profile {profile.id!r} holds a setting out of range. {problem(exc)} "
            "Set it again on the profile's Settings page."
        ) from exc


def checked_overrides(settings: Settings, overrides: Mapping[str, Any]) -> dict[str, Any]:
    """`overrides` checked against the declared ranges, as the settings will hold them.

    Raises `InvalidInputError` with one sentence (the setting, its range, the value)
    for an unknown name, a setting a profile may not override, or a value out of range.
    """
    unknown = sorted(set(overrides) - set(TUNABLE))
    if unknown:
        raise InvalidInputError(
            f"A profile cannot override {', '.join(unknown)}; it may set: {', '.join(TUNABLE)}."
        )
    try:
        checked = Settings.model_validate({**settings.model_dump(), **overrides})
    except ValidationError as exc:
        raise InvalidInputError(problem(exc)) from exc
    return {name: getattr(checked, name) for name in overrides}


def checked_profile_settings(settings: Settings, stored: Mapping[str, Any]) -> dict[str, Any]:
    """A new profile's settings mapping, its `overrides` checked like any later change."""
    overrides = stored.get(OVERRIDES)
    if overrides is None:
        return dict(stored)
    if not isinstance(overrides, Mapping):
        raise InvalidInputError(
            f"The profile's {OVERRIDES} must be an object of settings, e.g. "
            '{"archive_days": 30}.'
        )
    return {**stored, OVERRIDES: checked_overrides(settings, overrides)}


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
    current = overrides_of(profile)
    wanted = {**current, **changes}
    wanted = {name: value for name, value in wanted.items() if value is not None}
    kept = checked_overrides(settings, wanted)
    before = {n: current.get(n) for n in TUNABLE if current.get(n) != kept.get(n)}
    after = {n: kept.get(n) for n in before}
    events = list(profile.settings.get(EVENTS) or [])
    if before:
        events.append({"at": at.isoformat(), "actor": actor, "before": before, "after": after})
    return {**profile.settings, OVERRIDES: kept, EVENTS: events}
