"""The n8n example workflows, as requests: two chat users end in two profiles, nothing shared.

The URLs, bodies and MCP endpoint are read from `examples/n8n/*.json` and their
n8n expressions evaluated by Node (`n8n_expressions.js`, the same JavaScript
n8n runs), so a change to an example is a change to what this test sends. The
key is the one the examples document: `somna keys create --prefix chat-`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.interfaces.api.live import Live

EXAMPLES = Path(__file__).parents[3] / "examples" / "n8n"
HARNESS = Path(__file__).with_name("n8n_expressions.js")
TRIGGER = "When chat message received"
WHO = "Who is chatting"

pytestmark = [
    pytest.mark.slow,  # runs Node.js in a subprocess
    pytest.mark.skipif(
        shutil.which("node") is None, reason="evaluating n8n expressions needs Node.js"
    ),
]


def workflow(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    return data


def nodes(flow: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n["name"]: n["parameters"] for n in flow["nodes"]}


def evaluate(expressions: list[str], context: dict[str, Any]) -> list[Any]:
    """The values n8n gives these expressions for one item of `context`."""
    done = subprocess.run(
        ["node", str(HARNESS)],
        input=json.dumps({"expressions": expressions, **context}),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    values: list[Any] = json.loads(done.stdout)
    return values


class Chat:
    """One chat user of an agent example: what its nodes send for each of their turns."""

    def __init__(self, flow: dict[str, Any], live: Live, secret: str, session_id: str) -> None:
        self.params = nodes(flow)
        self.live = live
        self.secret = secret
        trigger = {"sessionId": session_id, "action": "sendMessage", "chatInput": ""}
        value = self.params[WHO]["assignments"]["assignments"][0]["value"]
        self.profile: str = evaluate([value], self._context(trigger))[0]
        self.trigger = trigger

    def _context(self, trigger: dict[str, Any], **more: Any) -> dict[str, Any]:
        nodes = {TRIGGER: trigger, WHO: {**trigger, "profile": getattr(self, "profile", "")}}
        return {"json": trigger, "nodes": nodes, "ai": {}, **more}

    def say(self, text: str, reply: str) -> None:
        """The agent's turn: `Keep the thread` appends the message and the reply."""
        self.trigger = {**self.trigger, "chatInput": text}
        keep = self.params["Keep the thread"]
        url, body = evaluate(
            [keep["url"], keep["jsonBody"]],
            self._context(self.trigger, json={"output": reply}),
        )
        response = self.post(url, json.loads(body))
        assert response.status_code == 200, response.text

    def post(self, url: str, body: dict[str, Any]) -> httpx.Response:
        with httpx.Client(headers={"Authorization": f"Bearer {self.secret}"}, timeout=60) as c:
            return c.post(url.replace("http://localhost:8420", self.live.url), json=body)

    def recall(self, question: str) -> list[dict[str, Any]]:
        """The HTTP Request tool `search_my_memory`, as the agent calls it."""
        tool = self.params["search_my_memory"]
        context = self._context(self.trigger, ai={"query": question})
        url, body = evaluate([tool["url"], tool["jsonBody"]], context)
        response = self.post(url, json.loads(body))
        assert response.status_code == 200, response.text
        found: list[dict[str, Any]] = response.json()
        return found

    def mcp(self, tool: str, arguments: dict[str, Any]) -> Any:
        """A call of the MCP Client Tool node, at the endpoint the example builds."""
        endpoint = evaluate([self.params["Somna memory"]["endpointUrl"]], self._context({}))[0]
        url = endpoint.replace("http://localhost:8420", self.live.url)

        async def main() -> Any:
            headers = {"Authorization": f"Bearer {self.secret}"}
            async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
                transport = streamable_http_client(url, http_client=http)
                async with Client(transport, read_timeout_seconds=60) as client:
                    return await client.call_tool(tool, arguments)

        return anyio.run(main)


@pytest.fixture
def chat_key(live: Live, admin: httpx.Client) -> str:
    """The examples' credential: a key for every profile under `chat-`, made over REST."""
    created = admin.post("/v1/keys", json={"prefix": "chat-", "name": "n8n"})
    assert created.status_code == 201, created.text
    assert created.json()["key"]["prefix"] == "chat-"
    secret: str = created.json()["secret"]
    return secret


