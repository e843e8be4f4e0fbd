"""The OpenAPI document is valid, and a bounded Schemathesis run over it finds no server error.

The fuzzing runs against a live server on a throwaway database with an admin
key: every operation gets up to 20 valid requests (inside the existing profile
alice, so they reach the domain rather than stop at a missing profile) and 20
invalid ones, generated deterministically. Every answer must be under 500, have a documented status
and match its documented schema (errors included: the one envelope).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Ok
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.interfaces.api.live import Live

pytestmark = pytest.mark.slow  # fuzzing every operation

EXAMPLES = 20


def test_the_openapi_document_is_valid_and_documents_auth(live: Live) -> None:
    with httpx.Client(base_url=live.url) as client:
        document = client.get("/openapi.json").json()
        assert client.get("/docs").status_code == 200
    schemathesis.openapi.from_dict(document).validate()
    assert document["openapi"].startswith("3.")
    assert set(document["components"]["securitySchemes"]) == {"bearer", "apiKey"}
    facts = document["paths"]["/v1/profiles/{profile}/facts"]["post"]
    assert {"201", "200", "401", "404", "413", "422"} <= set(facts["responses"])
    assert facts["responses"]["422"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ErrorEnvelope"
    }


def test_fuzzing_every_operation_finds_no_server_error(live: Live) -> None:
    with httpx.Client(base_url=live.url) as client:
        document = client.get("/openapi.json").json()
    schema = schemathesis.openapi.from_dict(document)
    headers = {"Authorization": f"Bearer {live.admin}"}
    checks = [
        not_a_server_error,
        status_code_conformance,
        content_type_conformance,
        response_schema_conformance,
    ]
    tested = []
    for result in schema.get_all_operations():
        assert isinstance(result, Ok), result
        operation = result.ok()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            inside_alice = (
                mode is GenerationMode.POSITIVE
                and "{profile}" in operation.path
                and operation.method.upper() != "DELETE"
            )
            fixed = {"profile": "alice"} if inside_alice else None

            @settings(
                max_examples=EXAMPLES,
                deadline=None,
                database=None,
                derandomize=True,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck),
            )
            @given(case=operation.as_strategy(generation_mode=mode, path_parameters=fixed))
            def exercise(case: schemathesis.Case[Any]) -> None:
                response = case.call(base_url=live.url, headers=headers, timeout=30)
                case.validate_response(response, checks=checks)

            try:
                exercise()
            except Unsatisfiable:
                # Nothing to make invalid: an operation without parameters or body.
                assert mode is GenerationMode.NEGATIVE and operation.path == "/v1/health"
        tested.append(operation.label)
    assert len(tested) == sum(len(ops) for ops in document["paths"].values())
