"""At the table on one phone (390 by 844): finishing is safe, a number can be typed, a tap
without JavaScript lands back where it was made, and the pages show only what applies."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from support.browser import Phone, new_table, start_game

pytestmark = pytest.mark.e2e


SHOTS = Path(__file__).resolve().parents[2] / "instance" / "screenshots"
FIVE = ["Ann", "Ben", "Cy", "Dee", "Eve"]
LONG = "Dorothea Maximiliana von Oddenburg-Lande"  # 40 characters, the longest name


def odd_world(page: Page, base: str, names: list[str]) -> None:
    """A table of ``names`` playing Odd World, this phone on the play's own address."""
    new_table(page, base, names)
    start_game(page, "odd-world")
    expect(page.get_by_role("heading", level=1)).to_have_text("Odd World")
    history = page.get_by_role("link", name=re.compile("History")).get_attribute("href")
    assert history
    page.goto(base + history.removesuffix("/history"))


# --- 5. Finish is safe -------------------------------------------------------------------


def test_finishing_a_game_that_goes_on_asks_in_the_page(phone: Phone, live_server: str) -> None:
    ann = phone()
    odd_world(ann, live_server, ["Ann", "Ben"])
    ann.get_by_role("button", name="One more Hoopoe for Ann").click()
    expect(ann.get_by_label("Ann's Hoopoe", exact=True)).to_have_value("1")
    url = ann.url
    ann.get_by_role("button", name="Finish the game").click()
    panel = ann.locator("#finish-confirm")
    expect(panel).to_contain_text(
        "The game is not over yet: nobody holds all nine birds yet and only 1 of the 72 cards "
        "is entered, so 71 are still in the draw piles. Finish anyway?"
    )
    assert ann.url == url  # in the page, not a page of its own
    expect(ann.get_by_role("heading", name="Standings")).to_be_visible()
    panel.scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann.screenshot(path=str(SHOTS / "finish-confirmation.png"))

    ann.get_by_role("link", name="Keep playing").click()
    expect(panel).to_have_count(0)
    expect(ann.get_by_role("heading", name="Standings")).to_be_visible()

    ann.get_by_role("button", name="Finish the game").click()
    ann.get_by_role("button", name="Finish anyway").click()
    expect(ann.get_by_role("heading", name="Final standings")).to_be_visible()
    expect(ann.locator(".decision")).to_have_text("Ann wins with 1 point.")


def test_finishing_without_javascript_asks_on_a_page(phone: Phone, live_server: str) -> None:
    ann = phone(java_script_enabled=False)
    odd_world(ann, live_server, ["Ann", "Ben"])
    ann.get_by_role("button", name="Finish the game").click()
    expect(ann.get_by_role("heading", level=1)).to_have_text("Finish Odd World?")
    expect(ann.get_by_role("alert")).to_contain_text("The game is not over yet")
    ann.get_by_role("link", name="Keep playing").click()
    expect(ann.get_by_role("heading", name="Standings")).to_be_visible()
    ann.get_by_role("button", name="Finish the game").click()
    ann.get_by_role("button", name="Finish anyway").click()
    expect(ann.get_by_role("heading", name="Final standings")).to_be_visible()


def test_a_game_over_by_its_rules_says_so(phone: Phone, live_server: str) -> None:
    ann = phone()
    odd_world(ann, live_server, ["Ann", "Ben"])
    for bird in ann.locator(".display").first.locator(".bird-name").all_inner_texts():
        name = re.sub(r"^\d+\s*", "", bird).strip()
        ann.get_by_role("button", name=f"One more {name} for Ann").click()
        expect(ann.get_by_label(f"Ann's {name}", exact=True)).to_have_value("1")
    over = ann.locator(".game-over")
    expect(over).to_have_text(
        re.compile(r"Ann holds all nine birds: the game is over\. Finish it\?")
    )
    ann.get_by_role("button", name="Finish it").click()
    expect(ann.get_by_role("heading", name="Final standings")).to_be_visible()


# --- 7. Type a number --------------------------------------------------------------------


def test_a_typed_number_is_saved_on_change(phone: Phone, live_server: str) -> None:
    ann = phone()
    odd_world(ann, live_server, ["Ann", "Ben"])
    field = ann.get_by_label("Ben's Shoebill", exact=True)
    expect(field).to_have_attribute("inputmode", "numeric")
    field.fill("5")
    field.press("Tab")
    expect(ann.locator(".decision")).to_have_text(re.compile("Ben leads with"))
    expect(ann.get_by_role("button", name="One more Shoebill for Ben")).to_have_attribute(
        "value", "players[1].display.shoebill 6 5"
    )
    # Refused like a tap: the message next to the field, nothing stored.
    field.fill("12")
    field.press("Enter")
    expect(ann.locator(".bird .error")).to_have_text("Enter 0 to 8 cards.")
    ann.reload()
    expect(ann.get_by_label("Ben's Shoebill", exact=True)).to_have_value("5")
    # Set with JavaScript: no button to press.
    expect(ann.get_by_role("button", name="Set")).to_have_count(0)


