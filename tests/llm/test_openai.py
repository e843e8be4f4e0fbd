"""OpenAILLM through the real ``openai`` client against a local scripted chat server."""

from __future__ import annotations

import json
from typing import Any

import pytest

from somna.errors import ConfigurationError, InvalidInputError, LLMError
from somna.llm import (
    EXTRACT,
    JUDGE,
    LLM,
    REWRITE,
    JudgeRequest,
    LLMCallError,
    OpenAILLM,
    RewriteRequest,
    SessionDigest,
    SessionTranscript,
)
from somna.model import FactType, Verdict
from tests.llm.helpers import digest_json, transcript, typical_transcript
from tests.llm.scripted_server import Script, ScriptedChatServer, completion

FAST: dict[str, Any] = {"backoff": 0.001, "max_backoff": 0.01, "fold_system": "never"}
"""Quick retries; instructions in the system message (the folding tests ask for "auto")."""


def _llm(server: ScriptedChatServer, **options: Any) -> OpenAILLM:
    return OpenAILLM("scripted-model", base_url=server.url, **{**FAST, **options})


def _session() -> SessionTranscript:
    return transcript(("user", "Odile", "I love hiking."), user="Odile")


def test_json_schema_answer_is_validated(chat_server: ScriptedChatServer) -> None:
    chat_server.reply(digest_json(), prompt_tokens=321, completion_tokens=45)
    with _llm(chat_server) as llm:
        assert isinstance(llm, LLM)
        reply = llm.structured(EXTRACT, _session())
        assert llm.name == "openai:scripted-model"
        assert llm.mode == "json_schema"
    assert isinstance(reply.value, SessionDigest)
    (fact,) = reply.value.facts
    assert fact.type is FactType.FACT
    assert fact.text == "Odile loves hiking."
    assert (reply.prompt_tokens, reply.completion_tokens, reply.calls) == (321, 45, 1)
    (request,) = chat_server.requests
    assert request["model"] == "scripted-model"
    assert [m["role"] for m in request["messages"]] == ["system", "user"]
    assert "[0] Odile: I love hiking." in request["messages"][1]["content"]
    response_format = request["response_format"]
    assert response_format["type"] == "json_schema"
    assert response_format["json_schema"]["name"] == "extract"
    assert response_format["json_schema"]["strict"] is True
    schema = response_format["json_schema"]["schema"]
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["summary", "facts"]
    assert "$defs" not in json.dumps(schema)
    assert "temperature" not in request


def test_refused_json_schema_falls_back_to_json_object_and_remembers(
    chat_server: ScriptedChatServer,
) -> None:
    chat_server.fail(400, "response_format.type 'json_schema' is not supported by this server")
    chat_server.fail(400, "response_format: unknown field 'schema'")
    chat_server.reply(digest_json())
    chat_server.reply(digest_json())
    with _llm(chat_server) as llm:
        first = llm.structured(EXTRACT, _session())
        assert llm.mode == "json_object"
        second = llm.structured(EXTRACT, _session())
    assert first.calls == 3
    assert second.calls == 1
    formats = [request.get("response_format") for request in chat_server.requests]
    assert formats[0]["type"] == "json_schema"
    assert formats[1]["type"] == "json_object" and formats[1]["schema"]["required"] == [
        "summary",
        "facts",
    ]
    assert formats[2:] == [{"type": "json_object"}, {"type": "json_object"}]
    assert first.value == second.value


@pytest.mark.parametrize(
    "refusal",
    [
        Script(
            500, "1 validation error: response_format.type: Input should be 'text' or 'json_object'"
        ),
        Script(
            500,
            {
                "detail": [
                    {
                        "loc": ["body", "response_format", "type"],
                        "msg": "Input should be 'text' or 'json_object'",
                    }
                ]
            },
        ),
    ],
    ids=["message", "detail"],
)
def test_a_500_naming_the_response_format_falls_back_at_once_and_is_remembered_per_model(
    chat_server: ScriptedChatServer, refusal: Script
) -> None:
    """llama-cpp-python's server: json_schema refused with HTTP 500, a schema inside
    json_object taken (grammar-constrained)."""
    chat_server.push(refusal)
    chat_server.reply(digest_json())
    chat_server.reply(digest_json())
    chat_server.reply(digest_json())
    with _llm(chat_server, max_retries=3) as llm:
        assert llm.structured(EXTRACT, _session()).calls == 2  # no retry of the refusal
        assert llm.mode == "json_object_schema"
    with _llm(chat_server) as again:  # a new instance, same endpoint and model: remembered
        assert again.mode == "json_object_schema"
        assert again.structured(EXTRACT, _session()).calls == 1
    with OpenAILLM("other-model", base_url=chat_server.url, **FAST) as other:
        assert other.mode == "json_schema"  # another model on the same server starts afresh
        other.structured(EXTRACT, _session())
    kinds = [
        (r["response_format"]["type"], "schema" in r["response_format"])
        for r in chat_server.requests
    ]
    assert kinds == [
        ("json_schema", False),
        ("json_object", True),
        ("json_object", True),
        ("json_schema", False),
    ]


