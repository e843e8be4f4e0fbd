"""Ctrl-C and SIGTERM from the first moment of `somna`: while Python still imports the
commands (about a second), as later, the process exits 130 or 143 with one line and no
traceback, through the console script and through `python -m somna` alike.

"The first moment" is when `main` has set its handlers, which the tests read in
/proc: before it, the interpreter is still starting (tens of milliseconds, and the
console script's own `import re`), which no code of Somna's can reach.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from somna.interfaces.cli.interrupt import signals_interrupt
from somna.interfaces.cli.signals import Interrupted

pytestmark = [
    pytest.mark.slow,  # subprocesses
    pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc"),
]

ROOT = Path(__file__).resolve().parents[3]
ENTRIES = {
    "console script": [str(Path(sys.executable).with_name("somna"))],
    "python -m somna": [sys.executable, "-m", "somna"],
}


def _guarded(pid: int) -> bool:
    """Whether the process catches SIGTERM yet: the first thing `main` does."""
    status = Path(f"/proc/{pid}/status").read_text()
    caught = next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught, 16) >> (signal.SIGTERM - 1) & 1)


def _heeding_ctrl_c() -> None:
    """Ctrl-C as a terminal's foreground command gets it, even when the tests run as a
    background job (which a shell starts with SIGINT ignored, and children inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("after_s", [0.0, 0.05, 0.1, 0.2, 0.4, 0.7, 1.0, 1.5])
def test_a_signal_at_any_moment_of_consolidate_exits_with_one_line_and_no_traceback(
    db: str, entry: str, signum: signal.Signals, after_s: float
) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("SOMNA_")},
        "PYTHONPATH": str(ROOT / "src"),
        "SOMNA_DB": db,
    }
    running = subprocess.Popen(
        [*ENTRIES[entry], "consolidate", "--idle-hours", "0"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_heeding_ctrl_c,
    )
    try:
        deadline = time.monotonic() + 30
        while not _guarded(running.pid):
            assert running.poll() is None and time.monotonic() < deadline, running.communicate()
            time.sleep(0.002)
        time.sleep(after_s)
        running.send_signal(signum)
        out, err = running.communicate(timeout=60)
    finally:
        if running.poll() is None:
            running.kill()
            running.communicate(timeout=20)
    assert "Traceback" not in err, err
    if out.startswith("Run "):  # the run had finished: the signal met the process on its way out
        assert after_s >= 0.4, out
        assert running.returncode in (0, 128 + signum, -signum), err
        assert all(line.startswith("Interrupted:") for line in err.strip().splitlines()), err
        return
    assert running.returncode == 128 + signum, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Interrupted:"), err


def test_an_interrupt_dropped_in_a_finalizer_is_quiet_and_the_next_signal_stops(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A signal met while Python runs a finalizer raises there, where Python drops the
    exception and prints it; the run must not print a traceback nor ignore the next one."""

    class Finalized:
        def __del__(self) -> None:
            signal.raise_signal(signal.SIGINT)  # its handler runs here, inside the finalizer

    handlers = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    hook = sys.unraisablehook
    try:
        with pytest.raises(Interrupted), signals_interrupt():
            Finalized()  # finalized at once: its interrupt never reaches this block
            signal.raise_signal(signal.SIGINT)  # the next signal stops the run
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
        sys.unraisablehook = hook
    assert "Traceback" not in capsys.readouterr().err