def test_a_typed_number_without_javascript(phone: Phone, live_server: str) -> None:
    ann = phone(java_script_enabled=False)
    odd_world(ann, live_server, ["Ann", "Ben"])
    field = ann.get_by_label("Ben's Shoebill", exact=True)
    field.fill("3")
    field.press("Enter")
    expect(ann.get_by_label("Ben's Shoebill", exact=True)).to_have_value("3")
    expect(ann).to_have_url(re.compile(r"#player-1$"))


# --- 8. Without JavaScript a tap lands where it was made --------------------------------


def test_without_javascript_a_tap_returns_to_the_player(phone: Phone, live_server: str) -> None:
    ann = phone(java_script_enabled=False)
    odd_world(ann, live_server, FIVE)
    ann.get_by_role("link", name="Everyone").click()
    plus = ann.get_by_role("button", name="One more Cassowary for Dee")
    plus.scroll_into_view_if_needed()
    plus.click()
    expect(ann.get_by_label("Dee's Cassowary", exact=True)).to_have_value("1")
    expect(ann).to_have_url(re.compile(r"seat=all#player-3$"))
    assert ann.evaluate("window.scrollY") > 1000
    heading = ann.get_by_role("heading", name=re.compile("^Dee"))
    box = heading.bounding_box()
    assert box is not None
    assert 0 <= box["y"] < 100, box  # Dee's display at the top

    ann.get_by_role("button", name="Undo last change").click()
    expect(ann.get_by_label("Dee's Cassowary", exact=True)).to_have_value("0")
    expect(ann).to_have_url(re.compile(r"#play-actions$"))
    assert ann.evaluate("window.scrollY") > 1000


# --- 12. Only what applies ----------------------------------------------------------------


def test_the_series_box_only_for_odd_world(phone: Phone, live_server: str) -> None:
    ann = phone()
    new_table(ann, live_server, ["Ann", "Ben", "Cy"])
    series = ann.get_by_label("Three games in a row (the total decides)")
    ann.get_by_label("Game", exact=True).select_option("odd-world")
    expect(series).to_be_visible()
    ann.get_by_label("Game", exact=True).select_option("owl-about")
    expect(series).to_be_hidden()
    ann.get_by_label("Game", exact=True).select_option("odd-world")
    expect(series).to_be_visible()

    bare = phone(java_script_enabled=False)
    bare.goto(ann.url)
    bare.get_by_label("Game", exact=True).select_option("owl-about")
    expect(bare.get_by_label("Three games in a row (the total decides)")).to_be_visible()


def test_owl_about_variants_only_in_advanced_mode(phone: Phone, live_server: str) -> None:
    ann = phone()
    new_table(ann, live_server, ["Ann", "Ben", "Cy"])
    table = ann.url
    start_game(ann, "owl-about")
    variants = ann.locator("fieldset.owl-variants")
    mode = ann.get_by_label("Mode", exact=True)
    expect(mode).to_be_visible()
    mode.select_option("basic")
    expect(variants).to_be_hidden()
    mode.select_option("advanced")
    expect(variants).to_be_visible()
    mode.select_option("quick")
    expect(variants).to_be_hidden()

    # Without JavaScript the stylesheet alone does the same.
    bare = phone(java_script_enabled=False)
    bare.goto(table)
    start_game(bare, "owl-about")
    expect(bare.locator("fieldset.owl-variants legend")).to_contain_text("advanced mode only")
    bare_mode = bare.get_by_label("Mode", exact=True)
    bare_mode.select_option("advanced")
    expect(bare.locator("fieldset.owl-variants")).to_be_visible()
    bare_mode.select_option("basic")
    expect(bare.locator("fieldset.owl-variants")).to_be_hidden()


def test_face_down_picker_saves_without_a_button(phone: Phone, live_server: str) -> None:
    ann = phone()
    odd_world(ann, live_server, ["Ann", "Ben"])
    face_down = ann.locator("form.face-down").first
    expect(face_down.get_by_role("button")).to_have_count(0)
    ann.get_by_label("Ann's face-down card").select_option("cassowary")
    expect(ann.locator(".decision")).to_have_text(re.compile("Ann leads with 1 point"))

    bare = phone(java_script_enabled=False)
    bare.goto(ann.url)
    expect(bare.locator("form.face-down").first.get_by_role("button", name="Save")).to_be_visible()


def assert_not_cut_off(page: Page, selector: str) -> None:
    """Every element is inside the viewport and shows all of its text."""
    width = page.viewport_size["width"] if page.viewport_size else 390
    chips = page.locator(selector)
    assert chips.count() > 0, selector
    for chip in chips.all():
        box = chip.bounding_box()
        assert box is not None
        assert box["x"] >= 0, (selector, box)
        assert box["x"] + box["width"] <= width + 0.5, (selector, box)
        clipped = chip.evaluate("e => e.scrollWidth > e.clientWidth + 1")
        assert not clipped, (selector, chip.inner_text())


def test_player_chips_are_never_cut_off(phone: Phone, live_server: str) -> None:
    ann = phone()
    names = ["Ann", "Ben", "Cy", LONG, "Eve"]
    new_table(ann, live_server, names)
    assert_not_cut_off(ann, "form.chips button")
    start_game(ann, "odd-world")
    expect(ann.get_by_role("heading", level=1)).to_have_text("Odd World")
    assert_not_cut_off(ann, "nav.seats a")
    expect(ann.get_by_role("link", name=LONG)).to_be_visible()
