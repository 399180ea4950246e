"""Issue 27's small things on a phone (390 x 844): "Add a player" puts the cursor in the
new field, and tap targets that stand alone (the group menu's links, the "Three games in
a row" box) are at least 44 x 44 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Locator, expect

from support.browser import new_table, size

pytestmark = pytest.mark.e2e


def test_add_a_player_focuses_the_new_field(browser: Browser, live_server: str) -> None:
    page = browser.new_context().new_page()
    page.goto(live_server)
    rows = page.locator("#roster input[name^=players-]").count()
    page.get_by_role("button", name="Add a player").click()
    new_field = page.get_by_label(f"Player {rows + 1}", exact=True)
    expect(new_field).to_be_focused()
    page.keyboard.type("Dee")
    expect(new_field).to_have_value("Dee")


def test_add_a_player_marks_the_new_field_without_javascript(
    browser: Browser, live_server: str
) -> None:
    page = browser.new_context(java_script_enabled=False).new_page()
    page.goto(live_server)
    rows = page.locator("#roster input[name^=players-]").count()
    page.get_by_role("button", name="Add a player").click()
    # The answer is a whole page whose new field carries autofocus (headless Chromium
    # leaves a page it did not bring to the front unfocused, so the attribute is checked).
    new_field = page.get_by_label(f"Player {rows + 1}", exact=True)
    expect(new_field).to_have_attribute("autofocus", "")
    expect(page.locator("#roster input[autofocus]")).to_have_count(1)


def big_enough(target: Locator) -> None:
    """A tap target of at least 44 x 44 CSS px."""
    width, height = size(target)
    assert width >= 44, width
    assert height >= 44, height


def test_stand_alone_tap_targets_are_44_px(browser: Browser, live_server: str) -> None:
    page = browser.new_context().new_page()
    new_table(page, live_server, ("Ann", "Ben"))
    page.get_by_label("Game", exact=True).select_option("odd-world")
    big_enough(page.get_by_role("checkbox", name="Three games in a row (the total decides)"))
    page.goto(live_server)
    page.get_by_role("link", name="Start a group").click()
    page.get_by_label("Name of the group").fill("Thursdays")
    for number, name in enumerate(["Ann", "Ben"], 1):
        page.get_by_label(f"Player {number}", exact=True).fill(name)
    page.get_by_role("button", name="Create the group").click()
    menu = page.get_by_role("navigation", name="Group")
    expect(menu).to_be_visible()
    for link in menu.get_by_role("link").all():
        big_enough(link)


def test_standings_rows_that_open_show_a_marker(browser: Browser, live_server: str) -> None:
    page = browser.new_context().new_page()
    new_table(page, live_server, ("Ann", "Ben"))
    page.get_by_label("Game", exact=True).select_option("odd-world")
    page.get_by_role("button", name="Start").click()
    summary = page.locator("#standings .ranking summary").first
    expect(summary).to_be_visible()
    marker = "s => getComputedStyle(s, '::after').content"
    assert "▸" in summary.evaluate(marker)
    summary.click()
    assert "▾" in summary.evaluate(marker)
    expect(page.locator("#standings .pair-lines li")).to_have_count(1)
