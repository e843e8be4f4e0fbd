"""Fixtures of the dashboard tests: a real server over a seeded demo, and Debian's chromium.

The browser is the system's `/usr/bin/chromium` (installed by `make` when
missing), driven by Playwright; no browser is ever downloaded.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from somna.config import Settings
from somna.embed import BundledEmbedder
from somna.interfaces.api import create_app
from somna.memory import Memory
from somna.store.sqlite import SQLiteStore
from tests.interfaces.api.live import serving
from tests.interfaces.web.seed import DEMO, Seeded, seed
from tests.support import Clock

CHROMIUM = "/usr/bin/chromium"


@dataclass
class Dashboard:
    """A running server over a seeded memory, with an admin key and a key for `demo` only."""

    url: str
    memory: Memory
    seeded: Seeded
    admin: str
    demo: str
    clock: Clock
    """The server's "now": a test moves it to let conversations go quiet."""

    def login(self, page: Page, key: str) -> None:
        page.goto(f"{self.url}/ui/login")
        page.get_by_label("API key").fill(key)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(re.compile(r".*/ui$"))
        page.goto(f"{self.url}/ui/profiles/{DEMO}/facts")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if shutil.which(CHROMIUM) is None:
        pytest.fail(f"{CHROMIUM} is missing: run `make` (it installs Debian's chromium).")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


TODAY = datetime(2026, 5, 10, 10, 0, tzinfo=UTC)


def _memory(path: Path, embedder: BundledEmbedder, clock: Clock) -> Memory:
    return Memory(store=SQLiteStore(path), embedder=embedder, settings=Settings(), clock=clock)


@pytest.fixture(scope="module")
def seeded_db(
    tmp_path_factory: pytest.TempPathFactory, embedder: BundledEmbedder
) -> tuple[Path, Seeded, str, str]:
    """The demo, seeded once per module: each test then serves its own copy of the file."""
    path = tmp_path_factory.mktemp("seeded") / "somna.db"
    clock = Clock(TODAY)
    memory = _memory(path, embedder, clock)
    seeded = seed(memory, clock)
    _, admin = memory.keys.create(admin=True, name="admin")
    _, demo = memory.keys.create(profiles=[DEMO], name="demo")
    memory.flush()
    memory.close()
    return path, seeded, admin, demo


@pytest.fixture
def dashboard(
    tmp_path: Path, embedder: BundledEmbedder, seeded_db: tuple[Path, Seeded, str, str]
) -> Iterator[Dashboard]:
    template, seeded, admin, demo = seeded_db
    shutil.copyfile(template, tmp_path / "somna.db")
    clock = Clock(TODAY)
    memory = _memory(tmp_path / "somna.db", embedder, clock)
    try:
        with serving(create_app(memory)) as url:
            yield Dashboard(url, memory, seeded, admin, demo, clock)
    finally:
        memory.flush()
        memory.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    yield opened
    context.close()
