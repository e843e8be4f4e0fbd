"""The morning review in a real browser: the profiles' home, search across statuses,
a fact's story, delete with a question first, and restore."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from somna.embed import BundledEmbedder
from somna.interfaces.api import create_app
from somna.memory import Memory
from somna.model import FactStatus
from tests.interfaces.api.live import new_memory, serving
from tests.interfaces.web.conftest import Dashboard
from tests.interfaces.web.seed import DEMO, OTHER

pytestmark = pytest.mark.slow  # drives a browser


def log_in(page: Page, url: str, key: str) -> None:
    page.goto(f"{url}/ui/login")
    page.get_by_label("API key").fill(key)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r".*/ui(\?.*)?$"))


def test_the_home_lists_every_profile_with_what_waits_and_sorts(
    page: Page, dashboard: Dashboard
) -> None:
    memory = dashboard.memory
    page.goto(f"{dashboard.url}/")
    expect(page).to_have_url(re.compile(r".*/ui/login$"))
    log_in(page, dashboard.url, dashboard.admin)
    rows = page.locator("table.overview tbody tr")
    expect(rows.locator("th")).to_have_text([re.compile(f"^{DEMO}"), re.compile(f"^{OTHER}")])
    demo = rows.first.locator("td")
    expected = [
        str(memory.count_facts(DEMO)),
        str(memory.count_facts(DEMO, status="disputed")),
        str(len(memory.conflicts(DEMO))),
        "1",  # the rule an agent proposed
        "1",  # chat-today
    ]
    expect(demo.nth(0)).to_have_text(expected[0])
    for cell, value in enumerate(expected):
        expect(demo.nth(cell)).to_have_text(value)
    expect(demo.nth(5)).to_contain_text("succeeded")
    expect(demo.nth(6)).to_have_text("0")  # failed runs
    expect(rows.nth(1).locator("td").nth(5)).to_have_text("never")

    page.get_by_role("link", name="Open conflicts").click()
    expect(rows.locator("th")).to_have_text([re.compile(f"^{DEMO}"), re.compile(f"^{OTHER}")])
    page.get_by_role("link", name="Profile", exact=True).click()
    page.goto(f"{dashboard.url}/ui?sort=facts")
    memory.add_fact(OTHER, "Keeps bees in the garden.")
    memory.add_fact(OTHER, "Collects old maps.")
    page.goto(f"{dashboard.url}/ui?sort=disputed")
    expect(rows.first.locator("th")).to_contain_text(DEMO)

    rows.first.get_by_role("link", name=str(len(memory.conflicts(DEMO)))).click()
    expect(page).to_have_url(re.compile(f".*/ui/profiles/{DEMO}/conflicts$"))
    page.get_by_role("link", name="All profiles").click()
    expect(page.get_by_role("heading", name="Profiles")).to_be_visible()


@pytest.fixture
def empty_server(tmp_path: Path, embedder: BundledEmbedder) -> Iterator[tuple[str, Memory]]:
    memory = new_memory(tmp_path, embedder)
    try:
        with serving(create_app(memory)) as url:
            yield url, memory
    finally:
        memory.close()


def test_a_key_that_reaches_no_profile_yet_is_told_why(
    page: Page, empty_server: tuple[str, Memory]
) -> None:
    url, memory = empty_server
    _, admin = memory.keys.create(admin=True, name="admin")
    _, bot = memory.keys.create(prefix="shop-", name="bot")
    log_in(page, url, admin)
    expect(page.get_by_role("status")).to_contain_text("There is no profile yet.")
    page.get_by_role("button", name="Log out").click()
    log_in(page, url, bot)
    expect(page.get_by_role("status")).to_have_text(
        "No profile starts with 'shop-' yet: the first conversation your bot sends with this "
        "key creates one, and it appears here."
    )
    answer = httpx.post(
        f"{url}/v1/profiles/shop-ann/sessions/chat-1/messages",
        json={"messages": [{"role": "user", "content": "Hello."}]},
        headers={"Authorization": f"Bearer {bot}"},
    )
    answer.raise_for_status()
    page.reload()
    expect(page.locator("table.overview tbody th")).to_have_text(["shop-ann"])


def test_search_covers_every_status_counts_and_pages(page: Page, dashboard: Dashboard) -> None:
    memory = dashboard.memory
    for n in range(60):
        memory.add_fact(DEMO, f"Owns a vinyl record number {n}.", category="collection")
    dashboard.login(page, dashboard.admin)
    search = page.get_by_label("Search")
    apply = page.get_by_role("button", name="Apply")
    rows = page.locator("table.facts tbody tr")

    search.fill("zzzzqqq")
    apply.click()
    expect(rows).to_have_count(0)
    expect(page.locator("#total")).to_contain_text("0 facts contain “zzzzqqq”")
    expect(page.get_by_text("No fact contains “zzzzqqq”")).to_be_visible()

    search.fill("cider")
    page.get_by_label("Status").select_option("disputed")
    apply.click()
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Enjoys a glass of cider on Fridays.")
    expect(rows.first.locator(".chip")).to_have_text("disputed")

    search.fill("vinyl record")
    page.get_by_label("Status").select_option("all")
    apply.click()
    expect(page.locator("#total")).to_contain_text("60 facts contain “vinyl record”")
    expect(page.get_by_text("Page 1 of 2", exact=True)).to_be_visible()
    expect(rows).to_have_count(50)
    page.get_by_role("link", name="Next").click()
    expect(page.get_by_text("Page 2 of 2", exact=True)).to_be_visible()
    expect(rows).to_have_count(10)

    page.goto(f"{dashboard.url}/ui/profiles/{DEMO}/facts?page=abc")
    expect(page.get_by_role("alert")).to_have_text("“abc” is not a page number; here is page 1.")
    expect(rows.first).to_be_visible()
    page.goto(f"{dashboard.url}/ui/profiles/{DEMO}/facts?page=9")
    expect(page.get_by_role("alert")).to_have_text("There are only 2 pages; here is the last one.")


def test_a_fact_reads_as_a_story_with_links(page: Page, dashboard: Dashboard) -> None:
    memory = dashboard.memory
    paris = memory.add_fact(DEMO, "Keeps a studio in Lyon.").fact
    memory.add_messages(DEMO, "chat-42", [("user", "I live in Berlin now."), ("assistant", "Ok.")])
    memory.consolidate(DEMO, now=memory.now() + timedelta(hours=5))
    [berlin] = memory.list_facts(DEMO, text="Berlin")
    memory.resolve(DEMO, berlin.id, paris.id, "supersedes")
    dashboard.login(page, dashboard.admin)
    page.goto(f"{dashboard.url}/ui/profiles/{DEMO}/facts/{paris.id}")
    timeline = page.locator("#timeline li")
    day = memory.get(DEMO, paris.id).valid_to
    assert day is not None
    replaced = timeline.filter(has_text="replaced it")
    expect(replaced).to_contain_text(
        f"“{berlin.text}” replaced it on {day:%Y-%m-%d} (said in chat-42)."
    )
    replaced.get_by_role("link", name="The newer fact").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(berlin.text)

    page.goto(f"{dashboard.url}/ui/profiles/{DEMO}/facts/{dashboard.seeded.conflict_fact}")
    disputed = timeline.filter(has_text="Disputed")
    expect(disputed).to_contain_text("Disputed: “Works at a workshop in town.” contradicts it")
    disputed.get_by_role("link", name="the conflict").click()
    expect(page).to_have_url(re.compile(r".*/conflicts#pair-cfl_"))


def test_delete_asks_first_and_a_retired_fact_can_be_restored(
    page: Page, dashboard: Dashboard
) -> None:
    fact_id = dashboard.seeded.plain_fact
    dashboard.login(page, dashboard.admin)
    page.goto(f"{dashboard.url}/ui/profiles/{DEMO}/facts/{fact_id}")
    page.get_by_role("link", name="Delete…").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Delete this fact?")
    assert dashboard.memory.get(DEMO, fact_id).status is FactStatus.UNVERIFIED
    page.get_by_role("link", name="No, keep it").click()
    assert dashboard.memory.get(DEMO, fact_id).status is FactStatus.UNVERIFIED

    page.get_by_role("link", name="Delete…").click()
    page.get_by_role("button", name="Yes, delete it").click()
    expect(page.get_by_role("status")).to_contain_text("The fact was deleted")
    assert dashboard.memory.get(DEMO, fact_id).status is FactStatus.RETIRED
    expect(page.locator("#timeline li").last).to_contain_text("Deleted by admin (the dashboard)")

    page.get_by_role("button", name="Restore this fact").click()
    expect(page.get_by_role("status")).to_contain_text("The fact is back in memory, unverified.")
    assert dashboard.memory.get(DEMO, fact_id).status is FactStatus.UNVERIFIED
    expect(page.locator("#timeline li").last).to_contain_text(
        "Restored by admin (the dashboard) (it was retired)"
    )


def test_a_form_posted_without_the_question_deletes_nothing(
    page: Page, dashboard: Dashboard
) -> None:
    fact_id = dashboard.seeded.plain_fact
    dashboard.login(page, dashboard.admin)
    csrf = page.locator("input[name=csrf]").first.get_attribute("value") or ""
    answer = page.request.post(
        f"{dashboard.url}/ui/profiles/{DEMO}/facts/{fact_id}/delete", form={"csrf": csrf}
    )
    assert answer.ok and "Delete this fact?" in answer.text()
    assert dashboard.memory.get(DEMO, fact_id).status is FactStatus.UNVERIFIED


def test_a_run_over_every_profile_shows_on_each_profile_with_its_part(
    page: Page, dashboard: Dashboard
) -> None:
    memory = dashboard.memory
    dashboard.clock.now += timedelta(hours=5)
    run = memory.consolidate()
    assert run.profile_id is None and run.sessions_consolidated == 1  # chat-today
    dashboard.login(page, dashboard.admin)
    page.get_by_role("link", name="Runs").click()
    first = page.locator("table.runs tbody tr").first
    expect(first.locator("td").nth(1)).to_have_text("every profile")
    expect(first.locator("td").nth(2)).to_have_text("succeeded")
    expect(first.locator("td").nth(3)).to_have_text("1")
    expect(page.get_by_text("the conversations and failures are this profile's")).to_be_visible()
    page.goto(f"{dashboard.url}/ui/profiles/{OTHER}/runs")
    expect(page.locator("table.runs tbody tr")).to_have_count(1)
    expect(page.locator("table.runs tbody tr td").nth(3)).to_have_text("0")


def test_persona_groups_facts_by_person_the_user_first(page: Page, dashboard: Dashboard) -> None:
    memory = dashboard.memory
    memory.add_fact(DEMO, "Likes long walks by the sea.", type="persona")
    memory.add_fact(DEMO, "Plays the harp in an orchestra.", subject="Ada")
    memory.add_fact(DEMO, "Is a retired sea captain.", subject="Bruno", type="persona")
    cousin = memory.add_fact(DEMO, "The user's cousin is called Ada.", category="relationship")
    dashboard.login(page, dashboard.admin)
    page.get_by_role("link", name="Persona").click()
    people = page.locator("section.person")
    expect(people.locator("h3")).to_have_text(["The user", "Ada", "Bruno", "Maelle"])
    expect(people.first).to_contain_text("Likes long walks by the sea.")
    expect(people.first).not_to_contain_text("Plays the harp")
    expect(people.nth(1)).to_contain_text("Plays the harp in an orchestra.")
    expect(people.nth(1).locator("p.meta")).to_have_text(
        f"Relation to the user: {cousin.fact.text}"
    )
    expect(people.nth(2)).to_contain_text("Is a retired sea captain.")
    expect(people.nth(2).locator("p.meta")).to_have_count(0)


def test_the_switcher_names_profiles_and_old_addresses_lead_home(
    page: Page, dashboard: Dashboard
) -> None:
    dashboard.login(page, dashboard.admin)
    options = page.locator("#profile-switch option")
    expect(options).to_have_text(["Demo (demo)", "Other (other)"])
    page.goto(f"{dashboard.url}/ui/profiles")
    expect(page).to_have_url(re.compile(r".*/ui$"))
    expect(page.get_by_role("heading", name="Profiles")).to_be_visible()
