"""In Chromium: a tap on one phone reaches the other, whose panel is then what a fresh
load shows (the panel comes whole and is morphed into place); a phone's first load of a
play page stays small."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, Request, expect

from support.browser import new_table, start_game
from support.polls import expect_live

pytestmark = pytest.mark.e2e

#: What differs between two renderings of the same panel: the CSRF token, one-time keys.
VOLATILE = re.compile(r'(name="(?:csrf_token|submission)" value=")[^"]*"')
#: Classes htmx sets for a moment while it swaps.
TRANSIENT = re.compile(r"\s*\bhtmx-(?:added|settling|swapping|request)\b")


def panel_of(page: Page) -> str:
    """The play panel's markup as the phone's DOM holds it now."""
    html = page.locator("#play").evaluate("element => element.outerHTML")
    html = TRANSIENT.sub("", VOLATILE.sub(r'\1"', html))
    return re.sub(r' class=""', "", html)


def start_odd_world(browser: Browser, live_server: str) -> tuple[Page, str]:
    ann = browser.new_context().new_page()
    ann.goto(live_server)
    ann.get_by_label("Player 1", exact=True).fill("Ann")
    ann.get_by_label("Player 2", exact=True).fill("Ben")
    ann.get_by_role("button", name="Start the table").click()
    expect(ann.get_by_role("heading", level=1)).to_contain_text("Table")
    ann.get_by_label("Game", exact=True).select_option("odd-world")
    ann.get_by_role("button", name="Start").click()
    expect(ann.get_by_role("heading", level=1)).to_have_text("Odd World")
    return ann, ann.url


def test_a_live_update_leaves_the_panel_as_a_fresh_load_shows_it(
    browser: Browser, live_server: str
) -> None:
    ann, url = start_odd_world(browser, live_server)
    ben = browser.new_context().new_page()
    ben.goto(url)
    ann.get_by_role("button", name="One more Hoopoe for Ann").click()
    expect(ann.get_by_label("Ann's Hoopoe", exact=True)).to_have_value("1")
    expect_live(ben.get_by_label("Ann's Hoopoe", exact=True)).to_have_value("1")
    expect(ben.locator(".decision")).to_have_text(re.compile("Ann leads with 1 point"))
    fresh = browser.new_context().new_page()
    fresh.goto(url)
    expect(fresh.get_by_label("Ann's Hoopoe", exact=True)).to_have_value("1")
    assert panel_of(ben) == panel_of(fresh)
    assert panel_of(ann) == panel_of(fresh)


#: Issue 28's bound on a phone's first load of a play page, gzip (KB of 1,024 bytes).
FIRST_LOAD_GZIP_KB = 35


def test_a_first_load_of_a_play_page_is_at_most_35_kb_gzip(
    browser: Browser, live_server: str
) -> None:
    """Everything Chromium fetches to show a five-player Odd World game to a new phone
    (no cache, no service worker yet), as gzip sends it: the page, htmx, the morph, the
    app's own scripts and styles, the icon. ``benchmarks/bytes.py`` counts the same from
    the page's links (its apple-touch-icon included, which a browser fetches only to add
    the app to a home screen)."""
    host = browser.new_context()
    page = host.new_page()
    new_table(page, live_server, ["Ann", "Ben", "Cy", "Dee", "Eve"])
    start_game(page, "odd-world")
    expect(page).to_have_url(re.compile(r"/plays/\d+"))
    phone = browser.new_context(
        service_workers="block", extra_http_headers={"Accept-Encoding": "gzip"}
    )
    phone.add_cookies(host.cookies())
    fresh = phone.new_page()
    fetched: list[Request] = []
    fresh.on("requestfinished", lambda request: fetched.append(request))
    fresh.goto(page.url)
    fresh.wait_for_load_state("networkidle")
    sizes = {request.url: request.sizes()["responseBodySize"] for request in fetched}
    assert any("/static/htmx-" in url for url in sizes), sizes  # the scripts were counted
    assert sum(sizes.values()) <= FIRST_LOAD_GZIP_KB * 1024, sizes
