"""docs/api.md and the n8n examples say what the server does: every route, real URLs, real tools."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from somna.config import Settings
from somna.interfaces.api import create_app
from somna.interfaces.mcp import TOOLS
from somna.memory import Memory
from somna.store.sqlite import SQLiteStore
from tests.interfaces.api.live import api_routes, route_pattern

ROOT = Path(__file__).resolve().parents[3]
PAGE = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
WORKFLOWS = sorted((ROOT / "examples" / "n8n").glob("*.json"))
METHODS = {"GET", "POST", "PATCH", "DELETE", "PUT"}


@pytest.fixture(scope="module")
def routes(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, str]]:
    folder = tmp_path_factory.mktemp("docs")
    with Memory(store=SQLiteStore(folder / "somna.db"), settings=Settings()) as memory:
        return api_routes(create_app(memory))


def _served(routes: list[tuple[str, str]], method: str, url_path: str) -> bool:
    return any(m == method and route_pattern(p).match(url_path) for m, p in routes)


def _shape(path: str) -> str:
    return re.sub(r"\{[^}]*\}", "{}", path.split("?", 1)[0])


def test_the_routes_table_lists_every_route_and_nothing_else(
    routes: list[tuple[str, str]],
) -> None:
    documented = set()
    for line in PAGE.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        methods = {m.strip() for m in cells[0].split(",")} if cells else set()
        if len(cells) < 3 or not methods or not methods <= METHODS:
            continue
        for path in re.findall(r"`(/[^`]+)`", cells[1]):
            documented |= {(method, _shape(path)) for method in methods}
    assert documented == {(method, _shape(path)) for method, path in routes}


def test_every_curl_example_calls_a_real_route(routes: list[tuple[str, str]]) -> None:
    calls = 0
    for command in re.findall(r"^curl .*$", PAGE, flags=re.MULTILINE):
        method = re.search(r"-X (\w+)", command)
        url = re.search(r"\$SOMNA(/[^\s\"']*)", command)
        assert url, command
        path = url.group(1).split("?", 1)[0]
        assert _served(routes, method.group(1) if method else "GET", path), command
        calls += 1
    assert calls >= 12


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda path: path.name)
def test_each_n8n_workflow_is_importable_and_calls_real_routes(
    workflow: Path, routes: list[tuple[str, str]]
) -> None:
    data = json.loads(workflow.read_text(encoding="utf-8"))
    assert {"id", "name", "nodes", "connections", "settings"} <= set(data)  # n8n 2.40 needs id
    names = [node["name"] for node in data["nodes"]]
    assert len(set(names)) == len(names)
    assert len({node["id"] for node in data["nodes"]}) == len(names)
    for node in data["nodes"]:
        assert {"parameters", "type", "typeVersion", "position"} <= set(node), node["name"]
    for source, outputs in data["connections"].items():
        assert source in names
        for links in outputs.values():
            for link in (link for branch in links for link in branch):
                assert link["node"] in names and link["type"] in outputs
    for node in data["nodes"]:
        parameters = node["parameters"]
        if node["type"] in {"n8n-nodes-base.httpRequest", "n8n-nodes-base.httpRequestTool"}:
            url = parameters["url"].lstrip("=")
            path = re.sub(r"\{\{.*?\}\}", "x", url.split(":8420", 1)[1])
            assert _served(routes, parameters.get("method", "GET"), path), url
        if node["type"] == "@n8n/n8n-nodes-langchain.mcpClientTool":
            assert parameters["endpointUrl"].split("?", 1)[0].endswith(":8420/mcp")
            assert parameters["serverTransport"] == "httpStreamable"
            assert set(parameters["includeTools"]) <= set(TOOLS)
        if node["type"].endswith(".chatTrigger"):
            assert parameters["public"] is True  # else the chat URL answers 404
        assert "alice" not in json.dumps(parameters), f"{node['name']} names one fixed user"
    credentials = {c["name"] for n in data["nodes"] for c in n.get("credentials", {}).values()}
    types = {node["type"] for node in data["nodes"]}
    if any(t.endswith((".chatTrigger", ".agent")) for t in types):  # a chat never holds admin
        assert not any("admin" in name.lower() for name in credentials), credentials
    if "n8n-nodes-base.scheduleTrigger" in types:
        assert "n8n-nodes-base.manualTrigger" in types  # so it can run by hand, or `n8n execute`
    if "@n8n/n8n-nodes-langchain.agent" in types:
        memory = [n for n in data["nodes"] if "8420" in json.dumps(n["parameters"])]
        assert memory and all(n.get("onError") == "continueRegularOutput" for n in memory)


def test_the_five_examples_are_there() -> None:
    assert [w.name for w in WORKFLOWS] == [
        "agent-http-memory.json",
        "agent-mcp-memory.json",
        "agent-postgres-memory.json",
        "nightly-chat-table.json",
        "nightly-consolidation.json",
    ]
    for workflow in WORKFLOWS:
        assert workflow.name in PAGE
    for tool in TOOLS:
        assert f"`{tool}`" in PAGE


def test_no_request_can_match_two_routes_so_their_order_changes_no_answer(
    routes: list[tuple[str, str]],
) -> None:
    # Routes are matched busiest first, not in the order the docs list them.
    clashes = [
        (method, path, other)
        for method, path in routes
        for other_method, other in routes
        if other_method == method and other != path and route_pattern(path).match(other)
    ]
    assert clashes == []
    assert len(routes) > 30
