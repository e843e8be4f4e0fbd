"""The docs say what the code does: settings, exports, commands, layers and invariants."""

from __future__ import annotations

import json
import re
import tomllib
import types
from pathlib import Path

import somna
from somna.config import SETTINGS

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
PYPROJECT = (ROOT / "pyproject.toml").read_text(encoding="utf-8")

INVARIANTS = (
    "One active fact per (profile, type, subject, text_hash).",
    "Recall returns only active facts valid at the asked time.",
    "Nothing is hard-deleted",
    "Every state change writes its FactEvent in the same transaction.",
    "A consolidated fact has verbatim evidence.",
    "Consolidating a session is one transaction.",
    "Every store call is scoped to one profile.",
    "Superseding closes the old fact in one transaction.",
)
"""The invariants of DESIGN section 3, as the architecture page words them."""


def test_readme_opens_with_the_two_commands() -> None:
    first_block = README.split("```sh", 1)[1].split("```", 1)[0]
    assert "make run" in first_block and "make test" in first_block


def test_every_setting_is_documented_with_its_default() -> None:
    for variable, default, _ in SETTINGS:
        row = re.search(rf"^\| `{variable}` \| (.+?) \|", README, re.MULTILINE)
        assert row, f"{variable} is missing from the README's configuration table"
        shown = row.group(1)
        text = json.dumps(default) if isinstance(default, dict) else str(default)
        assert shown == ("—" if default is None else f"`{text}`"), variable


def test_the_public_surface_is_explicit_and_sorted() -> None:
    def isort_style(name: str) -> tuple[int, str]:  # CONSTANTS, then Classes, then functions
        return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)

    assert somna.__all__ == sorted(somna.__all__, key=isort_style)
    for name in somna.__all__:
        assert hasattr(somna, name), name
    public = {
        name
        for name, value in vars(somna).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    }
    assert public == set(somna.__all__)


def test_the_layer_table_names_every_package_in_the_order_import_linter_checks() -> None:
    layers = next(
        contract["layers"]
        for contract in tomllib.loads(PYPROJECT)["tool"]["importlinter"]["contracts"]
        if contract["type"] == "layers"
    )
    rank = {
        name.strip(): position
        for position, names in enumerate(reversed(layers))
        for name in names.split("|")
    }
    section = ARCHITECTURE.split("## Layers", 1)[1].split("\n## ", 1)[0]
    table = re.findall(r"^\| `(somna\.\w+)` \|", section, re.MULTILINE)
    packages = {
        f"somna.{path.stem}"
        for path in (ROOT / "src" / "somna").iterdir()
        if not path.name.startswith("_")
        and (path.suffix == ".py" or (path / "__init__.py").exists())
    }
    assert set(table) == set(rank) == packages
    assert [rank[name] for name in table] == sorted(rank[name] for name in table)


def test_the_architecture_page_states_the_eight_invariants_in_order() -> None:
    section = ARCHITECTURE.split("## Invariants", 1)[1].split("\n## ", 1)[0]
    stated = re.findall(r"^(\d)\. \*\*(.+?)\*\*", section, re.MULTILINE)
    assert stated == [(str(number), text) for number, text in enumerate(INVARIANTS, start=1)]