def _everything(live: Live, profile: str) -> str:
    live.memory.flush()
    return json.dumps(live.memory.export(profile))


def test_two_users_of_the_http_example_get_two_memories(live: Live, chat_key: str) -> None:
    flow = workflow("agent-http-memory.json")
    anna = Chat(flow, live, chat_key, "7f3a-anna-browser")
    ben = Chat(flow, live, chat_key, "c91e ben+phone")
    assert anna.profile == "chat-7f3a-anna-browser"
    assert ben.profile.startswith("chat-") and anna.profile != ben.profile

    assert anna.recall("where do I live?") == []  # a new user: created, nothing yet
    anna.say("I live in Lisbon.", "Lisbon is lovely.")
    ben.say("I live in Tromso.", "A northern town!")
    for profile in (anna.profile, ben.profile):
        live.memory.consolidate(profile, idle_hours=0)

    anna_found = anna.recall("where do I live?")
    ben_found = ben.recall("where do I live?")
    assert anna_found and set(anna_found[0]) == {"id", "text", "date", "status"}
    assert "Lisbon" in " ".join(r["text"] for r in anna_found)
    assert "Tromso" in " ".join(r["text"] for r in ben_found)
    assert "Lisbon" not in json.dumps(ben_found) and "Tromso" not in json.dumps(anna_found)
    assert "Lisbon" not in _everything(live, ben.profile)
    assert "Tromso" not in _everything(live, anna.profile)
    assert "Tromso" in _everything(live, ben.profile)
    assert {p.id for p in live.memory.list_profiles()} == {
        "alice",
        "bob",
        anna.profile,
        ben.profile,
    }


def test_two_users_of_the_mcp_example_get_two_memories(live: Live, chat_key: str) -> None:
    flow = workflow("agent-mcp-memory.json")
    anna, ben = Chat(flow, live, chat_key, "anna-1"), Chat(flow, live, chat_key, "ben-2")
    system = nodes(flow)["AI Agent"]["options"]["systemMessage"]
    told = evaluate([system], anna._context({}))[0]
    assert f'always pass "{anna.profile}"' in told

    stored = anna.mcp("remember", {"profile": anna.profile, "text": "Plays the cello."})
    assert not stored.is_error, stored.content
    anna.say("Remember that I play the cello.", "Noted.")
    ben.say("I collect stamps.", "Nice hobby.")
    assert "cello" in _everything(live, anna.profile)
    assert "cello" not in _everything(live, ben.profile)
    assert "stamps" not in _everything(live, anna.profile)

    found = ben.mcp("recall", {"profile": ben.profile, "query": "music"})
    assert "cello" not in json.dumps(found.structured_content)
    # The endpoint is pinned to the user: naming another profile is as if it did not exist.
    across = ben.mcp("recall", {"profile": anna.profile, "query": "music"})
    assert across.is_error and "no profile" in across.content[0].text.lower()


def test_a_prefix_key_reaches_nothing_outside_its_prefix(live: Live, chat_key: str) -> None:
    with live.client(chat_key) as client:
        before = _everything(live, "alice")
        for method, path, body in [
            ("GET", "/v1/profiles/alice", None),
            ("POST", "/v1/profiles/alice/recall", {"query": "tea"}),
            ("POST", "/v1/profiles/shop-1/sessions/s/messages", {"messages": []}),
            ("POST", "/v1/profiles/carol/facts", {"text": "Owns a red bike."}),
        ]:
            response = client.request(method, path, json=body)
            assert response.status_code == 404, (method, path)
            assert response.json()["error"]["code"] == "profile_not_found"
        assert [p["id"] for p in client.get("/v1/profiles").json()] == []
        # Erasing is for its own profiles (a client asking to be forgotten): another's is
        # as if it did not exist, and so is one of its own that was never created.
        for profile in ("alice", "chat-new"):
            response = client.delete(f"/v1/profiles/{profile}")
            assert response.status_code == 404, profile
            assert response.json()["error"]["code"] == "profile_not_found"
    assert {p.id for p in live.memory.list_profiles()} == {"alice", "bob"}
    assert _everything(live, "alice") == before
