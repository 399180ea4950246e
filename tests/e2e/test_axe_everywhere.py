"""Axe on every page of every game, in light and in dark mode (the phone's colour scheme):
the home, table, options, play, history, referee, rules, help and group pages, each with
something entered so that its tap targets are on the page. The accessible name of every
control holds its visible text (Lighthouse's "label-content-name-mismatch").

The games, their tools and their own pages come from the registries
(``companion.games.GAMES``, ``companion.web.games.PAGES``): a new game is scanned
without touching this file."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from companion.games import GAMES as ENGINES
from companion.web.game_pages import tool_rule
from companion.web.games import PAGES
from support.axe import assert_accessible
from support.browser import Phone, new_table
from support.routes import play_pages

pytestmark = pytest.mark.e2e


PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
#: Each registered game's slug and the heading of its play page (its name).
GAMES = {slug: game.name for slug, game in ENGINES.items()}
#: Pages that need no table, every game's referee tools among them.
OPEN_PAGES = [
    "/",
    "/join",
    "/rules",
    "/rules/search?q=tie",
    "/help",
    *(tool_rule(slug, tool) for slug, pages in PAGES.items() for tool in pages.tools),
    "/groups/new",
    "/offline",
]


def assert_accessible_in_both_modes(page: Page) -> None:
    """Axe finds nothing with the phone in light mode, then in dark mode."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert_accessible(page)
    page.emulate_media(color_scheme="light")


def visit(page: Page, url: str) -> None:
    """Open a page and check it in both modes."""
    response = page.goto(url)
    assert response is not None
    assert response.ok, f"{url}: {response.status}"
    assert_accessible_in_both_modes(page)


@pytest.mark.parametrize("path", OPEN_PAGES)
def test_pages_without_a_table(phone: Phone, live_server: str, path: str) -> None:
    visit(phone(), live_server + path)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_rules_and_help_of_each_game(phone: Phone, live_server: str, slug: str) -> None:
    page = phone()
    visit(page, f"{live_server}/rules/{slug}")
    visit(page, f"{live_server}/help/{slug}")


def start(page: Page, slug: str) -> str:
    """Start the game from the table page (its options page, when it has one, is checked
    on the way); the play's address."""
    page.get_by_label("Game", exact=True).select_option(slug)
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_url(re.compile(r"/plays/(new/|\d+)"))
    if "/plays/new/" in page.url:
        assert_accessible_in_both_modes(page)
        page.get_by_role("button", name=f"Start {GAMES[slug]}").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(GAMES[slug])
    expect(page).to_have_url(re.compile(r"/plays/\d+"))
    return page.url.split("#")[0].split("?")[0]


def enter_something(page: Page, slug: str) -> None:
    """One tap of each game's main entry, so the page shows what a game in play shows."""
    match slug:
        case "odd-world":
            page.get_by_role("button", name="One more Hoopoe for Ann").click()
            expect(page.get_by_label("Ann's Hoopoe", exact=True)).to_have_value("1")
        case "owl-about":
            page.get_by_role("button", name="Ann leads").click()
            picker = page.locator(".owl-picker button.owl-pick:not([disabled])").first
            picker.click()
            expect(page.locator(".owl-down .owl-card:not(.owl-blank)")).to_have_count(1)
        case "oddville":
            page.locator("button.ov-place").first.click()
            expect(page.locator("button.ov-card")).not_to_have_count(1)
        case "oddland":
            page.locator(".ol-tool", has_text=re.compile(r"^\s*\S*\s*Forest\s*$")).click()
            page.get_by_role("button", name=re.compile("^Row 1, col 1: ")).click()
            expect(page.get_by_role("button", name="Row 1, col 1: forest")).to_be_visible()
        case _:
            page.locator("main button:not([disabled])").first.focus()


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_page_of_a_game_in_play(phone: Phone, live_server: str, slug: str) -> None:
    page = phone()
    new_table(page, live_server, PLAYERS)
    assert_accessible_in_both_modes(page)  # the table page
    play = start(page, slug)
    assert_accessible_in_both_modes(page)
    enter_something(page, slug)
    assert_accessible_in_both_modes(page)
    visit(page, f"{play}/history")
    for own_page in play_pages(slug):  # Oddland's facts, Lucky's referee...
        visit(page, f"{play}{own_page}")


def test_group_pages(phone: Phone, live_server: str) -> None:
    page = phone()
    page.goto(f"{live_server}/groups/new")
    page.get_by_label("Name of the group").fill("Thursdays")
    for number, name in enumerate(PLAYERS[:3], 1):
        page.get_by_label(f"Player {number}", exact=True).fill(name)
    page.get_by_role("button", name="Create the group").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Thursdays")
    assert_accessible_in_both_modes(page)
    group = page.url.split("#")[0].split("?")[0]
    for tail in ("/history", "/stats", "/stats?game=oddland", "/versus"):
        visit(page, group + tail)