def test_non_json_answers_fall_back_to_a_tolerant_parse(chat_server: ScriptedChatServer) -> None:
    chat_server.reply("Sure! Here are the facts you asked for.")
    chat_server.reply("I cannot produce JSON, sorry.")
    fenced = f"<think>Let me see.</think>Here you go:\n```json\n{digest_json()}\n```\nDone."
    chat_server.reply("No JSON here either.")
    chat_server.reply(fenced)
    with _llm(chat_server) as llm:
        reply = llm.structured(EXTRACT, _session())
        assert llm.mode == "text"
    assert reply.calls == 4
    assert reply.value.facts[0].quote == "I love hiking."
    formats = [request.get("response_format") for request in chat_server.requests]
    assert formats[0]["type"] == "json_schema"
    assert formats[1]["type"] == "json_object" and "schema" in formats[1]
    assert formats[2] == {"type": "json_object"}
    assert formats[3] is None


def test_a_wrong_answer_does_not_downgrade_later_calls(chat_server: ScriptedChatServer) -> None:
    chat_server.reply('{"summary": "no facts"}')
    chat_server.reply(digest_json())
    chat_server.reply(digest_json())
    with _llm(chat_server) as llm:
        assert llm.structured(EXTRACT, _session()).calls == 2
        assert llm.mode == "json_schema"
        assert llm.structured(EXTRACT, _session()).calls == 1
    formats = [request["response_format"]["type"] for request in chat_server.requests]
    assert formats == ["json_schema", "json_object", "json_schema"]


@pytest.mark.parametrize(
    ("answer", "complaint"),
    [
        ("This is not JSON at all.", "holds no JSON object"),
        ('{"summary": 3}', "facts: Field required"),
        (digest_json(facts="none"), "facts: Input should be a valid list"),
        (digest_json(summary=None), "summary: Input should be a valid string"),
        ("[1, 2, 3]", "holds no JSON object"),
    ],
)
def test_malformed_answers_raise_never_a_partial_value(
    chat_server: ScriptedChatServer, answer: str, complaint: str
) -> None:
    for _ in range(4):
        chat_server.reply(answer, prompt_tokens=7, completion_tokens=3)
    with _llm(chat_server) as llm, pytest.raises(LLMError) as caught:
        llm.structured(EXTRACT, _session())
    message = str(caught.value)
    assert "'extract'" in message
    assert "modes tried: json_schema, json_object_schema, json_object, text" in message
    assert complaint in message
    assert isinstance(caught.value, LLMCallError)
    assert (caught.value.calls, caught.value.prompt_tokens, caught.value.completion_tokens) == (
        4,
        28,
        12,
    )
    assert chat_server.pending == 0


def test_rate_limit_is_retried_and_counted(chat_server: ScriptedChatServer) -> None:
    chat_server.fail(429, "slow down")
    chat_server.reply(digest_json(), prompt_tokens=100, completion_tokens=20)
    with _llm(chat_server) as llm:
        reply = llm.structured(EXTRACT, _session())
    assert reply.calls == 2
    assert (reply.prompt_tokens, reply.completion_tokens) == (100, 20)
    assert [r["response_format"]["type"] for r in chat_server.requests] == ["json_schema"] * 2


def test_server_errors_are_retried_then_reported(chat_server: ScriptedChatServer) -> None:
    for _ in range(3):
        chat_server.fail(503, "overloaded")
    with (
        _llm(chat_server, max_retries=2) as llm,
        pytest.raises(LLMError, match="HTTP 503") as caught,
    ):
        llm.structured(EXTRACT, _session())
    assert isinstance(caught.value, LLMCallError)
    assert caught.value.calls == 3
    assert len(chat_server.requests) == 3


