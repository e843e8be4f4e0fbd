"""The dashboard over plain HTTP: a local server without keys, and a prefix key's profiles."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from somna.config import Settings, bounds, profile_marks
from somna.embed import BundledEmbedder
from somna.interfaces.api import create_app
from somna.memory import Memory
from somna.store.sqlite import SQLiteStore
from tests.interfaces.api.live import new_memory


def test_a_local_server_opens_the_dashboard_without_a_key_but_with_csrf(
    tmp_path: Path, embedder: BundledEmbedder
) -> None:
    memory = new_memory(tmp_path, embedder)
    memory.create_profile("ann")
    fact = memory.add_fact("ann", "Plays the oboe.").fact
    with TestClient(create_app(memory, auth=False), base_url="http://127.0.0.1") as client:
        login = client.get("/ui/login")
        assert "runs without API keys" in login.text
        assert client.get("/ui/profiles/ann/facts", follow_redirects=False).status_code == 303
        csrf = re.search(r'name="csrf" value="([^"]+)"', login.text)
        assert csrf is not None
        client.post("/ui/login", data={"csrf": csrf.group(1)})
        page = client.get("/ui/profiles/ann/facts")
        assert page.status_code == 200 and "Plays the oboe." in page.text
        refused = client.post(f"/ui/profiles/ann/facts/{fact.id}/verify", data={"csrf": "forged"})
        assert refused.status_code == 403
        token = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert token is not None
        client.post(f"/ui/profiles/ann/facts/{fact.id}/verify", data={"csrf": token.group(1)})
    assert memory.get("ann", fact.id).status.value == "verified"
    assert memory.history("ann", fact.id).events[-1].actor == "ui"
    memory.close()


def _login(client: TestClient, secret: str) -> None:
    form = re.search(r'name="csrf" value="([^"]+)"', client.get("/ui/login").text)
    assert form is not None
    client.post("/ui/login", data={"csrf": form.group(1), "key": secret})


def test_a_prefix_key_switches_between_the_profiles_under_its_prefix(
    tmp_path: Path, embedder: BundledEmbedder
) -> None:
    memory = new_memory(tmp_path, embedder)
    for profile in ("team-a", "team-b", "zed"):
        memory.create_profile(profile)
    _, secret = memory.keys.create(prefix="team-", name="bot")
    with TestClient(create_app(memory), base_url="http://127.0.0.1") as client:
        _login(client, secret)
        page = client.get("/ui/profiles/team-b/facts")
        switcher = page.text.split('id="profile-switch"')[1].split("</select>")[0]
        options = re.findall(r"<option value=\"([^\"]+)\"", switcher)
        assert options == ["team-a", "team-b"]
        assert client.get("/ui/profiles/zed/facts").status_code == 404
        assert client.get("/ui/profiles/team-new/facts").status_code == 404
    assert [p.id for p in memory.list_profiles()] == ["team-a", "team-b", "zed"]
    memory.close()


def test_the_settings_page_shows_the_models_without_their_secrets(
    tmp_path: Path, embedder: BundledEmbedder
) -> None:
    settings = Settings(
        llm_provider="openai",
        llm_model="small-model",
        llm_base_url="http://user:hunter2@127.0.0.1:11434/v1?token=abc",
        llm_api_key="sk-secret",
    )
    memory = Memory(store=SQLiteStore(tmp_path / "s.db"), embedder=embedder, settings=settings)
    memory.create_profile("ann")
    with TestClient(create_app(memory, auth=False), base_url="http://127.0.0.1") as client:
        _login(client, "")
        page = client.get("/ui/profiles/ann/settings").text
    assert "small-model" in page and "127.0.0.1:11434/v1" in page
    assert not any(secret in page for secret in ("hunter2", "token=abc", "sk-secret", "user:"))
    memory.close()


def test_the_settings_form_asks_for_each_setting_a_profile_may_override_within_its_range(
    tmp_path: Path, embedder: BundledEmbedder
) -> None:
    memory = new_memory(tmp_path, embedder)
    memory.create_profile("ann")
    with TestClient(create_app(memory, auth=False), base_url="http://127.0.0.1") as client:
        _login(client, "")
        page = client.get("/ui/profiles/ann/settings").text
    boxes = re.findall(
        r'<input id="(\w+)" name="\1" type="number" [^>]*min="([^"]+)" '
        r'max="([^"]+)"',
        page,
    )
    numbers = [name for name, mark in profile_marks().items() if mark.step is not None]
    assert [name for name, _, _ in boxes] == numbers
    assert all((float(low), float(high)) == bounds(name) for name, low, high in boxes)
    assert '<textarea id="ttl" name="ttl"' in page and "Time to live per category" in page
    memory.close()
