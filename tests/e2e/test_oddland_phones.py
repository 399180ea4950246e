"""Two phones at one table enter an Oddland map in Chromium: painting, tokens, live
scores and territory outlines on both phones, the scoreboard, and axe scans."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from support.axe import assert_accessible
from support.browser import lay_setup_cards, new_table
from support.polls import expect_live

pytestmark = pytest.mark.e2e


def pick_tool(page: Page, label: str) -> None:
    """Choose a palette tool (the radio sits inside its big label)."""
    page.locator(".ol-tool", has_text=re.compile(f"^\\s*\\S*\\s*{label}\\s*$")).click()
    expect(page.get_by_role("radio", name=label, exact=True)).to_be_checked()


def tap(page: Page, where: str, now: str, *, then: str | None = None) -> None:
    """Tap a space and wait until it shows its new content (``then``: its new place)."""
    page.get_by_role("button", name=re.compile(f"^{where}: ")).click()
    shown = f"{then or where}: {now}"
    expect(page.get_by_role("button", name=shown, exact=True)).to_be_visible()


#: The table of these tests.
PLAYERS = ["Ann", "Ben"]


def test_two_phones_enter_a_map(browser: Browser, live_server: str) -> None:
    ann = browser.new_context().new_page()
    code = new_table(ann, live_server, PLAYERS)
    ann.get_by_label("Game", exact=True).select_option("oddland")
    ann.get_by_role("button", name="Start").click()
    expect(ann.get_by_role("heading", level=1)).to_have_text("Oddland")
    assert_accessible(ann)
    ann.get_by_label("Owloose", exact=True).select_option("B")
    ann.get_by_role("button", name="Start Oddland").click()
    expect(ann.get_by_role("heading", name="Map", exact=True)).to_be_visible()
    expect(ann.get_by_text("The map is empty.")).to_be_attached()

    ben = browser.new_context().new_page()
    ben.goto(f"{live_server}/join")
    ben.get_by_label("Join code").fill(code)
    ben.get_by_role("button", name="Join").click()
    ben.get_by_role("link", name="Open Oddland").click()
    expect(ben.get_by_role("heading", name="Map", exact=True)).to_be_visible()

    # Ann paints a forest of 3 and a water of 2; Ben adds mountains on his phone.
    pick_tool(ann, "Forest")
    tap(ann, "Row 1, col 1", "forest")
    tap(ann, "Row 1, col 2", "forest")
    tap(ann, "Row 2, col 1", "forest")
    pick_tool(ann, "Water")
    tap(ann, "Row 1, col 3", "water")
    tap(ann, "Row 2, col 3", "water")
    expect_live(ben.get_by_role("button", name="Row 2, col 3: water", exact=True)).to_be_visible()
    pick_tool(ben, "Mountain")
    tap(ben, "Row 3, col 1", "mountain")
    tap(ben, "Row 3, col 2", "mountain")
    expect_live(ann.locator("svg.ol-map title")).to_have_text(
        "Map of 7 spaces in 3 territories with 0 tokens."
    )
    # Sizes are drawn on the map (a forest of 3, water and mountain of 2).
    expect(ann.locator("text.ol-size")).to_have_text(["3", "2", "2"])
    outline_before = ann.locator("path.ol-outline").get_attribute("d")

    # Tokens: Ann's Begator on her forest, Ben's Flora on his mountain.
    pick_tool(ann, "Token")
    ann.locator("#ol-species").select_option("begator")
    tap(ann, "Row 1, col 1", "forest, Ann's Begator")
    pick_tool(ben, "Token")
    ben.locator("#ol-player").select_option("Ben")
    ben.locator("#ol-species").select_option("flora")
    tap(ben, "Row 3, col 2", "mountain, Ben's Flora")

    # Both phones see the scores: Begator A counts the 4 neighbouring spaces, 2 points each.
    for phone in (ann, ben):
        expect_live(phone.locator(".decision")).to_have_text(
            re.compile("Ann leads with 8 points.")
        )
        expect_live(
            phone.get_by_role("button", name="Row 1, col 1: forest, Ann's Begator")
        ).to_be_visible()

    # Ben paints a shore that splits nothing but grows the map left: outlines move on both.
    pick_tool(ben, "Shore")
    tap(ben, "Row 1, new column left", "shore", then="Row 1, col 1")
    expect_live(ann.locator("svg.ol-map title")).to_have_text(
        "Map of 8 spaces in 4 territories with 2 tokens."
    )
    assert ann.locator("path.ol-outline").get_attribute("d") != outline_before
    expect(ann.locator(".decision")).to_have_text(re.compile("Ann leads with 10 points."))
    assert_accessible(ann)
    assert_accessible(ben)

    # Facts of the token, then the scoreboard for a side the app does not know.
    ann.get_by_text("Ann's Begator", exact=True).click()
    expect(ann.get_by_text("Territory: forest of 3.")).to_be_visible()
    ann.get_by_label(re.compile("^Ben's Owloose points")).fill("5")
    ann.get_by_role("button", name="Save the scoreboard").click()
    expect_live(ben.get_by_text("Owloose: entered on the scoreboard")).to_be_attached()
    ann.get_by_role("link", name="Map and facts on their own page").click()
    expect(ann.get_by_role("heading", level=1)).to_have_text("Oddland: map and token facts")
    assert_accessible(ann)


def test_painting_works_without_javascript(browser: Browser, live_server: str) -> None:
    page = browser.new_context(java_script_enabled=False).new_page()
    new_table(page, live_server, PLAYERS)
    page.get_by_label("Game", exact=True).select_option("oddland")
    page.get_by_role("button", name="Start").click()
    page.get_by_label("Play along", exact=False).uncheck()
    page.get_by_role("button", name="Start Oddland").click()
    page.get_by_role("radio", name="Water", exact=True).check(force=True)
    page.get_by_role("button", name="Row 1, col 1: empty", exact=True).click()
    expect(page.get_by_role("button", name="Row 1, col 1: water", exact=True)).to_be_visible()
    # The palette is remembered: the next tap paints water too.
    page.get_by_role("button", name="Row 1, col 2: empty", exact=True).click()
    expect(page.get_by_role("button", name="Row 1, col 2: water", exact=True)).to_be_visible()
    page.get_by_role("button", name="Undo last change").click()
    expect(page.get_by_role("button", name="Row 1, col 2: empty", exact=True)).to_be_visible()


def test_play_along_referee_and_read_only_link(browser: Browser, live_server: str) -> None:
    page = browser.new_context().new_page()
    new_table(page, live_server, PLAYERS)
    view_link = page.locator("#view-link").input_value()
    page.get_by_label("Game", exact=True).select_option("oddland")
    page.get_by_role("button", name="Start").click()
    page.get_by_label("Play along", exact=False).check()
    page.get_by_role("button", name="Start Oddland").click()
    expect(page.get_by_role("heading", name="Card 1")).to_be_visible()
    assert_accessible(page)

    # The 2 set-up cards (forest over water, side by side): no token to choose.
    expect(page.locator("#ol-turn-species")).to_have_count(0)
    lay_setup_cards(page)
    expect(page.locator("rect.ol-last")).to_have_count(1)

    # Card 3: forest on top, water below, under the first; Ann's Begator on its top left.
    page.get_by_role("button", name="Row 3, col 1: empty", exact=True).click()
    for space, terrain in (
        ("Top left", "forest"),
        ("Top right", "forest"),
        ("Bottom left", "water"),
        ("Bottom right", "water"),
    ):
        page.get_by_role("button", name=f"{space}: {terrain}", exact=True).click()
        expect(
            page.get_by_role("button", name=f"{space}: {terrain}", exact=True)
        ).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Lay card and token").click()
    expect(page.get_by_role("heading", name="Card 4")).to_be_visible()
    expect(page.get_by_text("Ann: 1 of 7 tokens")).to_be_visible()

    # Card 4 far away: checked, refused with the reason, nothing laid.
    page.get_by_label("Player", exact=True).select_option("Ben")
    page.locator("#ol-turn-species").select_option("flora")
    page.get_by_role("button", name="Row 5, col 5: empty", exact=True).click()
    expect(page.get_by_text("Its top-left space goes at row 5, col 5.")).to_be_visible()
    for space in ("Top left", "Top right", "Bottom left", "Bottom right"):
        page.get_by_role("button", name=f"{space}: mountain", exact=True).click()
        expect(
            page.get_by_role("button", name=f"{space}: mountain", exact=True)
        ).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Check only").click()
    expect(page.get_by_role("status")).to_contain_text(
        "The card must share an edge with a space of the map."
    )
    expect(page.locator("rect.ol-ghost")).to_have_count(4)
    assert_accessible(page)
    # Mountains right of the third card: legal, laid; then taken back.
    page.get_by_role("button", name="Row 3, col 3: empty", exact=True).click()
    expect(page.get_by_text("Its top-left space goes at row 3, col 3.")).to_be_visible()
    page.get_by_role("button", name="Lay card and token").click()
    expect(page.get_by_role("heading", name="Card 5")).to_be_visible()
    expect(page.get_by_text("Ben: 1 of 7 tokens")).to_be_visible()
    page.get_by_role("button", name="Take back card 4").click()
    expect(page.get_by_role("heading", name="Card 4")).to_be_visible()

    spectator = browser.new_context().new_page()
    spectator.goto(view_link)
    spectator.get_by_role("link", name="Open Oddland").click()
    expect(spectator.locator("svg.ol-map")).to_be_visible()
    expect(spectator.get_by_role("button", name="Lay card and token")).to_have_count(0)
    assert_accessible(spectator)
