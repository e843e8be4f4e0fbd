"""The dashboard in a real browser: log in, review facts, settle conflicts, approve rules, tune."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from somna.model import FactStatus
from tests.interfaces.web.conftest import Dashboard
from tests.interfaces.web.seed import DEMO, OTHER

pytestmark = pytest.mark.slow  # drives a browser


def badge(page: Page) -> str:
    label = page.locator("#conflict-badge").get_attribute("aria-label")
    assert label is not None
    return label


def test_login_with_a_wrong_key_then_a_right_one_and_logout(
    page: Page, dashboard: Dashboard
) -> None:
    page.goto(f"{dashboard.url}/ui/profiles/{DEMO}/facts")
    expect(page).to_have_url(re.compile(r".*/ui/login$"))
    page.get_by_label("API key").fill("somna_not-a-key")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_have_text("This API key is unknown or has been revoked.")

    dashboard.login(page, dashboard.demo)
    cookie = next(c for c in page.context.cookies() if c["name"] == "somna_session")
    assert (cookie["httpOnly"], cookie["sameSite"]) == (True, "Strict")
    expect(page.get_by_role("heading", name="Facts")).to_be_visible()

    page.get_by_role("button", name="Log out").click()
    expect(page).to_have_url(re.compile(r".*/ui/login$"))
    page.goto(f"{dashboard.url}/ui/profiles/{DEMO}/facts")
    expect(page).to_have_url(re.compile(r".*/ui/login$"))


def test_search_and_filters(page: Page, dashboard: Dashboard) -> None:
    dashboard.login(page, dashboard.admin)
    page.get_by_label("Search").fill("bicycle to work")
    page.get_by_role("button", name="Apply").click()
    expect(page.locator("table.facts tbody tr").first).to_contain_text("Rides a bicycle to work.")

    page.get_by_label("Search").fill("")
    page.get_by_label("Category").fill("habit")
    page.get_by_role("button", name="Apply").click()
    rows = page.locator("table.facts tbody tr")
    texts = rows.locator("td:first-child").all_inner_texts()
    expected = {f.text for f in dashboard.memory.list_facts(DEMO, category="habit")}
    assert set(texts) == expected and "Rides a bicycle to work." in texts

    page.get_by_label("Category").fill("")
    page.get_by_label("Status").select_option("disputed")
    page.get_by_role("button", name="Apply").click()
    expect(rows).to_have_count(6)
    expect(rows.locator(".chip")).to_have_text(["disputed"] * 6)

    page.get_by_label("Status").select_option("")
    page.get_by_label("Valid at").fill("2026-05-07")
    page.get_by_role("button", name="Apply").click()
    texts = rows.locator("td:first-child").all_inner_texts()
    assert any("lives in Grenoble" in text for text in texts)  # said on May 5th
    assert "Rides a bicycle to work." not in texts  # added on May 10th


def test_a_fact_shows_its_evidence_and_a_correction_grows_its_history(
    page: Page, dashboard: Dashboard
) -> None:
    dashboard.login(page, dashboard.admin)
    page.get_by_role("link", name="Rides a bicycle to work.").click()
    expect(page.locator(".quotes")).to_contain_text("I ride my bicycle to the workshop every day.")
    timeline = page.locator("#timeline li")
    expect(timeline).to_have_count(1)
    expect(timeline.first).to_contain_text("Recorded by the command line or Python API")

    page.get_by_label("Text").fill("Rides an electric bicycle to work.")
    page.get_by_role("button", name="Save correction").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Rides an electric bicycle to work.")
    expect(page.locator(".versions li")).to_have_count(2)
    expect(timeline).to_have_count(3)  # recorded, corrected (old), recorded (new)
    expect(timeline.nth(1)).to_contain_text("“Rides an electric bicycle to work.” corrected it")
    expect(timeline.nth(1)).to_contain_text("(admin (the dashboard))")
    expect(timeline.nth(2)).to_contain_text("correcting “Rides a bicycle to work.”")
    old = dashboard.memory.get(DEMO, dashboard.seeded.plain_fact)
    assert old.status is FactStatus.SUPERSEDED

    page.get_by_role("link", name="← All facts").click()
    page.get_by_role("link", name=re.compile("lives in Grenoble")).click()
    quote = page.locator(".quotes li").first
    expect(quote).to_contain_text("I live in Grenoble")
    expect(quote).to_contain_text("said in the conversation chat-1")


def test_resolving_a_conflict_lowers_the_badge_by_one(page: Page, dashboard: Dashboard) -> None:
    dashboard.login(page, dashboard.admin)
    before = len(dashboard.memory.conflicts(DEMO))
    assert badge(page) == f"{before} open conflicts"
    page.get_by_role("link", name=re.compile("^Conflicts")).click()
    pair = page.locator("section.pair").first
    expect(pair.locator(".side")).to_have_count(2)
    pair.get_by_role("button", name="A is true").click()
    expect(page.get_by_role("status")).to_contain_text("The first fact was kept")
    assert badge(page) == f"{before - 1} open conflicts"
    assert len(dashboard.memory.conflicts(DEMO)) == before - 1


def test_approving_a_proposed_rule_puts_it_in_the_context(page: Page, dashboard: Dashboard) -> None:
    rule = dashboard.seeded.pending_rule
    query = "should I suggest a vegetarian option?"
    assert rule not in dashboard.memory.context(DEMO, query)
    dashboard.login(page, dashboard.admin)
    page.get_by_role("link", name="Persona").click()
    page.get_by_role("button", name=f"Approve: {rule}").click()
    expect(page.get_by_role("status")).to_contain_text("The rule was approved")
    expect(page.locator("#approved-h + ul")).to_contain_text(rule)
    assert rule in dashboard.memory.context(DEMO, query)


def test_a_changed_setting_is_used_by_the_next_add_fact(page: Page, dashboard: Dashboard) -> None:
    def similar() -> list[str]:
        with httpx.Client(base_url=dashboard.url, timeout=30) as client:
            answer = client.post(
                f"/v1/profiles/{DEMO}/facts",
                json={"text": "Owns a bicycle with a red frame."},
                headers={"Authorization": f"Bearer {dashboard.admin}"},
            )
            answer.raise_for_status()
            client.delete(
                f"/v1/profiles/{DEMO}/facts/{answer.json()['fact']['id']}",
                headers={"Authorization": f"Bearer {dashboard.admin}"},
            ).raise_for_status()
            return [s["fact"]["text"] for s in answer.json()["similar"]]

    assert similar() == []
    dashboard.login(page, dashboard.admin)
    page.get_by_role("link", name="Settings").click()
    page.get_by_label("Neighbor floor").fill("0.3")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_role("status")).to_contain_text("The settings were saved")
    expect(page.locator("#changes-h + ol li")).to_contain_text(
        "admin (the dashboard) set neighbor floor from the global value to 0.3"
    )
    assert "Rides a bicycle to work." in similar()

    page.get_by_label("Time to live per category").fill("preference = soon")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_role("alert")).to_have_text(
        "Line 1 of the time to live is 'preference = soon'; write one 'category = days' per "
        "line, e.g. 'preference = 730'."
    )
    expect(page.get_by_label("Time to live per category")).to_have_value("preference = soon")
    csrf = page.locator("input[name=csrf]").first.get_attribute("value") or ""
    for sent, message in (
        ({"judge_floor": "2"}, "The setting judge_floor must be a number from 0 to 1, not 2."),
        (
            {"archive_days": "1e300"},
            "The setting archive_days must be a number from 0 to 36500, not 1e+300.",
        ),
        ({"idle_hours": "inf"}, "The setting idle_hours must be a number from 0 to 876000"),
        ({"idle_hours": "nan"}, "The setting idle_hours must be a number from 0 to 876000"),
        ({"ttl": "intent = -3"}, "The setting ttl_days.intent must be a number of days more"),
    ):
        refused = page.request.post(
            f"{dashboard.url}/ui/profiles/{DEMO}/settings",
            form={"csrf": csrf, "neighbor_floor": "0.3", **sent},
        )
        assert refused.status == 422
        assert message in refused.text()
        ((name, value),) = sent.items()  # the person's input is on the page again
        kept = f"[^>]*>{value}</textarea>" if name == "ttl" else f'[^>]*value="{re.escape(value)}"'
        assert re.search(f'id="{name}"{kept}', refused.text())
    tuned = dashboard.memory.profile_settings(DEMO)
    history = dashboard.memory.settings_history(DEMO)
    assert (tuned.judge_floor, tuned.neighbor_floor, len(history)) == (0.6, 0.3, 1)
    assert (tuned.archive_days, tuned.idle_hours) == (7.0, 3.0)


def test_a_profile_key_cannot_reach_another_profile(page: Page, dashboard: Dashboard) -> None:
    dashboard.login(page, dashboard.demo)
    expect(page.locator("#profile-switch option")).to_have_text(["Demo (demo)"])
    csrf = page.locator("input[name=csrf]").first.get_attribute("value")
    other_fact = dashboard.memory.list_facts(OTHER)[0].id
    for path in ("facts", "conflicts", "persona", "sessions", "runs", "settings"):
        answer = page.request.get(f"{dashboard.url}/ui/profiles/{OTHER}/{path}")
        assert answer.status == 404, path
        assert "There is no profile named &#39;other&#39;" in answer.text()
    assert page.request.get(f"{dashboard.url}/ui/profiles/nobody/facts").status == 404
    for path, form in [
        (f"facts/{other_fact}/delete", {}),
        (f"facts/{other_fact}/verify", {}),
        ("settings", {"neighbor_floor": "0.1"}),
    ]:
        answer = page.request.post(
            f"{dashboard.url}/ui/profiles/{OTHER}/{path}", form={"csrf": csrf or "", **form}
        )
        assert answer.status == 404, path
    # The other profile's fact, asked for under the key's own profile, is not found either.
    assert page.request.get(f"{dashboard.url}/ui/profiles/{DEMO}/facts/{other_fact}").status == 404
    assert dashboard.memory.get(OTHER, other_fact).status is FactStatus.UNVERIFIED
    assert dashboard.memory.settings_history(OTHER) == []


def test_a_form_without_its_csrf_token_changes_nothing(page: Page, dashboard: Dashboard) -> None:
    dashboard.login(page, dashboard.admin)
    fact = dashboard.seeded.plain_fact
    answer = page.request.post(f"{dashboard.url}/ui/profiles/{DEMO}/facts/{fact}/delete", form={})
    assert answer.status == 403
    assert dashboard.memory.get(DEMO, fact).status is FactStatus.UNVERIFIED
