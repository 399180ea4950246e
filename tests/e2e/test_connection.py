"""A phone that loses its connection is told so; a tap made offline is refused visibly, and
so is a change the server could not take (its database busy)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from companion.web.errors import BUSY_MESSAGE, CSRF_MESSAGE
from companion.web.play.actions import CONTENTION_MESSAGE
from support.axe import assert_accessible
from support.browser import Phone, new_table, start_game
from support.client import write_lock_held
from support.polls import expect_live, polls_answered

pytestmark = pytest.mark.e2e


def odd_world_at_ann(phone: Phone, live_server: str) -> tuple[Page, Locator, Locator]:
    """Ann's phone on a new Odd World game: the page, her Hoopoe count and its "+"."""
    ann: Page = phone()
    new_table(ann, live_server, ["Ann", "Ben"])
    start_game(ann, "odd-world")
    expect(ann).to_have_url(re.compile(r"/plays/\d+"))
    count = ann.get_by_label("Ann's Hoopoe", exact=True)
    return ann, count, ann.get_by_role("button", name="One more Hoopoe for Ann")


def test_a_tap_made_offline_says_it_was_not_saved(phone: Phone, live_server: str) -> None:
    ann, count, plus = odd_world_at_ann(phone, live_server)

    ann.context.set_offline(True)
    plus.click()
    alert = ann.locator("#connection[role=alert]")
    expect(alert).to_have_text(re.compile("Not saved: no connection"))
    expect(count).to_have_value("0")
    expect_live(ann.locator("#connection")).to_have_text(re.compile("Offline"))

    ann.context.set_offline(False)
    expect_live(ann.locator("#connection")).to_be_hidden()
    plus.click()
    expect(count).to_have_value("1")
    ann.reload()
    expect(ann.get_by_label("Ann's Hoopoe", exact=True)).to_have_value("1")


def worker_in_charge(page: Page) -> None:
    """Wait until the service worker is active and serving ``page``.

    The worker installs from the home page while the browser is already on its way to the
    table; ``clients.claim()`` skips a page that is still loading, so that page can stay
    uncontrolled for good (one CI run in many). Once the worker is active, a reload is
    always served through it.
    """
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def test_a_page_that_needs_the_server_says_so_when_offline(
    browser: Browser, live_server: str
) -> None:
    context = browser.new_context()
    page = context.new_page()
    new_table(page, live_server, ["Ann", "Ben"])
    table = page.url
    worker_in_charge(page)
    page.wait_for_function("() => caches.match('/offline').then(Boolean)")
    context.set_offline(True)
    page.goto(table)
    expect(page.get_by_role("heading", level=1)).to_have_text("No connection")
    expect(page.get_by_text("Nothing was changed.")).to_be_visible()
    assert_accessible(page)
    context.set_offline(False)
    page.goto(table)
    expect(page.get_by_role("heading", level=1)).not_to_have_text("No connection")
    context.close()


#: The server gives up on a taken write lock after SQLite's busy timeout (5 s).
BUSY_ANSWER_MS = 10_000


def test_a_tap_the_busy_server_could_not_save_says_so(
    phone: Phone, live_server: str, tmp_path: Path
) -> None:
    ann, count, plus = odd_world_at_ann(phone, live_server)

    with write_lock_held(tmp_path / "companion.sqlite"):
        plus.click()
        expect(ann.get_by_text(CONTENTION_MESSAGE)).to_be_visible(timeout=BUSY_ANSWER_MS)
    expect(count).to_have_value("0")

    plus.click()
    expect(count).to_have_value("1")
    expect(ann.get_by_text(CONTENTION_MESSAGE)).to_have_count(0)


def test_any_change_the_busy_server_refused_is_not_dropped_silently(
    phone: Phone, live_server: str, tmp_path: Path
) -> None:
    ann: Page = phone()
    new_table(ann, live_server, ["Ann", "Ben"])
    names = ann.locator(".lead").first
    expect(names).to_have_text("Ann, Ben")

    with write_lock_held(tmp_path / "companion.sqlite"):
        ann.get_by_label("New player", exact=True).fill("Cy")
        ann.get_by_role("button", name="Add a player").click()
        alert = ann.locator("#connection[role=alert]")
        expect(alert).to_have_text(BUSY_MESSAGE, timeout=BUSY_ANSWER_MS)
    expect(names).to_have_text("Ann, Ben")
    polls_answered(ann)  # the table's live polls answer meanwhile
    expect(alert).to_have_text(BUSY_MESSAGE)

    ann.get_by_label("New player", exact=True).fill("Cy")
    ann.get_by_role("button", name="Add a player").click()
    expect(names).to_have_text("Ann, Ben, Cy")
    expect(ann.locator("#connection")).to_be_hidden()


def test_a_tap_from_a_page_whose_session_is_gone_says_what_to_do(
    phone: Phone, live_server: str
) -> None:
    ann, count, plus = odd_world_at_ann(phone, live_server)
    ann.context.clear_cookies()  # the page's CSRF token no longer matches a session

    plus.click()
    expect(ann.locator("#connection[role=alert]")).to_have_text(CSRF_MESSAGE)
    expect(count).to_have_value("0")
