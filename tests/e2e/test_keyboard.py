"""Keyboard only: the card buttons of the trick checker and the places of the OddVille city
are reached with Tab and work with Enter or Space, like a tap."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from support.browser import Phone, new_table, start_game

pytestmark = pytest.mark.e2e


#: More Tab presses than any page here has controls before the one sought.
MOST_TABS = 250


def tab_to(page: Page, target: Locator) -> None:
    """Press Tab from the top of the page until ``target`` has the focus."""
    page.locator("body").focus()
    handle = target.element_handle()
    assert handle is not None
    for _ in range(MOST_TABS):
        page.keyboard.press("Tab")
        if page.evaluate("e => document.activeElement === e", handle):
            return
    raise AssertionError(f"Tab never reached {target}")


def test_the_trick_checker_by_keyboard(phone: Phone, live_server: str) -> None:
    page = phone()
    page.goto(f"{live_server}/owl-about/check")
    tab_to(page, page.get_by_role("button", name=re.compile("^Lead plays 6: ")))
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name=re.compile("^Player 2 plays 2: "))).to_be_visible()
    tab_to(page, page.get_by_role("button", name=re.compile("^Player 2 plays 2: ")))
    page.keyboard.press("Space")
    expect(page.locator(".owl-answer")).to_contain_text("Player 3 plays next")


def test_the_oddville_city_by_keyboard(phone: Phone, live_server: str) -> None:
    page = phone()
    new_table(page, live_server, ["Ann", "Ben"])
    start_game(page, "oddville")
    page.get_by_role("button", name="Start OddVille").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("OddVille")
    cards = page.locator("button.ov-card")
    # A new city holds only its Main Square; wait for it, as the panel may still be
    # settling when the heading shows (a count taken at once read 0 in CI).
    before = 1
    expect(cards).to_have_count(before)
    place = page.get_by_role("button", name=re.compile(r"^Empty place, .*: tap to add a card$"))
    tab_to(page, place.first)
    page.keyboard.press("Enter")
    expect(cards).to_have_count(before + 1)
