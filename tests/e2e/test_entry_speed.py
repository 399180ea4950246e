"""Entry at paper speed (issue 27): a realistic OddVille city and a 56-space Oddland map
entered in Chromium at 390 x 844, every tap counted, against the taps a table can spend
(3 a card, 1.2 a space), plus the sizes that make those taps easy."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from support.axe import assert_accessible
from support.browser import new_table, size
from support.entry import CARD_FIELDS, CITY, MAP_CARDS, OFFSETS, Taps, choose, map_space, start

pytestmark = pytest.mark.e2e

MAX_TAPS_PER_CARD = 3.0


def test_a_twenty_card_city_in_at_most_three_taps_a_card(
    browser: Browser, live_server: str
) -> None:
    page = browser.new_context().new_page()
    start(page, live_server, "oddville", "Start OddVille")
    expect(page.get_by_role("heading", name="The city", exact=True)).to_be_visible()
    taps = Taps()
    for built, ((r, c), points, guild, shield, owner) in enumerate(CITY, start=1):
        choose(page, taps, "points", points)
        choose(page, taps, "guild", guild)
        choose(page, taps, "shield", shield)
        choose(page, taps, "owner", owner)
        taps.tap(page.locator(f'button.ov-place[value="{r},{c},empty"]'))
        expect(page.locator("button.ov-card")).to_have_count(built + 1)
        # A new card starts without guild or shield: the palette on screen says so.
        expect(page.locator('#ov-tap input[name="guild"][value=""]')).to_be_checked()
        expect(page.locator('#ov-tap input[name="shield"][value="0"]')).to_be_checked()
    assert_accessible(page)
    per_card = taps.count / len(CITY)
    print(f"OddVille: {taps.count} taps for {len(CITY)} cards = {per_card:.2f} a card")
    assert per_card <= MAX_TAPS_PER_CARD
    # What was entered is what the cards show: Ann's two Diamond 5s, the Mask guild cards.
    expect(page.locator(".ov-legend")).to_contain_text("Ann (")
    guild_card = page.locator('button.ov-card[value="2,-1,card"]')
    expect(guild_card).to_contain_text("Ma")
    # Cards keep a readable width and the Main Square's "4 each" never breaks in a word.
    for card in page.locator("button.ov-card").all()[:6]:
        assert size(card)[0] >= 56
    square = page.locator("button.ov-card", has_text="4 each").locator(".ov-pts")
    assert size(square)[1] < 24  # one line
    # Every palette choice, the shields included, is one tap of at least 44 px.
    for choice in page.locator("#ov-tap .ov-shields label.ov-choice").all():
        assert min(size(choice)) >= 44


MAX_TAPS_PER_SPACE = 1.2


def test_a_56_space_map_in_at_most_1_2_taps_a_space(browser: Browser, live_server: str) -> None:
    page = browser.new_context().new_page()
    start(page, live_server, "oddland", "Start Oddland")
    expect(page.get_by_role("heading", name="Map", exact=True)).to_be_visible()
    taps = Taps()
    taps.tap(page.locator(".ol-tool", has=page.locator('input[name="tool"][value="card"]')))
    expect(page.locator('input[name="tool"][value="card"]')).to_be_checked()
    assert_accessible(page)  # the mini-card shown
    for (r, c), terrains in MAP_CARDS:
        for field, letter in zip(CARD_FIELDS, terrains, strict=True):
            radio = page.locator(f'#ol-paint input[name="{field}"][value="{letter}"]')
            if not radio.is_checked():
                taps.tap(radio.locator("xpath=.."))
                expect(radio).to_be_checked()
        taps.tap(map_space(page, r, c))
        for (dr, dc), letter in zip(OFFSETS, terrains, strict=True):
            expect(map_space(page, r + dr, c + dc)).to_have_attribute(
                "value", f"{r + dr},{c + dc},{letter}"
            )
    # Every terrain of the mini-card is a tap target of at least 44 x 44 px.
    for pick in page.locator("label.ol-pick").all():
        assert min(size(pick)) >= 44
    # A correction is still one space painted: pick the terrain, tap the space.
    taps.tap(page.locator(".ol-tool", has=page.locator('input[name="tool"][value="W"]')))
    taps.tap(map_space(page, 7, 4))
    expect(map_space(page, 7, 4)).to_have_attribute("value", "7,4,W")
    spaces = 4 * len(MAP_CARDS)
    per_space = taps.count / spaces
    print(f"Oddland: {taps.count} taps for {spaces} spaces = {per_space:.2f} a space")
    assert per_space <= MAX_TAPS_PER_SPACE
    expect(page.locator("svg.ol-map title")).to_contain_text(f"Map of {spaces} spaces")


def test_the_fate_picker_tells_suits_apart_without_colour(
    browser: Browser, live_server: str
) -> None:
    page = browser.new_context().new_page()
    new_table(page, live_server, ("Lewis", "Carol"))
    page.get_by_label("Game", exact=True).select_option("luckys-misadventures")
    page.get_by_role("button", name="Start").click()
    styles = {}
    for suit in ("Cups", "Swords", "Wands"):
        row = page.get_by_role("group", name=suit, exact=True)
        expect(page.locator(".lm-suit", has_text=suit)).to_be_visible()
        card = row.get_by_role("button", name=f"2 of {suit}", exact=True)
        expect(card).to_be_visible()
        styles[suit] = card.evaluate("b => getComputedStyle(b).borderTopStyle")
    # Besides their colours, the three suits' cards differ in border style.
    assert len(set(styles.values())) == len(styles)
    assert_accessible(page)
