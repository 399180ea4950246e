"""The table at a glance, for every registered game, on a phone (390 by 844 CSS px):

- nothing moves under a finger: the tapped control stays within 2 px through the first tap
  of a fresh game, a trick or round completing, a notice appearing and another phone's
  update, and two taps at one spot land on one control;
- nothing scrolls sideways: no page of the app is wider than the screen at 320 and 390 px,
  in every language;
- the main control is on the first screen: a fresh play page shows what the phone is there
  to do within its first 844 px, in the player's own view and the Everyone view, in every
  language.

Another phone's change is fetched by firing the poll's ``poll-now`` event
(``support/polls.py``), never by waiting for the poll's timer.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from companion.config import DEFAULT_LANGUAGE, LANGUAGES
from companion.games import GAMES
from companion.games.odd_world import BIRDS
from support.browser import Phone, new_table, screen_y
from support.glances import GLANCES, Glance
from support.polls import poll_now

pytestmark = pytest.mark.e2e

LIVE_TIMEOUT_MS = 8000
#: How far (CSS px) a tapped control may move on screen.
STILL_PX = 2
#: The first screen of a phone.
FIRST_SCREEN_PX = 844
PLAYERS = ["Ann", "Ben", "Cy"]
#: A CSS selector for an element from its ids and places in the page (the same element
#: on the same page in another language, whose words differ).
CSS_PATH = """e => { const path = [];
  for (; e && e.nodeType === 1 && e.tagName !== 'HTML'; e = e.parentElement) {
    if (e.id) { path.unshift('#' + CSS.escape(e.id)); break; }
    const same = [...e.parentElement.children].filter(c => c.tagName === e.tagName);
    path.unshift(e.tagName.toLowerCase() + ':nth-of-type(' + (same.indexOf(e) + 1) + ')');
  }
  return path.join(' > '); }"""


def test_every_game_has_a_glance() -> None:
    assert set(GLANCES) == set(GAMES), "say how to reach each game's main control"


# --- Helpers --------------------------------------------------------------------------


def version(page: Page) -> str:
    """The play's version this page shows."""
    return page.locator("#play-poll").get_attribute("data-version") or ""


def settled(page: Page, *, not_version: str | None = None, version_is: str | None = None) -> None:
    """Wait until the page holds a newer version (or this one) and no request is open."""
    poll = page.locator("#play-poll")
    for _ in range(20):
        poll_now(page)
        try:
            if version_is is not None:
                expect(poll).to_have_attribute("data-version", version_is, timeout=1000)
            elif not_version is not None:
                expect(poll).not_to_have_attribute("data-version", not_version, timeout=1000)
            break
        except AssertionError:
            continue
    else:
        raise AssertionError(f"the page stayed at version {version(page)}")
    expect(page.locator(".htmx-request")).to_have_count(0, timeout=LIVE_TIMEOUT_MS)


def tap(page: Page, control: Locator, glance: Glance | None = None, turn: int = 0) -> None:
    """Tap a control (or type into it, as ``glance`` says) and wait until the change is
    saved and shown."""
    before = version(page)
    if glance is None:
        control.click()
    else:
        glance.use(control, turn)
    settled(page, not_version=before)


def identity(page: Page, x: float, y: float) -> str:
    """Which control is at a point: a stepper by its label (its value, or its tap, holds
    the next count), any other by its field's name and value (a place's row and column, a
    card's code)."""
    return str(
        page.evaluate(
            """([x, y]) => {
              const el = document.elementFromPoint(x, y);
              const b = el && el.closest('button, input, select, a, label');
              if (!b) return '';
              if (b.name === 'value' || b.name === 'tap') {
                return 'stepper ' + b.getAttribute('aria-label');
              }
              const at = (b.getAttribute('value') || '').split(',').slice(0, 2).join(',');
              return b.tagName + ' ' + (b.name || b.textContent.trim()) + '=' + at;
            }""",
            [x, y],
        )
    )


