"""The JSON plumbing shared by HTTP providers: strict schemas, tolerant parsing, validation."""

from __future__ import annotations

import json
from typing import Any

import pytest

from somna.llm import EXTRACT, JUDGE, Judgements, JudgeRequest, SessionDigest
from somna.llm.structured import ReplyShapeError, parse_json_object, strict_schema, validate_reply
from tests.llm.helpers import digest_json, transcript


def _objects(node: Any) -> list[dict[str, Any]]:
    found = []
    if isinstance(node, dict):
        if node.get("type") == "object":
            found.append(node)
        for value in node.values():
            found += _objects(value)
    elif isinstance(node, list):
        for value in node:
            found += _objects(value)
    return found


@pytest.mark.parametrize("model", [SessionDigest, Judgements])
def test_strict_schema_follows_strict_mode_rules(model: type[SessionDigest | Judgements]) -> None:
    schema = strict_schema(model)
    text = json.dumps(schema)
    for keyword in ("$ref", "$defs", '"title"', '"default"', '"minimum"', '"maximum"'):
        assert keyword not in text
    objects = _objects(schema)
    assert objects
    for node in objects:
        assert node["additionalProperties"] is False
        assert node["required"] == list(node["properties"])


def test_strict_schema_keeps_enums_and_nullable_fields() -> None:
    fact = strict_schema(SessionDigest)["properties"]["facts"]["items"]["properties"]
    assert fact["type"]["enum"] == ["fact", "entity", "glossary", "instruction", "persona", "other"]
    assert {"type": "null"} in fact["message_index"]["anyOf"]
    assert {"type": "null"} in fact["valid_from"]["anyOf"]
    assert fact["confidence"] == {"type": "number"}


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1}',
        '  ```json\n{"a": 1}\n```  ',
        'Here it is: {"a": 1} Anything else?',
        '<think>{"draft": true}</think>{"a": 1}',
        'Bad {start then {"a": 1}',
        '```\n{"a": 1}\n```',
    ],
)
def test_parse_json_object_tolerates_wrapping(text: str) -> None:
    assert parse_json_object(text) == {"a": 1}


@pytest.mark.parametrize("text", ["", "no json", "[1, 2]", '"a string"', "{broken"])
def test_parse_json_object_refuses_what_holds_no_object(text: str) -> None:
    with pytest.raises(ReplyShapeError, match="no JSON object"):
        parse_json_object(text)


def test_validate_reply_names_what_is_wrong() -> None:
    session = transcript(("user", None, "I love hiking."))
    assert validate_reply(EXTRACT, session, digest_json()).facts[0].confidence == 0.9
    with pytest.raises(ReplyShapeError, match="the reply is empty"):
        validate_reply(EXTRACT, session, "  ")
    with pytest.raises(ReplyShapeError, match=r"facts: Field required"):
        validate_reply(EXTRACT, session, '{"summary": "Odile spoke."}')


def test_facts_are_validated_one_by_one_and_mended_where_possible() -> None:
    session = transcript(("user", None, "I love hiking."))
    good = json.loads(digest_json())["facts"][0]
    answer = digest_json(
        facts=[
            {**good, "confidence": 100, "valid_from": "YYYY-MM-DD"},
            {**good, "confidence": 1.4, "valid_from": "soon"},
            {**good, "confidence": -2},
            {**good, "text": ""},
            {**good, "type": "mood", "text": "Odile is moody."},
            "Odile loves hiking.",
        ]
    )
    digest = validate_reply(EXTRACT, session, answer)
    assert [(f.confidence, f.valid_from) for f in digest.facts] == [
        (1.0, None),
        (1.0, None),
        (0.0, None),
    ]
    assert [r.text for r in digest.rejected] == ["", "Odile is moody.", "Odile loves hiking."]
    assert "text: Value error, it is empty" in digest.rejected[0].reason
    assert digest.rejected[1].reason.startswith("type: Input should be")
    assert "rejected" not in json.dumps(strict_schema(SessionDigest))
    assert "rejected" not in digest.model_dump()


def test_dates_are_normalized_and_empty_ones_are_null() -> None:
    session = transcript(("user", None, "I love hiking."))
    fact = json.loads(digest_json())["facts"][0]
    for given, kept in [
        ("2026-05-01T10:00:00Z", "2026-05-01"),
        ("2026-05", "2026-05-01"),
        ("", None),
    ]:
        reply = digest_json(facts=[{**fact, "valid_from": given, "category": " Preference "}])
        value = validate_reply(EXTRACT, session, reply).facts[0]
        assert (value.valid_from, value.category) == (kept, "preference")


def test_judge_check_refuses_verdicts_for_pairs_not_asked() -> None:
    request = JudgeRequest(pairs=[{"pair_id": 1, "new": "a", "existing": "b"}])
    answer = {"verdicts": [{"pair_id": 2, "verdict": "distinct", "reason": "-"}]}
    with pytest.raises(ReplyShapeError, match=r"missing pairs \[1\]; unknown pairs \[2\]"):
        validate_reply(JUDGE, request, json.dumps(answer))
    twice = {"verdicts": [{"pair_id": 1, "verdict": "distinct", "reason": "-"}] * 2}
    with pytest.raises(ReplyShapeError, match=r"pairs judged twice \[1\]"):
        validate_reply(JUDGE, request, json.dumps(twice))
