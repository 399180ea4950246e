"""A phone that loses its connection is told so; a tap made offline is refused visibly."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_live_table import Phone, new_table, phone, start_game

pytestmark = pytest.mark.e2e
__all__ = ["phone"]  # the fixture, shared with the live-table tests


def test_a_tap_made_offline_says_it_was_not_saved(phone: Phone, live_server: str) -> None:
    ann: Page = phone()
    new_table(ann, live_server, ["Ann", "Ben"])
    start_game(ann, "odd-world", "Odd World")
    expect(ann).to_have_url(re.compile(r"/plays/\d+"))
    count = ann.get_by_label("Ann's Hoopoe", exact=True)
    plus = ann.get_by_role("button", name="One more Hoopoe for Ann")

    ann.context.set_offline(True)
    plus.click()
    alert = ann.locator("#connection[role=alert]")
    expect(alert).to_have_text(re.compile("Not saved: no connection"))
    expect(count).to_have_value("0")
    expect(ann.locator("#connection")).to_have_text(re.compile("Offline"), timeout=6000)

    ann.context.set_offline(False)
    expect(ann.locator("#connection")).to_be_hidden(timeout=6000)
    plus.click()
    expect(count).to_have_value("1")
    ann.reload()
    expect(ann.get_by_label("Ann's Hoopoe", exact=True)).to_have_value("1")