def idle(page: Page) -> None:
    """Wait until no request of this page is open, then for its poll's answer too."""
    expect(page.locator(".htmx-request")).to_have_count(0, timeout=LIVE_TIMEOUT_MS)
    poll_now(page)
    expect(page.locator(".htmx-request")).to_have_count(0, timeout=LIVE_TIMEOUT_MS)


def assert_still(control: Locator, before: float, what: str) -> None:
    after = screen_y(control)
    assert abs(after - before) <= STILL_PX, f"{what}: moved from y={before:.0f} to y={after:.0f}"


def start(page: Page, base: str, slug: str, glance: Glance | None = None) -> Glance:
    """A table of three whose phone this is (Ann's), then a fresh play of the game (and
    its glance: ``GLANCES``' unless given)."""
    glance = glance or GLANCES[slug]
    new_table(page, base, PLAYERS)
    who = page.locator("section", has=page.get_by_role("heading", name="Whose phone is this?"))
    who.get_by_role("button", name="Ann", exact=True).click()
    # Answered: the table page is back, asking no more.
    expect(page.get_by_role("button", name="Just watching")).to_have_count(0)
    page.get_by_label("Game", exact=True).select_option(slug)
    page.get_by_role("button", name="Start", exact=True).click()
    if glance.options:
        page.get_by_role("button", name=glance.options).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(GAMES[slug].name))
    expect(page).to_have_url(re.compile(r"/plays/\d+"))
    if glance.ready:
        tap(page, page.get_by_role("button", name=glance.ready))
    return glance


def play_url(page: Page, seat: str) -> str:
    return re.sub(r"[?#].*$", "", page.url) + f"?seat={seat}"


# --- The main control on the first screen -----------------------------------------------


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_main_control_is_on_the_first_screen(
    phone: Phone, live_server: str, slug: str, language: str, tmp_path: Path
) -> None:
    ann = phone()
    glance = start(ann, live_server, slug)
    # The same page in the language measured: a phone of its own with Ann's session (the
    # control is found by its place in the page, its words being that language's).
    reader = ann if language == DEFAULT_LANGUAGE else phone(locale=language)
    if reader is not ann:
        reader.context.add_cookies(ann.context.cookies())
    for seat in ("0", "all"):
        ann.goto(play_url(ann, seat))
        control = (glance.first or glance.control)(ann)
        expect(control).to_be_visible()
        if reader is not ann:
            where = control.evaluate(CSS_PATH)
            reader.goto(play_url(ann, seat))
            control = reader.locator(where)
            expect(control).to_be_visible()
            assert reader.locator("html").get_attribute("lang") == language
        assert reader.evaluate("window.scrollY") == 0
        top = screen_y(control)
        reader.screenshot(path=str(tmp_path / f"{slug}-{seat}-{language}.png"))
        assert top < FIRST_SCREEN_PX, (
            f"{slug}, seat {seat}, {language}: the main control's top is at {top}"
        )


# --- Nothing moves under a finger -------------------------------------------------------


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_tapped_control_stays_put(
    phone: Phone, live_server: str, slug: str, tmp_path: Path
) -> None:
    stays_put(phone, live_server, slug, GLANCES[slug], tmp_path)


#: Odd World's typed counts: a box to type in, as a game's main control may be.
TYPED_COUNT = Glance(
    options=None,
    control=lambda p: p.get_by_label("Ann's Bird-of-paradise", exact=True),
    other=lambda p: p.get_by_label("Ben's Hoopoe", exact=True),
    typed=("1", "2", "3"),
)


def test_a_typed_control_stays_put(phone: Phone, live_server: str, tmp_path: Path) -> None:
    stays_put(phone, live_server, "odd-world", TYPED_COUNT, tmp_path)