def test_client_errors_are_not_retried(chat_server: ScriptedChatServer) -> None:
    chat_server.fail(401, "invalid api key")
    with _llm(chat_server) as llm, pytest.raises(LLMError, match="HTTP 401: invalid api key"):
        llm.structured(EXTRACT, _session())
    assert len(chat_server.requests) == 1


def test_a_timeout_is_not_retried_by_default(chat_server: ScriptedChatServer) -> None:
    """A one-at-a-time server keeps working on the request the client gave up: a retry
    would only queue behind it."""
    chat_server.push(Script(200, digest_json(), delay=2.0))
    chat_server.reply(digest_json())
    with (
        _llm(chat_server, timeout=0.25, max_retries=3) as llm,
        pytest.raises(LLMCallError, match=r"timed out after 0.25 s \(1 try\).*LLM_TIMEOUT_S"),
    ):
        llm.structured(EXTRACT, _session())
    assert len(chat_server.requests) == 1
    assert chat_server.pending == 1


def test_a_timeout_is_retried_when_asked(chat_server: ScriptedChatServer) -> None:
    chat_server.push(Script(200, digest_json(), delay=2.0))
    chat_server.reply(digest_json())
    with _llm(chat_server, timeout=0.25, retry_timeouts=True) as llm:
        reply = llm.structured(EXTRACT, _session())
    assert reply.calls == 2
    assert reply.value.facts[0].text == "Odile loves hiking."


def test_persistent_timeouts_raise(chat_server: ScriptedChatServer) -> None:
    for _ in range(2):
        chat_server.push(Script(200, digest_json(), delay=2.0))
    with (
        _llm(chat_server, timeout=0.2, max_retries=1, retry_timeouts=True) as llm,
        pytest.raises(LLMError, match=r"timed out after 0.2 s \(2 tries\)") as caught,
    ):
        llm.structured(EXTRACT, _session())
    assert isinstance(caught.value, LLMCallError)
    assert caught.value.calls == 2


def test_usage_is_summed_over_every_call(chat_server: ScriptedChatServer) -> None:
    chat_server.reply('{"summary": "no facts key"}', prompt_tokens=100, completion_tokens=20)
    chat_server.fail(500, "hiccup")
    chat_server.reply(digest_json(), prompt_tokens=120, completion_tokens=30)
    with _llm(chat_server) as llm:
        reply = llm.structured(EXTRACT, _session())
    assert (reply.prompt_tokens, reply.completion_tokens, reply.calls) == (220, 50, 3)


def test_a_refusal_or_a_reply_cut_twice_raises(chat_server: ScriptedChatServer) -> None:
    chat_server.push(Script(200, completion(None, refusal="I can't help with that.")))
    chat_server.push(Script(200, completion('{"summary": "cut', finish_reason="length")))
    chat_server.push(Script(200, completion('{"summary": "cut ag', finish_reason="length")))
    with _llm(chat_server) as llm:
        with pytest.raises(LLMError, match="refused by the model"):
            llm.structured(EXTRACT, _session())
        with pytest.raises(
            LLMCallError, match=r"cut at its output limit twice \(2048 then 4096 tokens\)"
        ) as caught:
            llm.structured(EXTRACT, _session())
    assert "SOMNA_LLM_MAX_TOKENS_EXTRACT" in str(caught.value)
    assert caught.value.calls == 2


def test_every_call_sends_its_task_budget_and_a_cut_reply_gets_twice_as_much(
    chat_server: ScriptedChatServer,
) -> None:
    chat_server.push(Script(200, completion('{"summary": "Odile', finish_reason="length")))
    chat_server.reply(digest_json())
    chat_server.reply('{"query": "Odile hiking"}')
    with _llm(chat_server, max_tokens={"extract": 300}) as llm:
        reply = llm.structured(EXTRACT, _session())
        llm.structured(REWRITE, RewriteRequest(query="what does she like?"))
    assert reply.calls == 2
    assert reply.value.facts[0].text == "Odile loves hiking."
    assert [r["max_tokens"] for r in chat_server.requests] == [300, 600, 128]
    assert all("max_completion_tokens" not in r for r in chat_server.requests)


def test_a_200_whose_body_is_not_json_raises_an_llm_error(
    chat_server: ScriptedChatServer,
) -> None:
    chat_server.push(Script(200, "json:<html><body>Bad gateway</body></html>"))
    with _llm(chat_server, max_retries=3) as llm, pytest.raises(LLMCallError) as caught:
        llm.structured(EXTRACT, _session())
    assert "answered with a body that is not JSON" in str(caught.value)
    assert caught.value.calls == 1


