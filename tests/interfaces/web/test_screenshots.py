"""Every page of the seeded demo, on a laptop (1280 px) and a phone (390 px).

Each page must fit the phone's width (no sideways scrolling of the page itself;
wide tables scroll inside their own box) and the keyboard's focus must show.
The screenshots go to a temporary folder, or to `$DASHBOARD_SCREENSHOTS` when
set: `make screenshots` refreshes the copies in docs/screenshots/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.interfaces.web.conftest import Dashboard
from tests.interfaces.web.seed import DEMO

pytestmark = pytest.mark.slow  # drives a browser

WIDTHS = {"laptop": (1280, 800), "phone": (390, 844)}
PAGES = ["home", "facts", "fact", "conflicts", "persona", "sessions", "runs", "settings"]


def test_every_page_fits_a_laptop_and_a_phone(
    browser: Browser, dashboard: Dashboard, tmp_path: Path
) -> None:
    folder = Path(os.environ.get("DASHBOARD_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    fact = dashboard.seeded.replaced_fact
    for device, (width, height) in WIDTHS.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto(f"{dashboard.url}/ui/login")
        page.screenshot(path=folder / f"login-{device}.png")
        dashboard.login(page, dashboard.admin)
        for name in PAGES:
            path = f"facts/{fact}" if name == "fact" else name
            url = (
                f"{dashboard.url}/ui"
                if name == "home"
                else f"{dashboard.url}/ui/profiles/{DEMO}/{path}"
            )
            answer = page.goto(url)
            assert answer is not None and answer.status == 200, name
            expect(page.get_by_role("heading", level=1)).to_be_visible()
            overflow = page.evaluate("document.documentElement.scrollWidth")
            assert overflow <= width, f"{name} is {overflow} px wide on a {width} px screen"
            page.screenshot(path=folder / f"{name}-{device}.png", full_page=True)
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.textContent")
        assert focused == "Skip to content"
        context.close()
    shots = sorted(p.name for p in folder.glob("*.png"))
    assert len(shots) == 2 * (len(PAGES) + 1)
