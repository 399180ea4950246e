"""Photos and ratings on a phone (390 by 844): a photo of the table taken with a file on a
play reaches the other phone, the table's evening and the group's history; without
JavaScript the same form keeps it; the group's leaderboard shows the skill ratings and
their chart; axe finds nothing on the pages."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin

import pytest
from playwright.sync_api import Page, expect

from support.axe import assert_accessible
from support.browser import Phone, second_phone, start_game
from support.client import CSRF_HEADER
from support.photos import camera_jpeg
from support.polls import expect_live, poll_now

pytestmark = pytest.mark.e2e

SEE_OTHER = 303


def _post(page: Page, base: str, form_page: str, action: str, form: dict[str, str]) -> str:
    """Post a form as its page would (with the page's CSRF token); where it led."""
    token = CSRF_HEADER.search(page.request.get(base + form_page).text())
    assert token, f"{form_page} hands out no CSRF token"
    answer = page.request.post(
        base + action, form={**form, "csrf_token": token.group(1)}, max_redirects=0
    )
    assert answer.status == SEE_OTHER, answer.text()[:500]
    return answer.headers["location"]


def group_table(page: Page, base: str, names: list[str]) -> str:
    """A group of ``names`` and tonight's table with all of them, open on ``page``; the
    group's address."""
    fields = {f"players-{i}": name for i, name in enumerate(names)}
    group = _post(page, base, "/groups/new", "/groups", {"name": "Thursdays", **fields})
    group_page = page.request.get(urljoin(base + "/", group)).text()
    seats = ",".join(re.findall(r'name="player" value="(\d+)"', group_page))
    table = _post(page, base, group, f"{group}/tables", {"seats": seats})
    page.goto(urljoin(base + "/", table))
    expect(page.locator(".lead").first).to_have_text(", ".join(names))
    return group


def _loaded(page: Page, selector: str) -> None:
    """Every image matching ``selector`` has arrived (a picture, not a broken link)."""
    page.wait_for_function(
        "s => [...document.querySelectorAll(s)].every(i => i.complete && i.naturalWidth > 0)",
        arg=selector,
    )


def test_a_photo_of_the_table_reaches_every_phone_and_the_group(
    phone: Phone, live_server: str, tmp_path: Path
) -> None:
    shot = tmp_path / "table.jpg"
    shot.write_bytes(camera_jpeg((1600, 1200)))
    page = phone()
    group = group_table(page, live_server, ["Ann", "Ben"])
    start_game(page, "odd-world")
    expect(page.get_by_role("heading", level=1)).to_have_text("Odd World")
    other = second_phone(phone, page)
    page.get_by_role("button", name="One more Hoopoe for Ann").click()
    expect(page.get_by_label("Ann's Hoopoe", exact=True)).to_have_value("1")

    photos = page.locator("#play-photos")
    photos.scroll_into_view_if_needed()
    expect(photos.get_by_label("Take a photo of the table")).to_have_attribute(
        "capture", "environment"
    )
    assert_accessible(page)
    photos.get_by_label("Take a photo of the table").set_input_files(shot)  # sent at once
    thumbnail = photos.get_by_role("img", name="Photo 1 of the table")
    expect(thumbnail).to_be_visible()
    _loaded(page, "#play-photos img")
    box = thumbnail.bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= 390  # within the phone's width
    assert box["height"] > box["width"]  # turned upright by its EXIF orientation
    expect(page.get_by_label("Ann's Hoopoe", exact=True)).to_have_value("1")  # nothing lost
    # The field is empty again, ready for the next photo (never the kept one sent twice).
    expect(photos.get_by_label("Add a photo of the table")).to_have_value("")
    assert_accessible(page)

    poll_now(other)
    expect_live(
        other.locator("#play-photos").get_by_role("img", name="Photo 1 of the table")
    ).to_be_visible()

    page.get_by_role("button", name="Finish the game").click()
    page.get_by_role("button", name="Finish anyway").click()
    expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
    expect(page.locator("#play-photos img")).to_have_count(1)

    page.get_by_role("link", name=re.compile("Table")).first.click()
    evening = page.locator("#evening-photos")
    expect(evening.get_by_role("img", name="Odd World: photo 1 of the table")).to_be_visible()
    _loaded(page, "#evening-photos img")
    assert_accessible(page)

    page.goto(urljoin(live_server + "/", f"{group}/history"))
    expect(
        page.get_by_role("img", name=re.compile(r"^Odd World, .*: photo 1 of the table$"))
    ).to_be_visible()
    _loaded(page, ".history-list img")
    assert_accessible(page)
    page.get_by_role("link", name="Leaderboards", exact=True).click()
    ratings = page.locator("#ratings")
    expect(ratings.get_by_role("heading", name="Skill ratings")).to_be_visible()
    expect(ratings.locator("tbody tr")).to_have_count(2)
    expect(ratings.locator("tbody tr").first).to_contain_text("Ann")
    expect(ratings.locator("tbody tr").first).to_contain_text("provisional")
    chart = page.locator("svg.chart-svg").filter(has=page.locator("#ratings-chart-desc"))
    expect(chart).to_be_visible()
    chart_box = chart.bounding_box()
    assert chart_box is not None
    assert chart_box["width"] <= 390
    assert_accessible(page)


def test_without_javascript_the_same_form_keeps_the_photo(
    phone: Phone, live_server: str, tmp_path: Path
) -> None:
    shot = tmp_path / "table.jpg"
    shot.write_bytes(camera_jpeg((800, 600)))
    page = phone(java_script_enabled=False)
    group_table(page, live_server, ["Ann", "Ben"])
    page.get_by_label("Game", exact=True).select_option("odd-world")
    page.get_by_role("button", name="Start", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Odd World")
    page.get_by_label("Take a photo of the table").set_input_files(shot)
    page.get_by_role("button", name="Keep this photo").click()
    expect(page).to_have_url(re.compile(r"/plays/\d+(\?[^#]*)?#play-photos$"))
    expect(
        page.locator("#play-photos").get_by_role("img", name="Photo 1 of the table")
    ).to_be_visible()
    page.get_by_role("button", name="Remove photo 1").click()
    expect(page.locator("#play-photos img")).to_have_count(0)
