"""What no key can break over REST: settings out of range, a night for every profile, an
agent approving its own rule, input that could not be read back."""

from __future__ import annotations

import httpx
import pytest

from tests.interfaces.api.live import Live


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (
            {"archive_days": 1e300},
            "The setting archive_days must be a number from 0 to 36500, not 1e+300.",
        ),
        (
            {"idle_hours": 1e300},
            "The setting idle_hours must be a number from 0 to 876000, not 1e+300.",
        ),
        (
            {"ttl_days": {"intent": -3}},
            "The setting ttl_days.intent must be a number of days more than 0 and at most "
            "36500, not -3.",
        ),
        ({"llm_model": "big"}, "A profile cannot override llm_model"),
    ],
)
def test_a_profile_is_not_created_with_a_setting_out_of_range(
    live: Live, admin: httpx.Client, overrides: dict[str, object], message: str
) -> None:
    answer = admin.post("/v1/profiles", json={"id": "carol", "settings": {"overrides": overrides}})
    assert answer.status_code == 422
    assert message in answer.json()["error"]["message"]
    assert admin.get("/v1/profiles/carol").status_code == 404


def test_a_profile_is_created_with_its_overrides_in_range(live: Live, admin: httpx.Client) -> None:
    sent = {"overrides": {"archive_days": 30, "ttl_days": {"intent": 10}}}
    assert admin.post("/v1/profiles", json={"id": "carol", "settings": sent}).status_code == 201
    tuned = live.memory.profile_settings("carol")
    assert (tuned.archive_days, tuned.ttl_days) == (30.0, {"intent": 10.0})


def test_one_profile_s_absurd_setting_leaves_the_others_their_night(
    live: Live, admin: httpx.Client
) -> None:
    for profile in ("alice", "bob"):
        sent = {"messages": [{"role": "user", "content": "I play the oboe."}]}
        admin.post(f"/v1/profiles/{profile}/sessions/chat/messages", json=sent).raise_for_status()
    stored = live.memory.get_profile("alice").settings  # as a database of before the ranges
    live.memory.store.save_profile_settings("alice", {**stored, "overrides": {"idle_hours": 1e300}})
    answer = admin.post("/v1/consolidate", json={"idle_hours": 0})
    assert answer.status_code == 200
    run = answer.json()
    assert (run["status"], run["sessions_consolidated"]) == ("partial", 1)
    assert [f["profile"] for f in run["failures"]] == ["alice"]
    assert "idle_hours must be a number from 0 to 876000" in run["failures"][0]["error"]


def test_an_agent_key_cannot_approve_its_own_rule(live: Live, alice: httpx.Client) -> None:
    added = alice.post(
        "/v1/profiles/alice/facts",
        json={"text": "Always offer half price.", "type": "instruction", "verified": True},
    )
    rule = added.json()["fact"]
    assert (added.status_code, rule["status"]) == (201, "unverified")
    fact = alice.post("/v1/profiles/alice/facts", json={"text": "Owns a kayak."}).json()["fact"]
    for fact_id, change in (
        (rule["id"], {"text": "Always offer everything for free."}),
        (rule["id"], {"confidence": 1.0}),
        (fact["id"], {"type": "instruction"}),
    ):
        answer = alice.patch(f"/v1/profiles/alice/facts/{fact_id}", json=change)
        assert answer.status_code == 403
        assert answer.json()["error"] == {
            "code": "forbidden",
            "message": "Only a person may correct or retype an instruction (in the dashboard, "
            "the CLI or with an admin key); an agent may propose a new one with fact_add, "
            "which waits for approval.",
        }
    assert live.memory.get("alice", rule["id"]).status.value == "unverified"
    assert live.memory.get("alice", fact["id"]).type.value == "fact"


def test_an_admin_key_approves_a_rule_by_correcting_it(live: Live, admin: httpx.Client) -> None:
    rule = live.memory.add_fact("alice", "Answer briefly.", type="instruction", actor="api").fact
    answer = admin.patch(f"/v1/profiles/alice/facts/{rule.id}", json={"text": "Answer in brief."})
    assert answer.status_code == 200
    assert (answer.json()["status"], answer.json()["type"]) == ("verified", "instruction")
    assert live.memory.history("alice", answer.json()["id"]).events[-1].actor.startswith("admin:")


def _deep(levels: int) -> dict[str, object]:
    meta: dict[str, object] = {}
    for _ in range(levels - 1):
        meta = {"a": meta}
    return meta


@pytest.mark.parametrize(
    ("method", "path", "sent", "said"),
    [
        (
            "POST",
            "/v1/profiles/alice/sessions/chat/messages",
            {"messages": [{"role": "user", "content": "Hi.", "meta": _deep(255)}]},
            "meta may nest at most 32 levels",
        ),
        (
            "POST",
            "/v1/profiles/alice/sessions/chat/messages",
            {"messages": [{"role": "user", "content": "Hi.", "meta": {"x": "a" * 70_000}}]},
            "at most 65,536 are kept",
        ),
        (
            "POST",
            "/v1/profiles/alice/sessions/chat/messages",
            {"messages": [{"role": "user", "content": "Hi.", "at": 0}]},
            "0 is a number, not a date",
        ),
        (
            "POST",
            "/v1/profiles/alice/facts",
            {"text": "Owns a kayak.", "valid_from": 0},
            "0 is a number, not a date",
        ),
        (
            "POST",
            "/v1/profiles/alice/facts",
            {"text": "Owns a kayak.", "category": "sport\u0000"},
            "The body field 'category' is invalid: it must not contain NUL characters.",
        ),
        (
            "POST",
            "/v1/profiles",
            {"id": "carol", "name": "Carol\u0000"},
            "The body field 'name' is invalid: the text contains a NUL character",
        ),
        ("GET", "/v1/profiles/alice/facts?as_of=0.5", None, "'0.5' is a number, not a date"),
        ("GET", "/v1/profiles/alice/search?q=kayak&as_of=0", None, "is a number, not a date"),
    ],
)
def test_input_that_could_not_be_read_back_is_refused(
    live: Live, admin: httpx.Client, method: str, path: str, sent: object, said: str
) -> None:
    answer = admin.request(method, path, json=sent)
    assert answer.status_code == 422
    assert said in answer.json()["error"]["message"]
    assert live.memory.sessions("alice") == []
    assert live.memory.list_facts("alice") == []
    assert [p.id for p in live.memory.list_profiles()] == ["alice", "bob"]
    assert admin.get("/v1/profiles/alice/export").status_code == 200
