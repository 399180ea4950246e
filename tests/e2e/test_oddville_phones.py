"""Two phones at one table build a small OddVille city in Chromium: per-card points in
place, the winner, a play-along placement refused with its reason, and axe scans."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from support.axe import assert_accessible
from support.browser import new_table
from support.polls import expect_live

pytestmark = pytest.mark.e2e


def choose(page: Page, label: str) -> None:
    """Choose a palette option (the radio sits inside its big label)."""
    radio = page.get_by_role("radio", name=label, exact=True)
    radio.locator("xpath=..").click()
    expect(radio).to_be_checked()


def add(page: Page, where: str, shown: str) -> None:
    """Tap the empty place ``where`` and wait for the card it becomes."""
    page.get_by_role("button", name=f"Empty place, {where}: tap to add a card").click()
    expect(page.get_by_role("button", name=re.compile(f"^{re.escape(shown)}"))).to_be_visible()


def test_two_phones_build_a_city(browser: Browser, live_server: str) -> None:
    ann = browser.new_context().new_page()
    code = new_table(ann, live_server, ["Ann", "Ben"])
    ann.get_by_label("Game", exact=True).select_option("oddville")
    ann.get_by_role("button", name="Start").click()
    expect(ann.get_by_role("heading", level=1)).to_have_text("OddVille")
    assert_accessible(ann)
    ann.get_by_label("Ben", exact=True).select_option("red")
    ann.get_by_role("button", name="Start OddVille").click()
    expect(ann.get_by_role("heading", name="The city", exact=True)).to_be_visible()

    ben = browser.new_context().new_page()
    ben.goto(f"{live_server}/join")
    ben.get_by_label("Join code").fill(code)
    ben.get_by_role("button", name="Join").click()
    ben.get_by_role("link", name="Open OddVille").click()
    expect(ben.get_by_role("heading", name="The city", exact=True)).to_be_visible()

    # Ann lays her Diamond 5 below the Main Square; Ben his "3 + diamonds" beside it.
    choose(ann, "Diamond 5")
    choose(ann, "Ann")
    add(ann, "row 2, col 1", "Diamond, row 2, col 1, owner Ann, Diamond = 5")
    choose(ben, "3 + diamonds")
    choose(ben, "Ben")
    add(ben, "row 1, col 2", "Diamonds in the city, row 1, col 2, owner Ben")

    # Both phones show each card's points in place and who leads.
    for page in (ann, ben):
        expect_live(page.locator(".ov-pts", has_text="3+1=4")).to_be_visible()
        expect_live(page.locator(".ov-pts", has_text=re.compile("^5$"))).to_be_visible()
        expect_live(page.locator(".decision")).to_have_text("Ann leads with 5 points.")
    expect(ann.locator(".ov-legend")).to_contain_text("Ben (red): 4 points")

    # The construction referee refuses houses against the Main Square's street.
    choose(ann, "Build (referee)")
    ann.locator(".ov-edges summary").click()
    for side in ("Top", "Right", "Bottom", "Left"):
        ann.get_by_label(side, exact=True).select_option("H")
    ann.get_by_role("button", name="Empty place, row 1, col 0: tap to add a card").click()
    verdict = ann.locator("#ov-verdict")
    expect(verdict).to_contain_text("Not allowed:")
    expect(verdict).to_contain_text(
        "Its right edge shows houses, but the card on row 1, col 1 shows a street there"
    )
    expect(
        ann.get_by_role("button", name=re.compile("^Empty place, row 1, col 0"))
    ).to_be_visible()
    assert_accessible(ann)
    assert_accessible(ben)


def test_the_worker_steppers_share_one_form(browser: Browser, live_server: str) -> None:
    """Each worker button carries its own change (one form for all of them): taps on two
    players' steppers each change only their own count."""
    ann = browser.new_context().new_page()
    new_table(ann, live_server, ["Ann", "Ben"])
    ann.get_by_label("Game", exact=True).select_option("oddville")
    ann.get_by_role("button", name="Start").click()
    ann.get_by_label("Ben", exact=True).select_option("red")
    ann.get_by_role("button", name="Start OddVille").click()
    board = "workers on the Resources Board"
    ann_count = ann.get_by_label(f"Ann's {board}", exact=True)
    ben_count = ann.get_by_label(f"Ben's {board}", exact=True)
    for expected in ("1", "2"):
        ann.get_by_role("button", name="One more worker on the Resources Board for Ben").click()
        expect(ben_count).to_have_text(expected)
    ann.get_by_role("button", name="One more worker on the Resources Board for Ann").click()
    expect(ann_count).to_have_text("1")
    ann.get_by_role("button", name="One fewer worker on the Resources Board for Ben").click()
    expect(ben_count).to_have_text("1")
    expect(ann_count).to_have_text("1")
