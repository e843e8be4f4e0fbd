"""Versioned schema migrations, each written once for both backends.

A file `schema/NNNN_name.sql` is migration NNNN: a Jinja template rendered per
dialect. It names its column types through variables (`{{ text }}`, `{{ timestamp }}`,
`{{ json }}`...) and keeps what one backend does its own way (full text, JSON functions,
Postgres's keys by profile) in `{% if sqlite %}` / `{% if postgres %}` blocks; what
several migrations write alike is a macro of `schema/macros.sql`. A migration is
history: once shipped, it must render the same SQL for ever (SQLite keeps a table's
text as written).

A backend applies, in order and each in its own transaction, the migrations whose
number is above the highest it has recorded in its `schema_migrations` table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Literal

from jinja2 import Environment, PackageLoader, StrictUndefined

__all__ = ["Dialect", "Migration", "load_migrations", "schema_templates"]

Dialect = Literal["sqlite", "postgres"]

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

# The column types a migration names, as each dialect writes them.
_TYPES: dict[Dialect, dict[str, str]] = {
    "sqlite": {
        "text": "TEXT",
        "integer": "INTEGER",
        "bigint": "INTEGER",
        "real": "REAL",
        "timestamp": "TEXT",
        "json": "TEXT",
    },
    "postgres": {
        "text": "text",
        "integer": "integer",
        "bigint": "bigint",
        "real": "double precision",
        "timestamp": "timestamptz",
        "json": "jsonb",
    },
}


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


@cache
def load_migrations(dialect: Dialect) -> tuple[Migration, ...]:
    """Every migration rendered for `dialect`, oldest first."""
    env = schema_templates(dialect)
    found = []
    for name in env.list_templates():
        match = _NAME.match(name)
        if match:
            found.append(Migration(int(match[1]), match[2], env.get_template(name).render()))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise RuntimeError(f"two migrations share a number: {versions}")
    return tuple(found)


def schema_templates(dialect: Dialect) -> Environment:
    """The templates of `schema/`, seeing `dialect`'s flag and types.

    Not HTML: nothing is escaped. Blocks on lines of their own leave no line behind,
    and a name no template is given fails the rendering instead of writing nothing.
    """
    env = Environment(
        loader=PackageLoader("somna.store", "schema"),
        undefined=StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals.update(_TYPES[dialect], sqlite=dialect == "sqlite", postgres=dialect == "postgres")
    return env
