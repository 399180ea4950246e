"""What browser tests (and the scripts that photograph pages) share: Debian's Chromium at
a phone's size, a new table opened on a phone, and where things are on its screen.

A new table is made the way the home page's form sends it, in one request from the phone
itself (its cookies, so the table is this phone's), and then opened: typing a roster (a
tap on "Add a player" per name, each answered by the server) took 1-2 s of every browser
test. The roster stays tested in the browser where it is the subject: the whole-game
tests type theirs, and test_small_things.py, test_connection.py and test_live_table.py
test its taps, focus, offline taps and a name typed while an answer is on its way.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from urllib.parse import urljoin

from playwright.sync_api import Locator, Page, expect

from support.client import CSRF_HEADER

CHROMIUM = "/usr/bin/chromium"
#: A phone's screen, in CSS px.
PHONE = {"width": 390, "height": 844}
#: The closed network here refuses Chromium's own background connections; keep it quiet.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: What makes a browser context a phone: small viewport, touch, a phone's pixel ratio.
PHONE_CONTEXT = {"viewport": PHONE, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}

#: A new phone (the ``phone`` fixture of tests/e2e/conftest.py): its own browser context,
#: so its own cookies and session; keyword arguments go to the context.
Phone = Callable[..., Page]

SEE_OTHER = 303


def new_table(page: Page, base: str, names: Sequence[str]) -> str:
    """Create a table of ``names`` (seating order) as the home page's form does, open it
    on ``page``, and return its join code."""
    home = page.request.get(base + "/")
    token = CSRF_HEADER.search(home.text())
    assert token, "the home page hands out no CSRF token"
    form: dict[str, str] = {f"players-{i}": name for i, name in enumerate(names)}
    form.update(csrf_token=token.group(1), action="create")
    created = page.request.post(base + "/tables", form=form, max_redirects=0)
    assert created.status == SEE_OTHER, created.text()[:500]
    page.goto(urljoin(base + "/", created.headers["location"]))
    expect(page.locator(".lead").first).to_have_text(", ".join(names))
    return page.locator("h1 .code").inner_text()


def start_game(page: Page, slug: str) -> None:
    """Start a game from the table page (its options page comes next when it has one)."""
    page.get_by_label("Game", exact=True).select_option(slug)
    page.get_by_role("button", name="Start", exact=True).click()


#: The terrains the browser tests give an Oddland card: forest over water.
FOREST_OVER_WATER = (
    ("Top left", "forest"),
    ("Top right", "forest"),
    ("Bottom left", "water"),
    ("Bottom right", "water"),
)


def pick_terrains(page: Page) -> None:
    """Tap the four terrains of the Oddland card being entered (forest over water)."""
    for space, terrain in FOREST_OVER_WATER:
        button = page.get_by_role("button", name=f"{space}: {terrain}", exact=True)
        button.click()
        expect(button).to_have_attribute("aria-pressed", "true")


def lay_setup_cards(page: Page) -> None:
    """Lay the 2 set-up cards of a play-along Oddland game, forest over water, side by
    side at the top left (they carry no token): card 3, the first turn, is then entered."""
    for number, place in ((1, "Row 1, col 1: empty"), (2, "Row 1, col 3: empty")):
        expect(page.get_by_role("heading", name=f"Card {number}")).to_be_visible()
        expect(page.get_by_text(f"Set-up card {number} of 2")).to_be_visible()
        page.get_by_role("button", name=place, exact=True).click()
        pick_terrains(page)
        page.get_by_role("button", name="Lay the card").click()
    expect(page.get_by_role("heading", name="Card 3")).to_be_visible()


def screen_y(target: Locator) -> float:
    """Where the element is on screen now (its top, in CSS px from the viewport's top)."""
    box = target.bounding_box()
    assert box is not None, "not rendered"
    return float(box["y"])


def size(target: Locator) -> tuple[float, float]:
    """Width and height of what a locator finds, in CSS pixels."""
    box = target.bounding_box()
    assert box is not None
    return box["width"], box["height"]


def second_phone(phone: Phone, first: Page) -> Page:
    """Another phone at the table, on the same play as the first."""
    expect(first).to_have_url(re.compile(r"/plays/\d+"))
    page = phone()
    page.goto(first.url)
    return page