def stays_put(phone: Phone, live_server: str, slug: str, glance: Glance, tmp_path: Path) -> None:
    """The main control stays within 2 px through a fresh game's first use, a second use
    at the same spot, a trick or round completing, another phone's update and a notice."""
    ann = phone()
    start(ann, live_server, slug, glance)
    ann.goto(play_url(ann, "0"))
    control = glance.control(ann)
    expect(control).to_be_visible()
    control.scroll_into_view_if_needed()  # a thumb scrolls to it first if it must
    y = screen_y(control)

    # The first tap (or typed value) of a fresh game.
    tap(ann, control, glance)
    assert_still(control, y, "the first tap of a fresh game")

    # A second tap at the same spot lands on the same control (a used card stays put,
    # disabled; a place tapped again is the same place; a box typed in again is the same).
    box = control.bounding_box()
    assert box is not None
    x, middle = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    tapped = identity(ann, x, middle)
    if glance.typed:
        tap(ann, control, glance, turn=1)
    else:
        ann.mouse.click(x, middle)
    idle(ann)
    assert identity(ann, x, middle) == tapped, "two taps at one spot hit two controls"
    assert_still(control, y, "a second tap at the same spot")

    # A trick or round completing.
    if glance.completing is not None:
        for _ in range(glance.completing_taps):
            tap(ann, glance.completing(ann))
        assert_still(control, y, "a trick or round completing")

    # Another phone's change, fetched by this phone's poll (a box in use holds live
    # updates until the phone moves on from it).
    if glance.typed:
        control.blur()
    ben = phone()
    ben.goto(play_url(ann, "all"))
    tap(ben, glance.other(ben), glance)
    settled(ann, version_is=version(ben))
    assert_still(control, y, "another phone's update")

    # A notice appearing: a tap that cannot be sent says so at the top of the screen.
    ann.context.set_offline(True)
    glance.use(control if control.is_enabled() else glance.other(ann), turn=2)
    expect(ann.locator("#connection")).to_be_visible()
    assert_still(control, y, "the no-connection notice appearing")
    ann.context.set_offline(False)
    ann.screenshot(path=str(tmp_path / f"{slug}-after.png"))


def test_odd_world_two_quick_taps_count_one_bird_twice(phone: Phone, live_server: str) -> None:
    """The issue's case: a fresh game, + on Bird-of-paradise twice at one spot."""
    ann = phone()
    start(ann, live_server, "odd-world")
    plus = ann.get_by_role("button", name="One more Bird-of-paradise for Ann")
    box = plus.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    bird = ann.get_by_label("Ann's Bird-of-paradise", exact=True)
    ann.mouse.click(x, y)
    expect(bird).to_have_value("1")
    ann.mouse.click(x, y)
    expect(bird).to_have_value("2")
    expect(ann.get_by_label("Ann's Hoopoe", exact=True)).to_have_value("0")


def test_odd_world_game_over_notice_does_not_push_a_typed_field(
    phone: Phone, live_server: str
) -> None:
    """Phone B types Ann's ninth bird: the "holds all nine birds" notice appears, and the
    field typed in stays where it was."""
    ann = phone()
    start(ann, live_server, "odd-world")
    ben = phone()
    ben.goto(play_url(ann, "all"))
    birds = list(BIRDS.values())
    for bird in birds[:-1]:
        field = ben.get_by_label(f"Ann's {bird}", exact=True)
        before = version(ben)
        field.fill("1")
        field.press("Enter")
        settled(ben, not_version=before)
    last = ben.get_by_label(f"Ann's {birds[-1]}", exact=True)
    y = screen_y(last)
    last.fill("1")
    last.press("Enter")
    expect(ben.locator(".game-over")).to_contain_text("all nine birds", timeout=LIVE_TIMEOUT_MS)
    assert_still(last, y, "the typed field when the game-over notice appeared")
    # Ann's phone hears of it through its poll; its + stays put too.
    plus = ann.get_by_role("button", name="One more Hoopoe for Ann")
    y = screen_y(plus)
    settled(ann, version_is=version(ben))
    expect(ann.locator(".game-over")).to_be_visible()
    assert_still(plus, y, "Ann's + when the game-over notice arrived")


# --- Nothing scrolls sideways -----------------------------------------------------------

#: Names as long as a table is likely to type (the roster allows 40 characters).
WIDE_PLAYERS = ["Annabelle-Marie", "Bartholomew", "Cy"]


