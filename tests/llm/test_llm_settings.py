"""The model's settings reach the provider, and credentials never reach an error or a run."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from somna.config import Settings
from somna.embed import BundledEmbedder, OpenAIEmbedder
from somna.errors import ConfigurationError, EmbeddingError
from somna.interfaces.cli import app
from somna.llm import EXTRACT, OpenAILLM, llm_from_settings
from somna.memory import Memory
from somna.redact import redact, redact_url
from somna.store.sqlite import SQLiteStore
from tests.llm.helpers import digest_json, transcript
from tests.llm.scripted_server import Script, ScriptedChatServer


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("http://ann:pw1234@host:8080/v1", "http://***@host:8080/v1"),
        ("see https://token@host/v1 now", "see https://***@host/v1 now"),
        ("http://host/v1?api_key=abc123&x=1", "http://host/v1?api_key=***&x=1"),
        (
            "Incorrect API key provided: sk-proj-abcdefghijklmnop.",
            "Incorrect API key provided: ***.",
        ),
        ("http://host:8080/v1", "http://host:8080/v1"),
    ],
)
def test_redact_masks_credentials_and_keeps_the_rest(text: str, shown: str) -> None:
    assert redact(text) == shown


def test_redact_masks_the_secrets_it_is_given_but_not_placeholders() -> None:
    assert redact("key hunter22 was refused", "hunter22") == "key *** was refused"
    assert redact("key unused", "unused") == "key unused"
    assert redact_url(None) is None


def test_settings_reach_the_provider(chat_server: ScriptedChatServer) -> None:
    chat_server.push(Script(200, digest_json(), delay=1.0))
    chat_server.reply(digest_json())
    settings = Settings(
        llm_provider="openai",
        llm_base_url=chat_server.url,
        llm_model="m",
        llm_timeout_s=0.3,
        llm_max_retries=0,
        llm_max_tokens_extract=700,
        llm_fold_system="always",
    )
    llm = llm_from_settings(settings)
    assert isinstance(llm, OpenAILLM) and llm.folds_system
    with llm, pytest.raises(Exception, match=r"timed out after 0.3 s"):
        llm.structured(EXTRACT, transcript(("user", None, "I love hiking.")))
    (request,) = chat_server.requests
    assert request["max_tokens"] == 700 and [m["role"] for m in request["messages"]] == ["user"]
    with pytest.raises(ConfigurationError, match="takes no settings, but got model"):
        llm_from_settings(Settings(llm_model="m"))


def test_consolidate_takes_the_timeout_and_retries_on_the_command_line(
    chat_server: ScriptedChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "somna.db"
    for name, value in {
        "SOMNA_LLM_PROVIDER": "openai",
        "SOMNA_LLM_BASE_URL": chat_server.url,
        "SOMNA_LLM_MODEL": "slow",
        "SOMNA_DB": str(db),
    }.items():
        monkeypatch.setenv(name, value)
    with Memory(settings=Settings(db=str(db))) as memory:
        memory.create_profile("maya")
        memory.add_messages("maya", "walk", [("user", "I walked along the river today.")])
    for _ in range(2):
        chat_server.push(Script(503, "overloaded"))
    chat_server.push(Script(200, digest_json(), delay=1.0))
    result = CliRunner().invoke(
        app,
        ["consolidate", "--idle-hours", "0", "--llm-retries", "2", "--llm-timeout", "0.3"],
    )
    assert result.exit_code == 0, result.output
    assert "timed out after 0.3 s" in result.output
    assert len(chat_server.requests) == 3  # two 503s retried, then a timeout not retried
    worker_help = CliRunner().invoke(app, ["worker", "--help"]).output
    assert "--llm-timeout" in worker_help and "--llm-retries" in worker_help


def test_a_password_in_the_base_url_stays_out_of_runs(
    chat_server: ScriptedChatServer, tmp_path: Path, embedder: BundledEmbedder
) -> None:
    port = chat_server.server_address[1]
    secret_url = f"http://ops:Zq9-secret@127.0.0.1:{port}/v1"
    chat_server.fail(401, f"Bad credentials for {secret_url}")
    settings = Settings(llm_provider="openai", llm_base_url=secret_url, llm_model="m")
    memory = Memory(store=SQLiteStore(tmp_path / "somna.db"), embedder=embedder, settings=settings)
    try:
        memory.create_profile("maya")
        memory.add_messages("maya", "walk", [("user", "I walked along the river today.")])
        run = memory.consolidate("maya", idle_hours=0)
        (failure,) = run.failures
        assert "HTTP 401" in failure["error"] and "http://***@127.0.0.1" in failure["error"]
        stored = memory.runs(5)
        assert stored and all("Zq9-secret" not in str(r.failures) for r in stored)
        assert "Zq9-secret" not in str(run.failures)
    finally:
        memory.flush()
        memory.close()


def test_a_password_in_the_embedding_url_stays_out_of_its_errors(
    chat_server: ScriptedChatServer,
) -> None:
    port = chat_server.server_address[1]
    embedder = OpenAIEmbedder(
        "e", base_url=f"http://ops:Zq9-secret@127.0.0.1:{port}/v1", api_key="sk-embed-abcdefghijkl"
    )
    with pytest.raises(EmbeddingError) as caught:
        embedder.embed(["hello"])
    message = str(caught.value)
    assert "answered HTTP 404" in message and "http://***@127.0.0.1" in message
    assert "Zq9-secret" not in message and "sk-embed-abcdefghijkl" not in message
