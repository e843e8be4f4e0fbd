"""The migrations: written once in `somna/store/schema/`, rendered per dialect."""

from __future__ import annotations

import pytest
from jinja2 import UndefinedError

from somna.store.migrations import Dialect, load_migrations, schema_templates

DIALECTS: list[Dialect] = ["sqlite", "postgres"]


def test_both_dialects_get_the_same_migrations_in_order() -> None:
    sqlite, postgres = (load_migrations(dialect) for dialect in DIALECTS)
    assert [(m.version, m.name) for m in sqlite] == [(m.version, m.name) for m in postgres]
    assert [m.version for m in sqlite] == list(range(1, len(sqlite) + 1))


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_rendered_migration_is_plain_sql(dialect: Dialect) -> None:
    for migration in load_migrations(dialect):
        for syntax in ("{{", "}}", "{%", "%}", "{#", "#}"):
            assert syntax not in migration.sql, (migration.name, syntax)


def test_json_literals_and_paths_survive_rendering() -> None:
    assert '\'{"rejections": [], "failures": []}\'::jsonb' in sql("postgres", "run_entries")
    assert "json_each(r.body, '$.rejections')" in sql("sqlite", "run_entries")


def test_each_dialect_writes_its_own_types() -> None:
    assert "forgotten_at    TEXT NOT NULL" in sql("sqlite", "tombstones")
    assert "forgotten_at    timestamptz NOT NULL" in sql("postgres", "tombstones")


@pytest.mark.parametrize("template", ["{{ txet }}", "{% if sqllite %}x{% endif %}"])
def test_a_misspelt_name_fails_the_rendering(template: str) -> None:
    with pytest.raises(UndefinedError):
        schema_templates("sqlite").from_string(template).render()


def sql(dialect: Dialect, name: str) -> str:
    [migration] = [m for m in load_migrations(dialect) if m.name == name]
    return migration.sql
