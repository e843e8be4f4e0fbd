"""A dashboard login holds whichever server process answers (`somna serve --workers 2`), and
its logout ends it in all of them."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from somna.config import Settings
from somna.embed import BundledEmbedder
from somna.interfaces.api import create_app
from somna.interfaces.web.logins import LOGIN_DAYS, read_login
from somna.memory import Memory
from tests.interfaces.api.live import new_memory, serving
from tests.interfaces.api.test_cli import _free_port
from tests.interfaces.api.test_workers import SRC, _answering, _workers


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None, html
    return found.group(1)


@pytest.mark.slow  # server processes
def test_a_login_and_its_forms_hold_on_every_worker_until_the_key_is_revoked(
    tmp_path: Path, embedder: BundledEmbedder
) -> None:
    db = tmp_path / "x.db"
    with Memory(settings=Settings(db=str(db)), embedder=embedder) as memory:
        memory.create_profile("alice")
        facts = [memory.add_fact("alice", f"Plays instrument number {n}.").fact for n in range(6)]
        key, secret = memory.keys.create(profiles=["alice"], name="laptop")
    with _two_workers(db) as url:
        cookies = _logged_in(url, secret)
        pages = []
        for _ in range(30):  # a new connection each time: the kernel picks the process
            with httpx.Client(base_url=url, timeout=30, cookies=cookies) as fresh:
                pages.append(fresh.get("/ui/profiles/alice/facts", follow_redirects=False))
        assert [p.status_code for p in pages] == [200] * 30
        for fact in facts:  # each form, posted on a new connection, is done
            with httpx.Client(base_url=url, timeout=30, cookies=cookies) as fresh:
                done = fresh.post(
                    f"/ui/profiles/alice/facts/{fact.id}/verify",
                    data={"csrf": _csrf(pages[0].text)},
                    follow_redirects=False,
                )
                assert done.status_code == 303, done.text
                shown = fresh.get(done.headers["location"])
                assert "The fact is now verified." in shown.text
        with Memory(settings=Settings(db=str(db)), embedder=embedder) as memory:
            assert {f.status.value for f in memory.list_facts("alice")} == {"verified"}
            memory.keys.revoke(key.id)
        for _ in range(4):
            with httpx.Client(base_url=url, timeout=30, cookies=cookies) as fresh:
                out = fresh.get("/ui/profiles/alice/facts", follow_redirects=False)
            assert (out.status_code, out.headers["location"]) == (303, "/ui/login")


@pytest.mark.slow  # server processes
def test_a_logout_ends_the_login_on_every_worker_even_for_a_copy_of_its_cookie(
    tmp_path: Path, embedder: BundledEmbedder
) -> None:
    db = tmp_path / "x.db"
    with Memory(settings=Settings(db=str(db)), embedder=embedder) as memory:
        memory.create_profile("alice")
        _, secret = memory.keys.create(profiles=["alice"], name="laptop")
    with _two_workers(db) as url:
        copied = _logged_in(url, secret)
        other = _logged_in(url, secret)  # another browser, with the same key
        with httpx.Client(base_url=url, timeout=30, cookies=copied) as browser:
            page = browser.get("/ui/profiles/alice/facts")
            assert page.status_code == 200
            out = browser.post("/ui/logout", data={"csrf": _csrf(page.text)})
            assert (out.status_code, out.headers["location"]) == (303, "/ui/login")
        for _ in range(10):  # a new connection each time: the kernel picks the process
            with httpx.Client(base_url=url, timeout=30, cookies=copied) as thief:
                refused = thief.get("/ui/profiles/alice/facts", follow_redirects=False)
            assert (refused.status_code, refused.headers["location"]) == (303, "/ui/login")
            with httpx.Client(base_url=url, timeout=30, cookies=other) as fresh:
                assert fresh.get("/ui/profiles/alice/facts").status_code == 200


@contextmanager
def _two_workers(db: Path) -> Iterator[str]:
    """`somna serve --workers 2` on `db`; its URL, until the block ends."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "somna.interfaces.api", "--port", str(port), "--workers", "2"],
        env={**os.environ, "PYTHONPATH": SRC, "SOMNA_DB": str(db)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _answering(url, server)
        _workers(server, 2)
        yield url
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=60)


def _logged_in(url: str, secret: str) -> httpx.Cookies:
    """The cookies of a browser that has just logged in with `secret`."""
    with httpx.Client(base_url=url, timeout=30) as browser:
        form = browser.get("/ui/login")
        browser.post("/ui/login", data={"csrf": _csrf(form.text), "key": secret})
        return browser.cookies


def test_a_forged_or_altered_login_cookie_is_refused(
    tmp_path: Path, embedder: BundledEmbedder
) -> None:
    memory = new_memory(tmp_path, embedder)
    memory.create_profile("alice")
    memory.create_profile("bob")
    alice, secret = memory.keys.create(profiles=["alice"], name="alice")
    with serving(create_app(memory)) as url, httpx.Client(base_url=url, timeout=30) as client:
        form = client.get("/ui/login")
        client.post("/ui/login", data={"csrf": _csrf(form.text), "key": secret})
        value = client.cookies["somna_session"]
        assert secret not in value and alice.secret_hash not in value
        key_id, issued, nonce, signature = value.split(".")
        for forged in (
            f"{key_id}.{issued}.{nonce}.{'0' * len(signature)}",
            f"{key_id}.{int(issued) + 1}.{nonce}.{signature}",
            f"-.{issued}.{nonce}.{signature}",
            "garbage",
        ):
            with httpx.Client(base_url=url, timeout=30) as other:
                other.cookies.set("somna_session", forged, path="/ui")
                refused = other.get("/ui/profiles/alice/facts", follow_redirects=False)
            assert refused.status_code == 303, forged
        later = time.time() + LOGIN_DAYS * 86_400
        assert read_login(value, memory.keys.all(), time.time()) is not None
        assert read_login(value, memory.keys.all(), later) is None
    memory.close()