def test_a_chat_template_that_drops_the_system_message_is_detected(
    chat_server: ScriptedChatServer,
) -> None:
    """Gemma's template in llama-cpp-python: the instructions never reach the model, which
    chats instead; folded into the user message they do."""

    def template(body: dict[str, Any]) -> Script:
        if body["messages"][0]["role"] == "system":
            return Script(200, "Hello! How can I help you today?")
        return Script(200, digest_json())

    chat_server.responder = template
    with _llm(chat_server, fold_system="auto") as llm:
        assert not llm.folds_system
        first = llm.structured(EXTRACT, _session())
        assert llm.folds_system and llm.mode == "json_schema"
        second = llm.structured(EXTRACT, _session())
    assert (first.calls, second.calls) == (2, 1)
    roles = [[m["role"] for m in r["messages"]] for r in chat_server.requests]
    assert roles == [["system", "user"], ["user"], ["user"]]
    folded = chat_server.requests[1]["messages"][0]["content"]
    assert folded.startswith("Turn this conversation into long-term memory")
    assert folded.endswith("[0] Odile: I love hiking.")


def test_a_server_that_reads_the_system_message_is_never_folded(
    chat_server: ScriptedChatServer,
) -> None:
    chat_server.reply(digest_json())
    chat_server.reply('{"summary": "no facts key"}')
    chat_server.reply(digest_json())
    with _llm(chat_server, fold_system="auto") as llm:
        llm.structured(EXTRACT, _session())
        assert llm.structured(EXTRACT, _session()).calls == 2  # the next mode, not a fold
        assert not llm.folds_system
    with _llm(chat_server, fold_system="always") as llm:
        chat_server.reply(digest_json())
        llm.structured(EXTRACT, _session())
    roles = [[m["role"] for m in r["messages"]] for r in chat_server.requests]
    assert roles == [["system", "user"]] * 3 + [["user"]]


def test_one_bad_fact_is_set_aside_with_its_reason(chat_server: ScriptedChatServer) -> None:
    good = json.loads(digest_json())["facts"][0]
    chat_server.reply(
        digest_json(
            facts=[
                good,
                {**good, "text": "", "quote": "I love hiking."},
                {**good, "confidence": 100, "valid_from": "YYYY-MM-DD"},
            ]
        )
    )
    with _llm(chat_server) as llm:
        reply = llm.structured(EXTRACT, _session())
    assert reply.calls == 1
    assert [(f.confidence, f.valid_from) for f in reply.value.facts] == [(0.9, None), (1.0, None)]
    (rejected,) = reply.value.rejected
    assert rejected.reason == "text: Value error, it is empty"


def test_credentials_never_reach_an_error_message(chat_server: ScriptedChatServer) -> None:
    port = chat_server.server_address[1]
    secret_url = f"http://alice:s3cr3t-pw@127.0.0.1:{port}/v1"
    key = "sk-live-abcdefghijklmnop"
    chat_server.fail(401, f"Incorrect API key provided: {key}. Check {secret_url}")
    with (
        OpenAILLM("m", base_url=secret_url, api_key=key, **FAST) as llm,
        pytest.raises(LLMCallError) as caught,
    ):
        assert "s3cr3t" not in llm.base_url
        llm.structured(EXTRACT, _session())
    message = str(caught.value)
    assert "HTTP 401" in message and "http://***@127.0.0.1" in message
    assert "s3cr3t" not in message and key not in message and "alice" not in message


def test_judge_answers_must_cover_exactly_the_pairs_asked(chat_server: ScriptedChatServer) -> None:
    request = JudgeRequest(
        pairs=[
            {
                "pair_id": 1,
                "new": "Odile lives in Berlin.",
                "existing": "Odile lives in Paris.",
            },
            {"pair_id": 2, "new": "Odile likes tea.", "existing": "Odile hates tea."},
        ]
    )
    wrong = {"verdicts": [{"pair_id": 1, "verdict": "supersedes", "reason": "moved"}]}
    right = {
        "verdicts": [
            {"pair_id": 2, "verdict": "contradicts", "reason": "opposite"},
            {"pair_id": 1, "verdict": "supersedes", "reason": "moved"},
        ]
    }
    chat_server.reply(json.dumps(wrong))
    chat_server.reply(json.dumps(right))
    with _llm(chat_server) as llm:
        reply = llm.structured(JUDGE, request)
    assert reply.calls == 2
    assert reply.value.by_pair()[2].verdict is Verdict.CONTRADICTS
    assert "#1 new: Odile lives in Berlin." in chat_server.requests[0]["messages"][1]["content"]


