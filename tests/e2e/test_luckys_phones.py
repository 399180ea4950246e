"""Two phones tally Lucky's Misadventures at once in Chromium, and run a round of the
companion: live totals, the deciding tiebreaker in words, axe scans."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from support.axe import assert_accessible
from support.polls import expect_live

pytestmark = pytest.mark.e2e


def tap_plus(page: Page, card: str, player: str) -> None:
    """Tap a stepper's + and wait until the saved count shows."""
    count = page.get_by_label(f"{player}'s {card}", exact=True)
    before = int(count.input_value())
    page.get_by_role("button", name=f"One more {card} for {player}").click()
    expect(count).to_have_value(str(before + 1))


def test_two_phones_tally_two_decks_and_run_a_round(browser: Browser, live_server: str) -> None:
    lewis = browser.new_context().new_page()
    lewis.goto(live_server)
    lewis.get_by_label("Player 1", exact=True).fill("Lewis")
    lewis.get_by_label("Player 2", exact=True).fill("Carol")
    lewis.get_by_role("button", name="Start the table").click()
    expect(lewis.get_by_role("heading", level=1)).to_contain_text("Table")
    code = lewis.locator("h1 .code").inner_text()
    lewis.get_by_label("Game", exact=True).select_option("luckys-misadventures")
    lewis.get_by_role("button", name="Start").click()
    expect(lewis.get_by_role("heading", level=1)).to_have_text("Lucky's Misadventures")
    expect(lewis).to_have_url(re.compile(r"/plays/\d+"))
    assert_accessible(lewis)

    carol = browser.new_context().new_page()
    carol.goto(f"{live_server}/join")
    carol.get_by_label("Join code").fill(code)
    carol.get_by_role("button", name="Join").click()
    carol.get_by_role("link", name="Open Lucky's Misadventures").click()
    expect(carol.get_by_role("heading", level=1)).to_have_text("Lucky's Misadventures")

    # One phone per player: each shows its own deck.
    lewis.get_by_role("navigation", name="Whose deck to show").get_by_role(
        "link", name="Lewis"
    ).click()
    carol.get_by_role("navigation", name="Whose deck to show").get_by_role(
        "link", name="Carol"
    ).click()
    expect(carol.get_by_role("heading", name=re.compile("^Carol"))).to_be_visible()

    # Both decks at once: 10 (Lucky) + 7 (Tiny Tin) + 1 (a Hireling) each.
    tap_plus(lewis, "Tiny Tin", "Lewis")
    tap_plus(carol, "Tiny Tin", "Carol")
    tap_plus(lewis, "Clockmakers", "Lewis")
    tap_plus(carol, "Winged Monkey", "Carol")

    # Tied on 18: the Winged Monkey is a Wicked card, and the fourth tiebreaker decides.
    decision = re.compile(
        r"Carol and Lewis tie on 18 points; VP from Wicked cards decides: "
        r"Carol 1 VP from Wicked cards, Lewis 0 VP from Wicked cards\. Carol leads\."
    )
    expect_live(lewis.locator(".decision")).to_have_text(decision)
    expect_live(carol.locator(".decision")).to_have_text(decision)
    assert_accessible(carol)

    # One round of the companion on Lewis's phone; Carol's phone follows.
    for card in ("4 of Cups", "5 of Wands", "Death"):
        lewis.get_by_role("button", name=card, exact=True).click()
        expect(lewis.locator(".lm-revealed")).to_contain_text(card)
    expect(lewis.locator(".lm-round")).to_contain_text(
        "Lewis holds the Feed the Toad! card (passed 2 seats from Lewis)"
    )
    expect_live(carol.locator(".lm-round")).to_contain_text("Turn order: Lewis, Carol.")
    expect(carol.get_by_role("heading", name="Round 2 of 14 (first half)")).to_be_visible()
    expect(carol.get_by_role("button", name="Death", exact=True)).to_be_disabled()
    assert_accessible(lewis)

    lewis.get_by_role("link", name="Challenge, buy points, Machines, escapes").click()
    expect(lewis.get_by_role("heading", level=1)).to_have_text("Lucky's Misadventures referee")
    lewis.get_by_label("Lewis's power", exact=True).fill("2")
    lewis.get_by_role("button", name="Resolve the challenge").click()
    expect(lewis.locator(".lm-answer")).to_contain_text("Lewis crushed it by 2")
    assert_accessible(lewis)

    # Finishing (the companion does not hold 14 rounds: it asks first) names the winner.
    carol.get_by_role("button", name="Finish the game").click()
    carol.get_by_role("button", name="Finish anyway").click()
    expect(carol.get_by_role("heading", name="Final standings")).to_be_visible()
    expect(carol.locator(".decision")).to_have_text(re.compile(r"Carol wins\. Tiebreaker 4"))
    assert_accessible(carol)
