"""Every ```python block of README.md runs as pasted, in order, and does what its text says.

The blocks share one namespace, as in one Python session (the later ones go on
with the first one's `m`), in a fresh folder with a fresh SOMNA_DB. Where a
block promises an outcome (a printed line in a comment, a fact merged or
replaced), the test checks it.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```python\n(.*?)^```", README, re.MULTILINE | re.DOTALL)


def _run(block: str, number: int, namespace: dict[str, Any]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, f"README.md python block {number}", "exec"), namespace)
    return out.getvalue()


def _block(*markers: str) -> int:
    [number] = [i for i, block in enumerate(BLOCKS) if all(m in block for m in markers)]
    return number


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """What each block printed, run once for the module, as a new user would in a new folder."""
    folder = tmp_path_factory.mktemp("readme")
    namespace: dict[str, Any] = {"__name__": "__readme__"}
    with pytest.MonkeyPatch.context() as patch:
        for key in list(os.environ):
            if key.startswith(("SOMNA_", "OPENAI_")):
                patch.delenv(key)
        patch.setenv("SOMNA_DB", str(folder / "readme.db"))
        patch.chdir(folder)
        try:
            return [_run(block, n, namespace) for n, block in enumerate(BLOCKS)]
        finally:
            memory = namespace.get("m")
            if memory is not None:
                memory.close()


def test_the_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 3


def test_the_api_tour_merges_the_duplicate_replaces_paris_and_stores_the_correction(
    outputs: list[str],
) -> None:
    printed = outputs[_block("m.create_profile", "m.search")].splitlines()
    texts = [line.split(" ", 1)[1] for line in printed]
    assert len(texts) == 3
    assert "Lives in Berlin." in texts and "Lives in Paris." not in texts
    assert "Eats fish but no meat." in texts  # the correction, not the disputed pair
    assert sum("tea" in text for text in texts) == 1  # the near-duplicate was merged


def test_the_consolidation_example_prints_what_its_comment_says(outputs: list[str]) -> None:
    number = _block("m.consolidate(")
    promised = re.search(r"print\(run\.[^\n]*#\s*([0-9 ]+)$", BLOCKS[number], re.MULTILINE)
    assert promised is not None, "the consolidation example lost its expected output"
    printed = outputs[number].strip()
    assert printed == promised[1].strip()
    assert all(int(count) > 0 for count in printed.split())


def test_the_context_example_prints_the_lines_its_comment_shows(outputs: list[str]) -> None:
    number = _block("m.context(")
    today = datetime.now(UTC).date().isoformat()
    after_print = BLOCKS[number].split("print(prompt_block)", 1)[1]
    shown = [
        line.removeprefix("# ").replace("[today]", f"[{today}]")
        for line in after_print.splitlines()
        if line.startswith("# ") and line != "# …"
    ]
    assert len(shown) >= 3
    for line in shown:
        assert line in outputs[number], line