def test_temperature_is_sent_only_when_set(chat_server: ScriptedChatServer) -> None:
    chat_server.reply(digest_json())
    with _llm(chat_server, temperature=0.0) as llm:
        llm.structured(EXTRACT, _session())
    assert chat_server.requests[0]["temperature"] == 0.0


def test_a_typical_request_stays_well_under_1500_prompt_tokens(
    chat_server: ScriptedChatServer,
) -> None:
    """Tokens estimated as characters / 4 (no tokenizer here); the schema is counted too."""
    chat_server.reply(digest_json())
    session = typical_transcript()
    with _llm(chat_server) as llm:
        llm.structured(EXTRACT, session)
    request = chat_server.requests[0]
    transcript_chars = len(request["messages"][1]["content"])
    assert 700 <= transcript_chars / 4 <= 900  # the "typical 800-token session"
    messages_chars = sum(len(m["content"]) for m in request["messages"])
    schema_chars = len(json.dumps(request["response_format"], separators=(",", ":")))
    assert messages_chars / 4 < 1250  # instructions of ~400 tokens on top of the transcript
    assert (messages_chars + schema_chars) / 4 < 1450  # strict mode sends the schema as well


def test_from_env_sends_the_openai_key_only_where_it_belongs(
    chat_server: ScriptedChatServer,
) -> None:
    def authorization(environ: dict[str, str]) -> str:
        chat_server.reply(digest_json())
        with OpenAILLM.from_env(environ, **FAST) as llm:
            llm.structured(EXTRACT, _session())
        return chat_server.headers[-1]["authorization"]

    base = {"SOMNA_LLM_MODEL": "local-model"}
    # OPENAI_BASE_URL and OPENAI_API_KEY travel together.
    assert authorization(
        {**base, "OPENAI_BASE_URL": chat_server.url, "OPENAI_API_KEY": "sk-a"}
    ) == ("Bearer sk-a")
    # A server chosen for Somna never gets the OpenAI key.
    assert authorization(
        {**base, "SOMNA_LLM_BASE_URL": chat_server.url, "OPENAI_API_KEY": "sk-a"}
    ) == ("Bearer unused")
    # Unless it is the very endpoint OPENAI_BASE_URL names.
    same = {"SOMNA_LLM_BASE_URL": chat_server.url + "/", "OPENAI_BASE_URL": chat_server.url}
    assert authorization({**base, **same, "OPENAI_API_KEY": "sk-a"}) == "Bearer sk-a"
    # Somna's own key goes wherever Somna's base URL points.
    own = {"SOMNA_LLM_BASE_URL": chat_server.url, "SOMNA_LLM_API_KEY": "sk-somna"}
    assert authorization({**base, **own, "OPENAI_API_KEY": "sk-a"}) == "Bearer sk-somna"
    assert {request["model"] for request in chat_server.requests} == {"local-model"}


def test_from_env_refuses_incomplete_settings() -> None:
    with pytest.raises(ConfigurationError, match="SOMNA_LLM_MODEL"):
        OpenAILLM.from_env({"SOMNA_LLM_BASE_URL": "http://127.0.0.1:9/v1"})
    with pytest.raises(ConfigurationError, match="needs an API key"):
        OpenAILLM.from_env({})  # OpenAI itself, and no key anywhere
    with OpenAILLM.from_env({"OPENAI_API_KEY": "sk-test"}) as llm:
        assert llm.name == "openai:gpt-4o-mini"
    with pytest.raises(InvalidInputError):
        OpenAILLM("", base_url="http://127.0.0.1:9/v1")


def test_a_server_traceback_becomes_one_short_line(chat_server: ScriptedChatServer) -> None:
    chat_server.fail(400, "Bad request:\n  Traceback (most recent call last):\n" + "x" * 900)
    with _llm(chat_server) as llm, pytest.raises(LLMCallError) as caught:
        llm.structured(EXTRACT, _session())
    message = str(caught.value)
    assert "\n" not in message and "Bad request: Traceback (most recent call last): xxx" in message
    assert message.endswith("....") and len(message) < 450
