"""The rules reference on a phone: search as you type and open the result; follow the link
of an Owl About follow-rule problem to its entry and back, without leaving the play; the
rules stay readable offline once visited; axe finds nothing."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from support.axe import assert_accessible
from support.browser import new_table

pytestmark = pytest.mark.e2e


def test_search_as_you_type_and_open_the_result(browser: Browser, live_server: str) -> None:
    page = browser.new_context().new_page()
    page.goto(live_server)
    page.get_by_role("contentinfo").get_by_role("link", name="Rules").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Rules")
    page.get_by_label("Search the rules").press_sequentially("cassowery", delay=30)
    first = page.locator("#rule-results .rule-hits a").first
    expect(first).to_contain_text("Which cards are in the box?")
    expect(page.locator("#rule-results mark").first).to_be_visible()
    assert page.url == f"{live_server}/rules"  # results came in place, no page load
    assert_accessible(page)
    # Leaving the box (as a tap on a result does) asks for nothing: the list a finger is
    # on is never replaced under it (a search on "change" did, now and then, and the tap
    # went nowhere).
    asked: list[str] = []
    page.on(
        "request", lambda request: asked.append(request.url) if "/search" in request.url else None
    )
    page.get_by_label("Search the rules").blur()
    page.evaluate("() => 0")  # the browser's events up to the blur have reached the test
    assert asked == [], "leaving the search box searched again"
    first.click()
    expect(page).to_have_url(f"{live_server}/rules/odd-world#components")
    entry = page.locator("article#components")
    expect(entry).to_be_in_viewport()
    expect(entry).to_contain_text("8 of each of 9 bird species")
    assert_accessible(page)


def test_a_follow_problem_opens_its_rule_over_the_play_and_back(
    browser: Browser, live_server: str
) -> None:
    phone = browser.new_context().new_page()
    new_table(phone, live_server, ["Ann", "Ben", "Cy"])
    phone.get_by_label("Game", exact=True).select_option("owl-about")
    phone.get_by_role("button", name="Start", exact=True).click()
    phone.get_by_role("button", name="Start Owl About").click()
    phone.get_by_role("button", name="Ann leads").click()
    # Ben's phone: his hand holds an 8, so after Ann's 6 his 2 breaks the follow rule.
    phone.locator("nav.seats").get_by_role("link", name="Ben", exact=True).click()
    phone.get_by_label(re.compile("^Ben's hand")).fill("2 8")
    phone.locator(".owl-hand").get_by_role("button", name="Save").click()
    phone.get_by_role("button", name=re.compile("^Play 6 for Ann")).click()
    expect(phone.locator("#trick")).to_contain_text("Ben may play: 8")
    phone.get_by_role("button", name=re.compile("^Play 2 for Ben")).click()
    problem = phone.locator("#trick .owl-broken").first
    expect(problem).to_contain_text("Ben had to play one of those")

    play_url = phone.url
    link = problem.get_by_role("link", name="Which card may I play? (the follow rule)")
    link.scroll_into_view_if_needed()
    before = phone.evaluate("window.scrollY")
    link.click()
    panel = phone.locator("#rule-panel")
    expect(
        panel.get_by_role("heading", name="Which card may I play? (the follow rule)")
    ).to_be_visible()
    expect(panel).to_contain_text("you must play one of those")
    assert phone.url == play_url  # the play did not go away
    assert phone.evaluate("window.scrollY") == before  # nor move
    assert_accessible(phone)
    panel.get_by_role("button", name="Close").click()
    expect(panel.locator(".rule-sheet")).to_have_count(0)
    expect(link).to_be_focused()
    assert phone.evaluate("window.scrollY") == before

    # The whole rules page, and back to the same place in the play.
    link.click()
    panel.get_by_role("link", name="All Owl About rules").click()
    expect(phone).to_have_url(f"{live_server}/rules/owl-about#follow")
    expect(phone.locator("article#follow")).to_be_in_viewport()
    phone.go_back()
    expect(phone).to_have_url(play_url)
    expect(phone.locator("#trick .owl-broken").first).to_contain_text("Ben had to play")


def test_rules_pages_stay_readable_offline(browser: Browser, live_server: str) -> None:
    context = browser.new_context()
    phone = context.new_page()
    phone.goto(f"{live_server}/rules/oddland")
    phone.wait_for_function("() => navigator.serviceWorker.controller !== null")
    phone.reload()  # now through the worker, which keeps the page and its stylesheet
    phone.wait_for_function("() => caches.match(location.href).then(Boolean)")
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Oddland")
    context.set_offline(True)
    phone.reload()
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Oddland")
    expect(phone.locator("article#placement\\/edge")).to_contain_text("touch the map")
    context.close()
