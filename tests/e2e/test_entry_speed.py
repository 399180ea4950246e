"""Entry at paper speed (issue 27): a realistic OddVille city and a 56-space Oddland map
entered in Chromium at 390 x 844, every tap counted, against the taps a table can spend
(3 a card, 1.2 a space), plus the sizes that make those taps easy."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.e2e.axe import assert_accessible
from tests.e2e.tables import open_new_table

pytestmark = pytest.mark.e2e

PLAYERS = ("Ann", "Ben", "Cleo", "Dan")
#: A 20-card city of four players as it lies at the end of a game, in the order a table
#: enters it (each card touches the city entered so far; a card like the last one next):
#: place, victory points, guild, shield, owner ("" = none). A third of the cards show a
#: guild, a fifth a shield, a quarter have no worker on them.
CITY = (
    ((0, -1), "diamonds", "", "0", "Ben"),
    ((0, 1), "diamonds", "", "2", ""),
    ((0, 2), "shields", "", "0", "Cleo"),
    ((1, -1), "shields", "bells", "1", "Cleo"),
    ((1, -2), "column", "", "1", "Cleo"),
    ((1, 0), "row", "", "0", "Dan"),
    ((1, 1), "row", "", "0", "Ann"),
    ((2, -2), "diamond-5", "", "0", "Ann"),
    ((3, -2), "diamond-5", "", "0", "Ann"),
    ((2, 1), "adjacent", "", "0", "Ann"),
    ((1, 2), "diamond-4", "", "0", "Ben"),
    ((3, 1), "diamonds", "", "0", "Ben"),
    ((3, 0), "column", "", "0", ""),
    ((2, 2), "adjacent", "bells", "0", ""),
    ((0, -2), "guild-1", "mask", "0", "Dan"),
    ((2, -1), "guild-1", "mask", "0", "Dan"),
    ((3, 2), "column", "lily", "2", "Dan"),
    ((4, 2), "row", "", "0", ""),
    ((3, -1), "adjacent-x3", "mask", "1", ""),
    ((2, 0), "diamond-4", "mask", "1", "Ben"),
)
MAX_TAPS_PER_CARD = 3.0


@dataclass
class Taps:
    """Every tap of the entry, counted where it is made."""

    count: int = 0

    def tap(self, target: Locator) -> None:
        """Tap a locator (and count it)."""
        target.click()
        self.count += 1


def size(target: Locator) -> tuple[float, float]:
    """Width and height of what a locator finds, in CSS pixels."""
    box = target.bounding_box()
    assert box is not None
    return box["width"], box["height"]


def new_table(page: Page, base: str, names: tuple[str, ...]) -> None:
    """A table of ``names``, open on this phone (taps before the game are not entry, and
    the roster's own are tested elsewhere: tests/e2e/tables.py)."""
    open_new_table(page, base, names)


def start(page: Page, base: str, game: str, button: str) -> None:
    """A four-player table and a fresh play of ``game``."""
    new_table(page, base, PLAYERS)
    page.get_by_label("Game", exact=True).select_option(game)
    page.get_by_role("button", name="Start").click()
    page.get_by_role("button", name=button).click()


def choose(page: Page, taps: Taps, name: str, value: str) -> None:
    """Tap a palette choice unless the palette already has it (an unchanged choice is free)."""
    radio = page.locator(f'#ov-tap input[name="{name}"][value="{value}"]')
    if not radio.is_checked():
        choice = f'#ov-tap label.ov-choice:has(input[name="{name}"][value="{value}"])'
        taps.tap(page.locator(choice))
        expect(radio).to_be_checked()


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


#: A 56-space Oddland map of 14 map cards at 8 columns (the last two offset by a space):
#: each card's top-left space and its terrains (top left, top right, bottom left, bottom
#: right), drawn at random, so that a card rarely repeats the one before.
MAP_CARDS = (
    ((0, 0), "FMWM"),
    ((0, 2), "SFWF"),
    ((0, 4), "WWSF"),
    ((0, 6), "SFSM"),
    ((2, 0), "FSMS"),
    ((2, 2), "SFSS"),
    ((2, 4), "MSMS"),
    ((2, 6), "FSSS"),
    ((4, 0), "SSMW"),
    ((4, 2), "FFWF"),
    ((4, 4), "FFMM"),
    ((4, 6), "WMWS"),
    ((6, 1), "MMFS"),
    ((6, 3), "SWMS"),
)
CARD_FIELDS = ("top_left", "top_right", "bottom_left", "bottom_right")
OFFSETS = ((0, 0), (0, 1), (1, 0), (1, 1))
TERRAIN_WORDS = {"F": "forest", "S": "shore", "W": "water", "M": "mountain"}
MAX_TAPS_PER_SPACE = 1.2


def map_space(page: Page, r: int, c: int) -> Locator:
    """The tap target of a space of the map (its value starts ``row,col,``)."""
    return page.locator(f'#ol-paint button.ol-tap[value^="{r},{c},"]')


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
