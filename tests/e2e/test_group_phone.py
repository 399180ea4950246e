"""A group on a phone (390 by 844): create it, start tonight's table with taps, play and
finish a game, and read the leaderboard with its chart; axe finds nothing on the pages."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from support.axe import assert_accessible
from support.browser import Phone, start_game

pytestmark = pytest.mark.e2e


def test_group_to_table_to_leaderboard(phone: Phone, live_server: str) -> None:
    page = phone()
    page.goto(live_server)
    page.get_by_role("link", name="Start a group").click()
    page.get_by_label("Name of the group").fill("Thursdays")
    for number, name in enumerate(["Ann", "Ben", "Cy"], 1):
        page.get_by_label(f"Player {number}", exact=True).fill(name)
    assert_accessible(page)
    page.get_by_role("button", name="Create the group").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Thursdays")
    assert_accessible(page)

    # Tonight: Ben sits first, then Ann; Dee is new and joins the group.
    page.get_by_role("link", name="Ben", exact=True).click()
    # Each pick is a link to the next page: tap again once it has loaded, as a thumb does.
    expect(page.get_by_text("Seating: 1. Ben", exact=True)).to_be_visible()
    page.get_by_role("link", name=re.compile(r"^Ann$")).click()
    expect(page.get_by_text("Seating: 1. Ben, 2. Ann")).to_be_visible()
    page.get_by_label("Someone new").fill("Dee")
    page.get_by_role("button", name="Start tonight's table").click()
    expect(page.locator(".lead").first).to_have_text("Ben, Ann, Dee")

    start_game(page, "odd-world")
    expect(page.get_by_role("heading", level=1)).to_have_text("Odd World")
    page.get_by_role("button", name="One more Hoopoe for Ann").click()
    expect(page.get_by_label("Ann's Hoopoe", exact=True)).to_have_value("1")
    page.get_by_role("button", name="Finish the game").click()
    page.get_by_role("button", name="Finish anyway").click()
    expect(page.get_by_role("heading", name="Final standings")).to_be_visible()

    page.get_by_role("link", name=re.compile("Table")).first.click()
    evening = page.locator("#evening")
    expect(evening).to_contain_text("Odd World: Ann won")
    expect(page.get_by_role("link", name="Send to BG Stats")).to_have_attribute(
        "href", re.compile(r"^bgstats://app\.bgstatsapp\.com/createPlay\.html\?data=")
    )
    assert_accessible(page)

    page.get_by_role("link", name="see its leaderboards").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Thursdays")
    page.get_by_role("link", name="Leaderboards", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("All games: leaderboard")
    page.get_by_role("link", name="Odd World", exact=True).click()
    expect(page).to_have_url(re.compile(r"/stats\?game=odd-world$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Odd World: leaderboard")
    chart = page.locator("svg.chart-svg").first
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None
    assert box["width"] <= 390  # fits the phone
    page.get_by_text("The numbers as a table").first.click()
    expect(page.locator("table").nth(1)).to_contain_text("Ann")
    assert_accessible(page)
    page.emulate_media(color_scheme="dark")
    assert_accessible(page)
