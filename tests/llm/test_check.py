"""`somna llm check` and `GET /v1/llm/check` against scripted servers: one line per problem."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from somna.config import Settings
from somna.embed import BundledEmbedder
from somna.interfaces.cli import app
from somna.llm.check import check_llm
from tests.interfaces.api.live import live_server
from tests.llm.local_servers import SmallLocalModel
from tests.llm.scripted_server import Script, ScriptedChatServer, completion


def _settings(url: str, model: str = "scripted-model", **more: Any) -> Settings:
    return Settings(llm_provider="openai", llm_base_url=url, llm_model=model, **more)


def test_a_small_local_server_is_asked_with_the_schema_inside_json_object(
    chat_server: ScriptedChatServer,
) -> None:
    chat_server.models = [{"id": "gemma", "object": "model", "meta": {"n_ctx_train": 32768}}]
    chat_server.responder = SmallLocalModel()
    report = check_llm(_settings(chat_server.url, "gemma"))
    assert report.usable and report.mode == "json_object_schema"
    assert report.folds_system  # Gemma's template drops the system message
    assert report.models == ["gemma"] and report.context_limit == 32768
    assert [(p.mode, p.works) for p in report.probes] == [
        ("json_schema", False),
        ("json_object_schema", True),
        ("json_object", True),
        ("text", True),
    ]
    assert report.why == (
        "Somna will ask for JSON with json_object_schema because json_schema did not work; "
        "the instructions go in the user message (the chat template drops the system one)."
    )
    (problem,) = report.problems
    assert problem.startswith("Schema refused: the server refused json_schema (HTTP 500 to")
    assert "Input should be 'text' or 'json_object'" in problem


def test_a_model_that_is_not_loaded_and_cut_replies_are_named(
    chat_server: ScriptedChatServer,
) -> None:
    chat_server.responder = lambda body: Script(
        200, completion('{"word": "lan', finish_reason="length")
    )
    report = check_llm(_settings(chat_server.url, "llama3.1:8b"))
    assert not report.usable and report.mode is None
    assert report.problems[0] == (
        f"Model not loaded: {chat_server.url} does not list 'llama3.1:8b' (it offers: "
        "scripted-model); set SOMNA_LLM_MODEL to one of them or load the model on the server."
    )
    cut = [line for line in report.problems[1:] if line.startswith("Reply cut in ")]
    assert len(cut) == 4 and "64 then 128 tokens" in cut[0]
    assert report.why.startswith("No JSON mode gave a usable answer")


def test_a_wrong_base_url_and_a_dead_server_stop_the_check(
    chat_server: ScriptedChatServer,
) -> None:
    wrong = check_llm(_settings(chat_server.url.removesuffix("/v1") + "/api"))
    assert wrong.problems == [
        f"Wrong base URL: {chat_server.url.removesuffix('/v1')}/api has no /models route; an "
        "OpenAI-compatible server's base URL usually ends in /v1."
    ]
    assert not wrong.probes and not wrong.usable
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # nothing listens there once closed
    dead = check_llm(_settings(f"http://127.0.0.1:{port}/v1"))
    (line,) = dead.problems
    assert line == (
        f"Wrong base URL or server down: nothing usable answers at http://127.0.0.1:{port}/v1 "
        "(APIConnectionError)."
    )


def test_no_key_for_openai_and_the_offline_provider() -> None:
    report = check_llm(Settings(llm_provider="openai"), environ={})
    (line,) = report.problems
    assert line.startswith("No API key: OpenAI at https://api.openai.com/v1 needs an API key")
    assert not report.usable
    offline = check_llm(Settings())
    assert offline.usable and offline.mode is None and "runs offline" in offline.why


def test_the_check_never_shows_credentials(chat_server: ScriptedChatServer) -> None:
    port = chat_server.server_address[1]
    report = check_llm(
        _settings(f"http://ann:hunter2-pw@127.0.0.1:{port}/v1", llm_api_key="sk-abcdefghijkl9")
    )
    text = json.dumps(report.as_dict())
    assert "hunter2" not in text and "sk-abcdefghijkl9" not in text
    assert report.base_url == f"http://***@127.0.0.1:{port}/v1"


def test_the_cli_prints_the_mode_and_one_line_per_problem(
    chat_server: ScriptedChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    chat_server.models = [{"id": "gemma", "object": "model"}]
    chat_server.responder = SmallLocalModel()
    for name, value in {
        "SOMNA_LLM_PROVIDER": "openai",
        "SOMNA_LLM_BASE_URL": chat_server.url,
        "SOMNA_LLM_MODEL": "gemma",
    }.items():
        monkeypatch.setenv(name, value)
    runner = CliRunner()
    plain = runner.invoke(app, ["llm", "check"])
    assert plain.exit_code == 0, plain.output
    lines = plain.output.splitlines()
    assert lines[0] == f"Endpoint: {chat_server.url}, model gemma"
    assert any(line.startswith("  json_schema         fails") for line in lines)
    assert "Somna will ask for JSON with json_object_schema" in plain.output
    assert sum(line.startswith("Problem: Schema refused") for line in lines) == 1
    as_json = runner.invoke(app, ["llm", "check", "--json"])
    assert as_json.exit_code == 0
    data = json.loads(as_json.output)
    assert data["mode"] == "json_object_schema" and data["usable"] is True
    monkeypatch.setenv("SOMNA_LLM_MODEL", "missing")
    chat_server.responder = lambda body: Script(404, "model 'missing' not found")
    failing = runner.invoke(app, ["llm", "check"])
    assert failing.exit_code == 1
    assert "Problem: Model not loaded:" in failing.output


def test_the_rest_route_is_for_admins(
    tmp_path: Path, embedder: BundledEmbedder, chat_server: ScriptedChatServer
) -> None:
    chat_server.responder = SmallLocalModel()
    with live_server(tmp_path, embedder) as live:
        live.memory.settings = _settings(chat_server.url)
        with live.client(live.admin) as admin, live.client(live.alice) as alice:
            answer = admin.get("/v1/llm/check")
            refused = alice.get("/v1/llm/check")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["mode"] == "json_object_schema" and body["usable"] is True
    assert body["probes"][0] == {
        "mode": "json_schema",
        "works": False,
        "seconds": body["probes"][0]["seconds"],
        "folded": False,
        "problem": body["probes"][0]["problem"],
    }
    assert refused.status_code == 403
    assert "Only an admin key may check the model endpoint." in refused.text


def test_a_probe_answer_with_trailing_punctuation_still_works(
    chat_server: ScriptedChatServer,
) -> None:
    chat_server.responder = lambda body: Script(200, completion('{"word": "Lantern."}'))
    report = check_llm(_settings(chat_server.url))
    assert report.mode == "json_schema" and not report.problems
    assert all(r["max_tokens"] == 64 for r in chat_server.requests)
