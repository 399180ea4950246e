"""Entry at paper speed (issue 27): a realistic OddVille city and a 56-space Oddland map,
as a table enters them on a phone, for the browser test that counts their taps
(tests/e2e/test_entry_speed.py) and the script that photographs them
(scripts/entry_screenshots.py)."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page, expect

from support.browser import new_table

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


@dataclass
class Taps:
    """Every tap of the entry, counted where it is made."""

    count: int = 0

    def tap(self, target: Locator) -> None:
        """Tap a locator (and count it)."""
        target.click()
        self.count += 1


def start(page: Page, base: str, game: str, button: str) -> None:
    """A four-player table and a fresh play of ``game`` (``button``: its options page's
    start button)."""
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


def map_space(page: Page, r: int, c: int) -> Locator:
    """The tap target of a space of the map (its value starts ``row,col,``)."""
    return page.locator(f'#ol-paint button.ol-tap[value^="{r},{c},"]')
