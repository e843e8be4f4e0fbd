"""Settings layer defaults, a TOML file and SOMNA_* variables, and say clearly what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from somna import ConfigurationError, Settings
from somna.config import default_of, help_of, per_profile, profile_marks, range_of, variable_of


def test_defaults_need_no_key_and_no_server() -> None:
    settings = Settings.load(environ={})
    assert (settings.db, settings.embedder, settings.neighbor_floor) == ("somna.db", "bundled", 0.8)


def test_the_environment_overrides_the_file_which_overrides_defaults(tmp_path: Path) -> None:
    config = tmp_path / "somna.toml"
    config.write_text('[somna]\ndb = "file.db"\nneighbor_floor = 0.9\n')
    settings = Settings.load(environ={"SOMNA_NEIGHBOR_FLOOR": "0.85"})
    assert settings.db == "file.db"
    assert settings.neighbor_floor == 0.85
    assert Settings.load(environ={}, db="explicit.db").db == "explicit.db"


def test_somna_config_names_the_file(tmp_path: Path) -> None:
    other = tmp_path / "elsewhere.toml"
    other.write_text('db = "other.db"\n')
    assert Settings.load(environ={"SOMNA_CONFIG": str(other)}).db == "other.db"


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"SOMNA_NEIGHBOR_FLOOR": "high"}, "neighbor_floor"),
        ({"SOMNA_NEIGHBOR_FLOOR": "1.5"}, "neighbor_floor"),
        ({"SOMNA_CONFIG": "missing.toml"}, "does not exist"),
        (
            {"SOMNA_ARCHIVE_DAYS": "1e300"},
            "The setting archive_days must be a number from 0 to 36500, not '1e300'. Check "
            "SOMNA_ARCHIVE_DAYS",
        ),
        ({"SOMNA_IDLE_HOURS": "nan"}, "idle_hours must be a number from 0 to 876000, not 'nan'"),
        ({"SOMNA_TTL_DAYS": '{"intent": -3}'}, "ttl_days.intent must be a number of days"),
        ({"SOMNA_LEASE_MINUTES": "0"}, "lease_minutes must be a number more than 0 and at most"),
    ],
)
def test_bad_settings_raise_a_configuration_error(environ: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        Settings.load(environ=environ)


def test_a_malformed_file_is_named_in_the_error(tmp_path: Path) -> None:
    (tmp_path / "somna.toml").write_text("db = \n")
    with pytest.raises(ConfigurationError, match="not valid TOML"):
        Settings.load(environ={})


def test_unknown_keys_in_the_file_are_refused(tmp_path: Path) -> None:
    (tmp_path / "somna.toml").write_text('[somna]\ndatabase = "x.db"\n')
    with pytest.raises(ConfigurationError, match="database"):
        Settings.load(environ={})


def test_an_infinite_value_in_the_file_is_refused_with_its_range(tmp_path: Path) -> None:
    (tmp_path / "somna.toml").write_text("[somna]\narchive_days = inf\n")
    with pytest.raises(ConfigurationError, match="archive_days must be a number from 0 to 36500"):
        Settings.load(environ={"SOMNA_CONFIG": str(tmp_path / "somna.toml")})


def test_every_number_has_a_declared_range() -> None:
    numbers = [n for n, f in Settings.model_fields.items() if f.annotation in (int, float)]
    assert numbers and all(range_of(name) is not None for name in numbers)
    assert range_of("ttl_days") == "more than 0 and at most 36500"
    assert per_profile() == (
        "neighbor_floor",
        "judge_floor",
        "idle_hours",
        "archive_days",
        "ttl_days",
    )


def test_every_setting_has_its_help_on_one_line_its_variable_and_its_default() -> None:
    for name in Settings.model_fields:
        assert help_of(name) and "\n" not in help_of(name), name
        assert variable_of(name) == f"SOMNA_{name.upper()}"
    assert (default_of("idle_hours"), default_of("llm_timeout_s")) == ("3", "120")
    assert tuple(profile_marks()) == per_profile()
    assert all(mark.label and mark.hint for mark in profile_marks().values())
