"""`somna` for the scale tests' worker processes: `python tests/scale/somna_cli.py worker …`.

The root app with `ingest` and `worker` registered the way app.py is to
register them (its other commands as they are), and one test-only knob:
SOMNA_TEST_LLM_DELAY_S, read here and nowhere in Somna, makes every model call
sleep that long first (a slow worker, to stop or kill in the middle of a run).
Ctrl-C is heeded even when the tests run as a background job.
Everything else comes from SOMNA_* as usual.
"""

from __future__ import annotations

import os
import signal
import time
from typing import Any

import typer

from somna.config import Settings
from somna.interfaces.cli.commands import app as somna_app
from somna.interfaces.cli.commands import root
from somna.interfaces.cli.ingest import ingest_app
from somna.interfaces.cli.options import CliState
from somna.interfaces.cli.worker import worker
from somna.llm import LLM, create_llm
from somna.memory import Memory

DELAY = "SOMNA_TEST_LLM_DELAY_S"


class SlowLLM:
    """The configured model, each call made `delay` seconds late."""

    def __init__(self, inner: LLM, delay: float) -> None:
        self.inner = inner
        self.delay = delay

    @property
    def name(self) -> str:
        return self.inner.name

    def structured(self, task: Any, inputs: Any) -> Any:
        time.sleep(self.delay)
        return self.inner.structured(task, inputs)


def memory_factory(settings: Settings) -> Memory:
    delay = float(os.environ.get(DELAY) or 0)
    if not delay:
        return Memory(settings=settings)
    return Memory(settings=settings, llm=SlowLLM(create_llm(settings.llm_provider), delay))


def build_app() -> typer.Typer:
    app = typer.Typer(name="somna", no_args_is_help=True, add_completion=False)
    app.callback()(root)
    mine = {"ingest", "worker"}
    app.registered_commands += [c for c in somna_app.registered_commands if c.name not in mine]
    app.registered_groups += [
        g
        for g in somna_app.registered_groups
        if not (g.typer_instance and g.typer_instance.info.name in mine)
    ]
    app.add_typer(ingest_app)
    app.command("worker")(worker)
    return app


if __name__ == "__main__":
    # Ctrl-C as a terminal's foreground command gets it, even when the tests run as a
    # background job (which a shell starts with SIGINT ignored, and children inherit that).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    build_app()(prog_name="somna", obj=CliState(memory_factory=memory_factory))
