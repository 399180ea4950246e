"""Oddland on a phone (390 x 844): a blank map keeps its size until painted, a wide map
fits the width and stays readable, and a play-along card is laid in a few taps (with and
without JavaScript)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from support.browser import PHONE, lay_setup_cards, new_table, pick_terrains

pytestmark = pytest.mark.e2e

#: A phone, as the other browser tests' pages are (conftest's browser_context_args).
PHONE_CONTEXT: dict[str, Any] = {
    "viewport": PHONE,
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
#: A space smaller than this (CSS pixels) is too small to read or tap.
READABLE_CELL = 24
#: Where screenshots go when asked for (``ODDLAND_SCREENSHOTS=dir``), to look at them.
SCREENSHOTS = os.environ.get("ODDLAND_SCREENSHOTS")


def start(page: Page, base: str, *, play_along: bool) -> None:
    new_table(page, base, ["Ann", "Ben"])
    page.get_by_label("Game", exact=True).select_option("oddland")
    page.get_by_role("button", name="Start").click()
    box = page.get_by_label("Play along", exact=False)
    if play_along:
        box.check()
    else:
        box.uncheck()
    page.get_by_role("button", name="Start Oddland").click()


def space(page: Page, where: str) -> object:
    return page.get_by_role("button", name=re.compile(f"^{where}: "))


def paint(page: Page, where: str, now: str) -> None:
    page.get_by_role("button", name=re.compile(f"^{where}: ")).click()
    expect(page.get_by_role("button", name=f"{where}: {now}", exact=True)).to_be_visible()


def shot(page: Page, name: str) -> None:
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"))


def test_a_blank_map_keeps_its_size_after_the_first_paint(
    browser: Browser, live_server: str
) -> None:
    page = browser.new_context(**PHONE_CONTEXT).new_page()
    start(page, live_server, play_along=False)
    for r in range(1, 5):
        for c in range(1, 5):
            expect(space(page, f"Row {r}, col {c}")).to_have_count(1)
    paint(page, "Row 1, col 1", "forest")
    for r in range(1, 5):
        for c in range(1, 5):
            expect(space(page, f"Row {r}, col {c}")).to_have_count(1)
    expect(page.get_by_role("button", name="Row 4, col 4: empty", exact=True)).to_be_visible()


def test_a_wide_map_fits_the_phone_and_stays_readable(browser: Browser, live_server: str) -> None:
    page = browser.new_context(**PHONE_CONTEXT).new_page()
    start(page, live_server, play_along=False)
    for c in range(1, 13):
        paint(page, f"Row 1, col {c}", "forest")
    paint(page, "Row 2, col 12", "forest")
    expect(page.locator("svg.ol-map title")).to_have_text(
        "Map of 13 spaces in 1 territory with 0 tokens."
    )
    page.locator("svg.ol-map").scroll_into_view_if_needed()
    last = page.get_by_role("button", name="Row 1, col 12: forest", exact=True).bounding_box()
    ring = page.get_by_role("button", name=re.compile("^Row 1, col 13: ")).bounding_box()
    assert last is not None
    assert ring is not None
    assert ring["x"] + ring["width"] <= PHONE["width"]
    assert last["width"] >= READABLE_CELL - 0.5
    # The page itself does not scroll sideways; the drawing was scaled, not cut off.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    svg = page.locator("svg.ol-map").bounding_box()
    assert svg is not None
    assert svg["x"] + svg["width"] <= PHONE["width"]
    shot(page, "oddland-wide-map")


def lay_a_card(page: Page) -> None:
    """Five taps enter card 3, the first turn (place and four terrains); the sixth lays it."""
    page.get_by_role("button", name="Row 3, col 1: empty", exact=True).click()
    expect(page.get_by_text("Its top-left space goes at row 3, col 1.")).to_be_visible()
    pick_terrains(page)
    expect(page.locator("rect.ol-ghost")).to_have_count(4)
    shot(page, "oddland-card-entry")
    page.get_by_role("button", name="Lay card and token").click()
    expect(page.get_by_role("heading", name="Card 4")).to_be_visible()
    expect(page.get_by_text("Ann: 1 of 7 tokens")).to_be_visible()
    expect(
        page.get_by_role("button", name="Row 3, col 1: forest, Ann's Begator", exact=True)
    ).to_be_visible()


def test_a_play_along_card_in_six_taps(browser: Browser, live_server: str) -> None:
    page = browser.new_context(**PHONE_CONTEXT).new_page()
    start(page, live_server, play_along=True)
    lay_setup_cards(page)
    lay_a_card(page)
    # The token goes where one of the new card's spaces is tapped.
    page.get_by_role("button", name="Row 3, col 3: empty", exact=True).click()
    page.get_by_role(
        "button", name=re.compile("^Row 3, col 4: empty; the new card's top right$")
    ).click()
    expect(page.get_by_label("On the card's")).to_have_value("top-right")


def test_a_play_along_card_without_javascript(browser: Browser, live_server: str) -> None:
    page = browser.new_context(**PHONE_CONTEXT, java_script_enabled=False).new_page()
    start(page, live_server, play_along=True)
    lay_setup_cards(page)
    page.get_by_role("button", name="Row 3, col 1: empty", exact=True).click()
    for where, terrain in (
        ("Top left", "forest"),
        ("Top right", "forest"),
        ("Bottom left", "water"),
        ("Bottom right", "water"),
    ):
        page.get_by_role("button", name=f"{where}: {terrain}", exact=True).click()
        expect(
            page.get_by_role("button", name=f"{where}: {terrain}", exact=True)
        ).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Lay card and token").click()
    expect(page.get_by_role("heading", name="Card 4")).to_be_visible()
    expect(page.get_by_text("Ann: 1 of 7 tokens")).to_be_visible()
