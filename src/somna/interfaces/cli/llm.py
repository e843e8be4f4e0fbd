"""`somna llm check`, and the model options `consolidate` and `worker` share.

The check probes the configured endpoint once and prints which JSON mode Somna will
use and why, with one line per problem; `--json` prints the report as JSON. It exits
with 0 when a mode works (or the provider needs no endpoint), 1 otherwise.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from somna.config import Settings
from somna.interfaces.cli import render
from somna.interfaces.cli.options import JsonOption, reported, setting_option
from somna.llm.check import CheckReport, check_llm

__all__ = ["LlmRetriesOption", "LlmTimeoutOption", "llm_app", "model_overrides"]

LlmTimeoutOption = Annotated[
    float | None,
    setting_option(
        "llm_timeout_s", "--llm-timeout", "SECONDS", "Seconds to wait for one model reply"
    ),
]
LlmRetriesOption = Annotated[
    int | None,
    setting_option(
        "llm_max_retries",
        "--llm-retries",
        "N",
        "Retries of a model call after HTTP 429, 5xx or a dropped connection",
    ),
]


def model_overrides(timeout: float | None, retries: int | None) -> dict[str, Any]:
    """The settings that the options above override for one command (None: not given)."""
    return {"llm_timeout_s": timeout, "llm_max_retries": retries}


llm_app = typer.Typer(name="llm", no_args_is_help=True)


@llm_app.callback()
def llm_group() -> None:
    """The language model that consolidates: check the configured endpoint.

    Set SOMNA_LLM_PROVIDER=openai, SOMNA_LLM_BASE_URL and SOMNA_LLM_MODEL first.

    Example:

        somna llm check
        somna llm check --json
    """


@llm_app.command("check")
def check(as_json: JsonOption = False) -> None:
    """Probe the model endpoint once: models, a tiny JSON call in each mode, limits, latency.

    Prints the mode Somna will use and why, then one line per problem found
    (no key, wrong base URL, model not loaded, schema refused, reply cut).
    Exits with 1 when no JSON mode works.

    Example:

        somna llm check
        somna llm check --json
    """
    with reported():
        report = check_llm(Settings.load())
    if as_json:
        render.print_json(report.as_dict())
    else:
        for line in report_lines(report):
            typer.echo(line)
    raise typer.Exit(0 if report.usable else 1)


def report_lines(report: CheckReport) -> list[str]:
    """The report as lines a person reads top to bottom."""
    if report.provider != "openai":
        return [report.why]
    lines = [f"Endpoint: {report.base_url or '(none)'}, model {report.model or '(none)'}"]
    if report.models:
        lines.append(f"Models listed: {', '.join(report.models[:8])}")
    limits = [
        f"{label} {value} tokens"
        for label, value in (("context", report.context_limit), ("output", report.output_limit))
        if value
    ]
    if limits:
        lines.append(f"Limits reported: {', '.join(limits)}")
    for probe in report.probes:
        state = "works" if probe.works else "fails"
        folded = " (instructions folded into the user message)" if probe.folded else ""
        lines.append(f"  {probe.mode:<19} {state}  {probe.seconds:.2f} s{folded}")
    lines.append(report.why)
    lines.extend(f"Problem: {problem}" for problem in report.problems)
    return lines
