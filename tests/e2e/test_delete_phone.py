"""Deleting a game started by mistake on a phone (390 by 844): the link under the play
opens a page that asks, the button deletes it and opens the table page, which says so;
another phone still on the game is told in place of the game at its next live update. Without
JavaScript the same link and button do the same. axe finds nothing on the asking page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from support.axe import assert_accessible
from support.browser import Phone, new_table, second_phone, start_game
from support.polls import expect_live

pytestmark = pytest.mark.e2e


def _ask_and_delete(page: Page) -> None:
    """Open the asking page from the play, check it fits the phone, and delete."""
    link = page.get_by_role("link", name="Delete this game…")
    link.scroll_into_view_if_needed()
    link.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Delete Odd World?")
    button = page.get_by_role("button", name="Delete Odd World for good")
    box = button.bounding_box()
    assert box is not None
    assert box["x"] + box["width"] <= 390
    assert box["y"] + box["height"] <= 844  # the answer is in the first screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    button.click()


def test_a_game_started_by_mistake_is_deleted_and_the_other_phone_follows(
    phone: Phone, live_server: str
) -> None:
    page = phone()
    new_table(page, live_server, ["Ann", "Ben"])
    start_game(page, "odd-world")
    expect(page.get_by_role("heading", level=1)).to_have_text("Odd World")
    play_url = page.url
    other = second_phone(phone, page)
    page.get_by_role("button", name="One more Hoopoe for Ann").click()
    expect(page.get_by_label("Ann's Hoopoe", exact=True)).to_have_value("1")

    page.get_by_role("link", name="Delete this game…").click()
    assert_accessible(page)
    page.get_by_role("link", name="Keep it").click()  # changed their mind: nothing lost
    expect(page.get_by_label("Ann's Hoopoe", exact=True)).to_have_value("1")

    _ask_and_delete(page)
    expect(page.get_by_role("status").filter(has_text="Odd World deleted.")).to_be_visible()
    expect(page).not_to_have_url(re.compile(r"/plays/"))
    expect(page.locator("main")).not_to_contain_text("Now playing")

    gone = other.locator("#play").get_by_role("status")
    expect_live(gone).to_contain_text("This game was deleted.")
    assert other.url == play_url  # told where it looks, not taken elsewhere
    expect(other.get_by_role("link", name="Delete this game…")).to_be_hidden()
    assert_accessible(other)
    gone.get_by_role("link", name="Open the table").click()
    expect(other).not_to_have_url(re.compile(r"/plays/"))
    answer = other.goto(play_url)
    assert answer is not None
    assert answer.status == 404
    expect(other.get_by_role("link", name="Open the table")).to_be_visible()


def test_without_javascript_the_same_link_and_button_delete_it(
    phone: Phone, live_server: str
) -> None:
    page = phone(java_script_enabled=False)
    new_table(page, live_server, ["Ann", "Ben"])
    start_game(page, "odd-world")
    expect(page.get_by_role("heading", level=1)).to_have_text("Odd World")
    _ask_and_delete(page)
    expect(page.get_by_role("status").filter(has_text="Odd World deleted.")).to_be_visible()
