"""Versioned schema migrations, kept as numbered .sql files beside each backend.

A file `NNNN_name.sql` is migration NNNN. A backend applies, in order and each in
its own transaction, the files whose number is above the highest it has recorded
in its `schema_migrations` table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

__all__ = ["Migration", "load_migrations"]

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(package: str) -> list[Migration]:
    """The migrations shipped in `package` (a folder of .sql files), oldest first."""
    found = []
    for entry in resources.files(package).iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise RuntimeError(f"two migrations in {package} share a number: {versions}")
    return found
