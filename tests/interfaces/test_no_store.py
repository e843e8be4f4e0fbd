"""The interfaces and the evaluation read the store through `Memory` only: `describe()`,
`events()`, `evidence()` and the other read methods, never `memory.store`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "somna"
REACH = re.compile(r"\.store\b")


@pytest.mark.parametrize("package", ["interfaces", "evaluation"])
def test_no_interface_reaches_into_the_store_of_memory(package: str) -> None:
    found = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for path in sorted((SRC / package).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if REACH.search(line)
    ]
    assert found == []
