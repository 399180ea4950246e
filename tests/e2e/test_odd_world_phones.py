"""Two phones at one table play Odd World in Chromium: live edits, finish, axe scans."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from support.axe import assert_accessible
from support.polls import expect_live, poll_now

pytestmark = pytest.mark.e2e


def tap_plus(page: Page, bird: str, player: str, times: int = 1) -> None:
    """Tap a stepper's + and wait until the saved count shows."""
    count = page.get_by_label(f"{player}'s {bird}", exact=True)
    for _ in range(times):
        before = int(count.input_value())
        page.get_by_role("button", name=f"One more {bird} for {player}").click()
        expect(count).to_have_value(str(before + 1))


def test_two_phones_score_a_game(browser: Browser, live_server: str) -> None:
    ann_phone = browser.new_context().new_page()
    ann_phone.goto(live_server)
    assert_accessible(ann_phone)
    ann_phone.get_by_label("Player 1", exact=True).fill("Ann")
    ann_phone.get_by_role("button", name="Add a player").click()
    expect(ann_phone.get_by_label("Player 3", exact=True)).to_be_visible()
    ann_phone.get_by_label("Player 2", exact=True).fill("Ben")
    ann_phone.get_by_role("button", name="Start the table").click()
    expect(ann_phone.get_by_role("heading", level=1)).to_contain_text("Table")
    assert_accessible(ann_phone)
    code = ann_phone.locator("h1 .code").inner_text()

    ben_phone = browser.new_context().new_page()
    ben_phone.goto(f"{live_server}/join")
    assert_accessible(ben_phone)
    ben_phone.get_by_label("Join code").fill(code.lower())
    ben_phone.get_by_role("button", name="Join").click()
    expect(ben_phone.get_by_role("heading", level=1)).to_have_text(f"Table {code}")

    ann_phone.get_by_label("Game", exact=True).select_option("odd-world")
    ann_phone.get_by_role("button", name="Start").click()
    expect(ann_phone.get_by_role("heading", level=1)).to_have_text("Odd World")
    assert_accessible(ann_phone)

    # Ben's table page follows by itself: the game started on Ann's phone is offered.
    expect_live(ben_phone.get_by_role("link", name="Open Odd World")).to_be_visible()
    ben_phone.get_by_role("link", name="Open Odd World").click()
    expect(ben_phone.get_by_role("heading", level=1)).to_have_text("Odd World")

    tap_plus(ann_phone, "Hoopoe", "Ann", times=3)
    tap_plus(ben_phone, "Shoebill", "Ben", times=1)
    tap_plus(ben_phone, "Hornbill", "Ben", times=1)

    # Each phone sees the other's edits through polling.
    expect_live(ben_phone.get_by_label("Ann's Hoopoe", exact=True)).to_have_value("3")
    expect_live(ann_phone.get_by_label("Ben's Shoebill", exact=True)).to_have_value("1")
    expect_live(ann_phone.locator(".decision")).to_have_text(
        re.compile("Ann leads with 3 points.")
    )

    # A panel Ben opened stays open when Ann's next change arrives.
    ben_phone.locator("details", has_text="Hoopoe: 3 cards (odd)").locator("summary").click()
    breakdown = ben_phone.get_by_text("Hoopoe: 3 cards (odd)")
    expect(breakdown).to_be_visible()
    ann_phone.get_by_label("Ann's face-down card").select_option("cassowary")
    expect_live(ben_phone.locator(".decision")).to_have_text(
        re.compile("Ann leads with 4 points.")
    )
    expect(breakdown).to_be_visible()
    expect(ann_phone.locator(".decision")).to_have_text(re.compile("Ann leads with 4 points."))

    ann_phone.get_by_role("button", name="Finish the game").click()
    # Nobody holds all nine birds: finishing asks first.
    ann_phone.get_by_role("button", name="Finish anyway").click()
    expect(ann_phone.get_by_role("heading", name="Final standings")).to_be_visible()
    expect_live(ben_phone.get_by_role("heading", name="Final standings")).to_be_visible()
    expect(ben_phone.locator(".decision")).to_have_text("Ann wins with 4 points.")
    expect(ben_phone.get_by_text("Hoopoe: 3 cards (odd)")).to_be_visible()
    assert_accessible(ben_phone)

    ann_phone.get_by_role("link", name=re.compile("History")).click()
    expect(ann_phone.get_by_role("heading", level=1)).to_contain_text("every change")
    expect(ann_phone.get_by_text("Ben's Shoebill: 0 → 1.")).to_be_visible()
    assert_accessible(ann_phone)


def test_stepper_works_without_javascript(browser: Browser, live_server: str) -> None:
    page = browser.new_context(java_script_enabled=False).new_page()
    page.goto(live_server)
    page.get_by_label("Player 1", exact=True).fill("Ann")
    page.get_by_label("Player 2", exact=True).fill("Ben")
    page.get_by_role("button", name="Start the table").click()
    page.get_by_role("button", name="Start").click()
    page.get_by_role("button", name="One more Hoopoe for Ben").click()
    expect(page.get_by_label("Ben's Hoopoe", exact=True)).to_have_value("1")
    page.get_by_role("button", name="Undo last change").click()
    expect(page.get_by_label("Ben's Hoopoe", exact=True)).to_have_value("0")


def test_live_update_waits_while_a_field_is_in_use(browser: Browser, live_server: str) -> None:
    ann = browser.new_context().new_page()
    ann.goto(live_server)
    ann.get_by_label("Player 1", exact=True).fill("Ann")
    ann.get_by_label("Player 2", exact=True).fill("Ben")
    ann.get_by_role("button", name="Start the table").click()
    ann.get_by_role("button", name="Start").click()
    expect(ann.get_by_role("heading", level=1)).to_have_text("Odd World")
    expect(ann).to_have_url(re.compile(r"/plays/\d+"))  # the boosted Start pushed it
    ben = browser.new_context().new_page()
    ben.goto(ann.url)
    ben.get_by_label("Ben's face-down card").focus()
    tap_plus(ann, "Hoopoe", "Ann")
    for _ in range(2):  # Ben's poll is asked (twice, should one be dropped) and skipped
        poll_now(ben)
        expect(ben.locator(".htmx-request")).to_have_count(0)
    expect(ben.get_by_label("Ann's Hoopoe", exact=True)).to_have_value("0")
    expect(ben.get_by_label("Ben's face-down card")).to_be_focused()
    ben.get_by_label("Ben's face-down card").blur()
    expect_live(ben.get_by_label("Ann's Hoopoe", exact=True)).to_have_value("1")