def _pages_of_an_evening(page: Page, base: str) -> list[str]:
    """A group's table with a play of every game (Odd World finished): every page of the
    app a phone opens, as paths."""
    page.goto(base)
    page.get_by_role("link", name="Start a group").click()
    page.get_by_label("Name of the group").fill("Thursday evenings at the corner table")
    for number, name in enumerate(WIDE_PLAYERS, 1):
        page.get_by_label(f"Player {number}", exact=True).fill(name)
    page.get_by_role("button", name="Create the group").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Thursday"))
    group = page.url
    for number, name in enumerate(WIDE_PLAYERS, 1):
        page.get_by_role("link", name=re.compile(f"^{name}$")).click()
        expect(page.get_by_text(re.compile(f"Seating:.* {number}. {name}"))).to_be_visible()
    page.get_by_role("button", name="Start tonight's table").click()
    expect(page.locator(".lead").first).to_have_text(", ".join(WIDE_PLAYERS))
    expect(page).to_have_url(re.compile(r"/t/[^/]+$"))
    table = page.url
    view = page.locator("#view-link").input_value()
    plays: list[str] = []
    for slug in sorted(GAMES):
        page.goto(table)
        page.get_by_label("Game", exact=True).select_option(slug)
        page.get_by_role("button", name="Start", exact=True).click()
        if plays:  # a game before it is not finished: the table asks first
            asked = page.get_by_role("heading", name=f"Start {GAMES[slug].name}?")
            expect(asked).to_be_visible()
            page.get_by_role("button", name=f"Start {GAMES[slug].name}").click()
            expect(asked).to_have_count(0)
        options = GLANCES[slug].options
        if options:
            page.get_by_role("button", name=options).click()
        expect(page).to_have_url(re.compile(r"/plays/\d+"))
        plays.append(re.sub(r"[?#].*$", "", page.url))
        if slug == "odd-world":
            tap(page, page.get_by_role("button", name=f"One more Hoopoe for {WIDE_PLAYERS[0]}"))
            page.get_by_role("button", name="Finish the game").click()
            page.get_by_role("button", name="Finish anyway").click()
            expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
    page.goto(group)
    group_pages = [str(link.get_attribute("href")) for link in page.locator(".group-nav a").all()]
    seats = ["all", *(str(n) for n in range(len(WIDE_PLAYERS)))]
    return [
        "/",
        "/join",
        table,
        view,
        *(f"{play}?seat={seat}" for play in plays for seat in seats),
        *(play.replace(table.rstrip("/"), view.rstrip("/")) for play in plays),
        f"{plays[0]}/history",
        "/groups/new",
        *group_pages,
        "/rules",
        *(f"/rules/{slug}" for slug in sorted(GAMES)),
        "/help",
        *(f"/help/{slug}" for slug in sorted(GAMES)),
    ]


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_no_page_is_wider_than_the_screen(phone: Phone, live_server: str, language: str) -> None:
    setup = phone()
    paths = _pages_of_an_evening(setup, live_server)
    wide: list[str] = []
    # Each page is loaded once and measured at both widths: the layout is CSS alone (no
    # script reads the width), so narrowing the viewport reflows it as a load at 320 would.
    # German and French words are longer: every language is measured, each on its phone.
    page = phone(viewport={"width": 390, "height": 844}, locale=language)
    page.context.add_cookies(setup.context.cookies())
    for path in paths:
        url = path if path.startswith("http") else live_server + path
        answer = page.goto(url)
        assert answer is not None
        assert answer.ok, f"{url}: {answer.status}"
        for width in (390, 320):
            page.set_viewport_size({"width": width, "height": 844})
            found = page.evaluate(
                """() => { const d = document.documentElement;
                  if (d.scrollWidth <= d.clientWidth) return null;
                  const out = [...document.querySelectorAll('body *')]
                    .filter(e => e.getBoundingClientRect().right > d.clientWidth + 0.5)
                    .slice(-3).map(e => e.tagName.toLowerCase() + '.' + e.className);
                  return d.scrollWidth + ' px: ' + out.join(', '); }"""
            )
            if found:
                wide.append(f"{width} px, {url.removeprefix(live_server)}: {found}")
    assert not wide, "wider than the screen:\n" + "\n".join(wide)
