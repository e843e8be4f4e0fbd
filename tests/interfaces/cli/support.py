"""What every CLI test checks of a command's result: success, its JSON, or one error line."""

from __future__ import annotations

import json
from typing import Any

from typer.testing import Result


def ok(result: Result) -> Result:
    assert result.exit_code == 0, result.output
    return result


def data(result: Result) -> Any:
    return json.loads(ok(result).stdout)


def assert_one_line_error(result: Result, code: int, *fragments: str) -> None:
    """Exit `code`, nothing on stdout, one `Error: …` line on stderr holding each fragment."""
    assert result.exit_code == code, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in lines[0]
