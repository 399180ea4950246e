"""Two phones play a round of Owl About card by card in Chromium; the trick checker; axe."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.games import owl_about as oa
from support.axe import assert_accessible
from support.polls import expect_live

pytestmark = pytest.mark.e2e

PLAYERS = ["Ann", "Ben", "Cy"]


def deck_rows(players: int, tricks: int) -> list[list[str]]:
    """Cards for ``tricks`` tricks dealt from the deck in order (never over a card's copies)."""
    deck = [code for code, copies in oa.DECK.items() for _ in range(copies)]
    return [deck[i * players : (i + 1) * players] for i in range(tricks)]


def create_table(page: Page, base: str) -> str:
    """Create a table of Ann, Ben and Cy; returns its join code."""
    page.goto(base)
    page.get_by_label("Player 1", exact=True).fill(PLAYERS[0])
    for number, name in enumerate(PLAYERS[1:], 2):
        page.get_by_role("button", name="Add a player").click()
        expect(page.get_by_label(f"Player {number}", exact=True)).to_be_visible()
        page.get_by_label(f"Player {number}", exact=True).fill(name)
    # Every name typed stays where it was typed, though the last roster answers may land
    # after it (each answer's new row takes the cursor as it lands, never later).
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling')")
    for number, name in enumerate(PLAYERS, 1):
        expect(page.get_by_label(f"Player {number}", exact=True)).to_have_value(name)
    page.get_by_role("button", name="Start the table").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Table")
    expect(page.locator(".lead").first).to_have_text(", ".join(PLAYERS))
    return page.locator("h1 .code").inner_text()


def tap(phone: Page, *, player: str, code: str, seen_after: str) -> None:
    """Tap a card for a player once it is their turn, and wait for the trick to update."""
    expect_live(phone.locator(".owl-next")).to_have_text(player)
    label = oa.card(code).label
    phone.get_by_role("button", name=re.compile(rf"^Play {label} for {player}")).click()
    if seen_after:
        expect(phone.locator('#trick input[name="seen"]')).to_have_value(seen_after)


def test_two_phones_play_a_round_trick_by_trick(browser: Browser, live_server: str) -> None:
    ann = browser.new_context().new_page()
    code = create_table(ann, live_server)
    ann.get_by_label("Game", exact=True).select_option("owl-about")
    ann.get_by_role("button", name="Start", exact=True).click()
    expect(ann.get_by_role("heading", name="Player chart")).to_be_visible()
    expect(ann.locator(".owl-here")).to_contain_text("3 (you)")
    assert_accessible(ann)
    ann.get_by_role("button", name="Start Owl About").click()
    expect(ann.get_by_role("heading", level=1)).to_have_text("Owl About")
    ann.get_by_role("button", name="Ann leads").click()
    expect(ann.locator(".owl-next")).to_have_text("Ann")
    assert_accessible(ann)

    ben = browser.new_context().new_page()
    ben.goto(f"{live_server}/join")
    ben.get_by_label("Join code").fill(code)
    ben.get_by_role("button", name="Join").click()
    ben.get_by_role("link", name="Owl About", exact=True).click()
    expect(ben.locator(".owl-next")).to_have_text("Ann")

    lead = "Ann"
    tricks = []
    for row in deck_rows(len(PLAYERS), oa.PLAYER_CHART[3].tricks):
        seats = oa.seating_from(PLAYERS, lead)
        for index, (player, card) in enumerate(zip(seats, row, strict=True)):
            phone = ben if player == "Ben" else ann
            last = index == len(row) - 1
            tap(
                phone,
                player=player,
                code=card,
                seen_after="" if last else " ".join(row[: index + 1]),
            )
        tricks.append({"lead": lead, "cards": row})
        taker = oa.trick_progress(mode="basic", players=PLAYERS, lead=lead, cards=row).winner
        assert taker is not None
        if len(tricks) < oa.PLAYER_CHART[3].tricks:
            expect_live(ann.locator(".owl-taken")).to_contain_text(
                f"Trick {len(tricks)} went to {taker}"
            )
        lead = taker

    result = oa.score_game(oa.parse({"players": PLAYERS, "rounds": [{"tricks": tricks}]}))
    for phone in (ann, ben):
        expect_live(phone.get_by_role("heading", name="Round 1 is complete")).to_be_visible()
        expect(phone.locator(".owl-taken")).to_contain_text(f"The last trick went to {lead}")
        for standing in result.standings:
            row = phone.locator(".owl-round-table tbody tr", has_text=standing.player)
            expect(row.locator("td").last).to_have_text(str(standing.score))
        expect(phone.get_by_role("img", name="VP after each round")).to_be_visible()
    assert_accessible(ben)

    ben.get_by_role("button", name=f"{lead} leads").click()
    expect_live(ann.get_by_role("heading", name=re.compile("Round 2 · trick 1"))).to_be_visible()
    ann.get_by_role("button", name="a penalty VP for Cy").click()
    expect_live(ben.locator(".owl-penalties")).to_contain_text("1 this round")


def test_the_trick_checker(browser: Browser, live_server: str) -> None:
    page = browser.new_context().new_page()
    page.goto(f"{live_server}/owl-about/check")
    expect(page.get_by_role("heading", level=1)).to_have_text("Who takes this trick?")
    assert_accessible(page)
    for player, label in (("Lead", "6"), ("Player 2", "2"), ("Player 3", "8")):
        page.get_by_role("button", name=re.compile(f"^{player} plays {label}: ")).click()
    expect(page.locator(".owl-answer")).to_contain_text(
        "Player 3 is winning; Player 4 plays next."
    )
    page.get_by_role("button", name="Player 4 plays 10: 10, 2 left", exact=True).click()
    expect(page.locator(".owl-answer")).to_contain_text("Player 2 takes the trick: 1 trophy.")
    expect(page.locator(".owl-winning .owl-fp")).to_have_text("12 FP")
    page.get_by_text("Hands (optional)").click()
    page.get_by_label("Player 3's hand").fill("8 10")
    page.get_by_role("button", name="Check", exact=True).click()
    expect(page.locator(".owl-answer")).to_contain_text("No rule broken.")
    assert_accessible(page)
