"""Hidden information in Chromium: Ann types her Owl About hand on her phone; Ben's phone,
the Everyone view and the read-only link see only that a hand was entered (issue 9,
point 2), then only whether a card played broke a rule."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from support.browser import new_table
from support.polls import expect_live

pytestmark = pytest.mark.e2e

HAND = "2 8 10 6 N6"


def assert_no_hand_of_ann(phone: Page) -> None:
    """Nothing on this phone comes from Ann's hand: no card list, no hint, no marks."""
    expect(phone.locator(".owl-hands")).to_contain_text("Ann: hand entered")
    expect(phone.locator("#trick")).not_to_contain_text("may play")
    expect(phone.locator(".owl-pick.owl-breaks")).to_have_count(0)
    # Nothing is used up before the first card: a disabled card would come from the hand.
    expect(phone.locator(".owl-pick:disabled")).to_have_count(0)
    expect(phone.locator("body")).not_to_contain_text(HAND)
    for field in phone.locator('input[name="hand"]').all():
        expect(field).to_have_value("")


def test_a_hand_typed_on_anns_phone_stays_on_it(browser: Browser, live_server: str) -> None:
    ann = browser.new_context().new_page()
    code = new_table(ann, live_server, ["Ann", "Ben", "Cy"])
    view_link = ann.locator("#view-link").input_value()
    ann.get_by_label("Game", exact=True).select_option("owl-about")
    ann.get_by_role("button", name="Start", exact=True).click()
    ann.get_by_role("button", name="Start Owl About").click()
    ann.get_by_role("button", name="Ann leads").click()
    expect(ann.locator(".owl-next")).to_have_text("Ann")

    ben = browser.new_context().new_page()
    ben.goto(f"{live_server}/join")
    ben.get_by_label("Join code").fill(code)
    ben.get_by_role("button", name="Join").click()
    ben.get_by_role("link", name="Owl About", exact=True).click()
    expect(ben.locator(".owl-next")).to_have_text("Ann")
    expect(ben.locator(".owl-hands")).to_contain_text("Ann: no hand entered")

    # Ann sets her phone to her seat and types her hand.
    ann.locator("nav.seats").get_by_role("link", name="Ann", exact=True).click()
    ann.get_by_label(re.compile("^Ann's hand")).fill(HAND)
    ann.locator(".owl-hand").get_by_role("button", name="Save").click()
    expect(ann.locator("#trick")).to_contain_text("Ann may play: 2, 8, 10, 6")
    expect(ann.get_by_role("button", name="Play 5 for Ann")).to_be_disabled()
    expect(ann.get_by_role("button", name="Play Night 6 for Ann, breaks a rule")).to_be_visible()

    # Ben's phone follows within the poll interval, and sees only that a hand was entered.
    expect_live(ben.locator(".owl-hands")).to_contain_text("Ann: hand entered")
    assert_no_hand_of_ann(ben)
    expect(ben.locator("#trick legend")).to_contain_text("Ann's card (hand entered)")

    # The Everyone view on Ann's own phone, and the read-only link asking for her seat.
    everyone = browser.new_context().new_page()
    everyone.goto(ann.url.replace("seat=0", "seat=all"))
    assert_no_hand_of_ann(everyone)
    readonly = browser.new_context().new_page()
    readonly.goto(view_link)
    readonly.get_by_role("link", name=re.compile(r"Owl About$")).first.click()
    expect(readonly.get_by_role("heading", level=1)).to_have_text("Owl About")
    readonly.goto(f"{readonly.url.split('?')[0]}?seat=0")
    expect(readonly.locator(".owl-hands")).to_contain_text("Ann: hand entered")
    expect(readonly.locator("nav.seats")).to_have_count(0)
    expect(readonly.locator("body")).not_to_contain_text(HAND)

    # Ben taps Ann's Night 6 (she still holds the day 6): every phone learns only that the
    # card broke the night rule.
    ben.get_by_role("button", name=re.compile(r"^Play Night 6 for Ann")).click()
    broken = "While holding a day 6, Ann could not play the Night 6 yet."
    expect(ben.locator("#trick")).to_contain_text(broken)
    expect_live(ann.locator("#trick")).to_contain_text(broken)
    expect(ben.locator("body")).not_to_contain_text(HAND)
    expect(ben.locator("#trick")).not_to_contain_text("may play")

    # The history others read names the hand, never its cards.
    ben.get_by_role("link", name=re.compile(r"^History")).click()
    expect(ben.locator("#history")).to_contain_text("Round 1: Ann's hand entered.")
    expect(ben.locator("#history")).not_to_contain_text("2, 8")
