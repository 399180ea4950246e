"""The help pages on a phone (390 by 844): reached from the home page and from a play,
each section one tap away from the list at the top, a rule opened over the page, kept for
offline use once visited, and axe finds nothing."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from support.axe import assert_accessible
from support.browser import Phone, new_table

pytestmark = pytest.mark.e2e


def test_help_from_the_home_page_reads_well_on_a_phone(phone: Phone, live_server: str) -> None:
    page = phone()
    page.goto(live_server)
    page.locator("main").get_by_role("link", name="Help", exact=True).click()
    expect(page).to_have_url(f"{live_server}/help")
    expect(page.get_by_role("heading", level=1)).to_have_text("Help")
    assert_accessible(page)
    page.get_by_role("navigation", name="On this page").get_by_role(
        "link", name="Undo and history"
    ).click()
    expect(page).to_have_url(f"{live_server}/help#undo")
    expect(page.get_by_role("heading", name="Undo and history")).to_be_in_viewport()
    # Nothing on a help page is wider than the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_play_links_its_game_help_and_a_rule_opens_over_it(
    phone: Phone, live_server: str
) -> None:
    page = phone()
    new_table(page, live_server, ["Ann", "Ben", "Cy"])
    page.get_by_label("Game", exact=True).select_option("owl-about")
    page.get_by_role("button", name="Start", exact=True).click()
    page.get_by_role("button", name="Start Owl About").click()
    page.get_by_role("link", name="Owl About help").click()
    expect(page).to_have_url(f"{live_server}/help/owl-about")
    expect(page.get_by_role("heading", level=1)).to_have_text("Owl About: how to")
    assert_accessible(page)

    link = page.locator("#penalty").get_by_role("link", name="penalty", exact=True)
    link.scroll_into_view_if_needed()
    before = page.evaluate("window.scrollY")
    link.click()
    panel = page.locator("#rule-panel")
    expect(panel).to_contain_text("VP")
    expect(page).to_have_url(f"{live_server}/help/owl-about")  # the panel, not a new page
    assert page.evaluate("window.scrollY") == before
    assert_accessible(page)


def test_a_help_page_once_visited_opens_offline(phone: Phone, live_server: str) -> None:
    page = phone()
    page.goto(f"{live_server}/help/oddland")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.reload()  # now through the worker, which keeps the page
    page.wait_for_function("() => caches.match(location.href).then(Boolean)")
    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("Oddland: how to")
    expect(page.locator("#play-along")).to_contain_text("Lay card and token")
