"""The docs say what the code does: every setting, every export, the two commands."""

from __future__ import annotations

import json
import re
import types
from pathlib import Path

import somna
from somna.config import SETTINGS

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


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


def test_the_architecture_page_names_every_layer() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for layer in ("somna.model", "somna.store", "somna.embed", "somna.recall", "somna.memory"):
        assert layer in page
    for number in range(1, 9):
        assert f"{number}." in page
