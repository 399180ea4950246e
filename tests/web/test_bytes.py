"""Bytes on the wire: a tap's answer and a live update are the play's panel, whole, and
brotli keeps them small. Taking one must leave a phone showing what a fresh load shows,
and they must fit the budgets: 4 KB brotli for an Odd World or Owl About tap or live
update, 16 KB for a late 10 x 12 Oddland map (its panel holds the map twice: drawn, and
as the buttons that place a card)."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from support import scenes
from support.client import create_table
from support.owl_about import start_owl, start_round
from support.phones import Phone, panel_of, text_of

BR = {"Accept-Encoding": "br"}
SMALL_GAME_BUDGET = 4 * 1024
MAP_BUDGET = 16 * 1024


def check_live(app: Flask, scene: scenes.Scene, budget: int, seat: str = "all") -> None:
    """Phone A taps and phone B takes the change (``scenes.live_change`` checks the live
    path on the way); the tap's answer and B's live update fit ``budget`` (brotli)."""
    change = scenes.live_change(app, scene, BR, seat)
    assert change.answer.headers["Content-Encoding"] == "br"
    assert len(change.answer.data) <= budget
    assert len(change.update.data) <= budget


def test_odd_world_tap_and_live_update_fit_the_budget(app: Flask, client: FlaskClient) -> None:
    scene = scenes.odd_world(app, client)
    check_live(app, scene, SMALL_GAME_BUDGET)
    # A phone showing one display gets that display's change too.
    check_live(app, scene, SMALL_GAME_BUDGET, seat="1")


def test_owl_about_tap_and_live_update_fit_the_budget(app: Flask, client: FlaskClient) -> None:
    check_live(app, scenes.owl_about(app, client), SMALL_GAME_BUDGET)


def test_oddland_late_map_live_update_fits_the_budget(app: Flask, client: FlaskClient) -> None:
    check_live(app, scenes.oddland(app, client), MAP_BUDGET)


def test_read_only_live_update_has_no_controls(app: Flask, client: FlaskClient) -> None:
    scene = scenes.odd_world(app, client)
    a = Phone(app, scene.links.edit, scene.play_id, "all")
    viewer = Phone(app, scene.links.view, scene.play_id, "all")
    a.take(scenes.tapped(a, scene, 0, {}))
    update = viewer.poll({})
    html = text_of(update)
    assert "<button" not in html
    assert "<form" not in html
    viewer.take(update)
    fresh = text_of(app.test_client().get(f"/t/{scene.links.view}/plays/{scene.play_id}"))
    assert panel_of(viewer.page) == panel_of(fresh)


def test_a_conflict_shows_its_message_in_the_panel(app: Flask, client: FlaskClient) -> None:
    scene = scenes.odd_world(app, client)
    a = Phone(app, scene.links.edit, scene.play_id, "all")
    b = Phone(app, scene.links.edit, scene.play_id, "all")
    path, data = scene.tap(a, 0)
    assert a.post(path, data, {}).status_code == 200
    clash = b.post(path, data, {})  # B still shows the old count
    assert clash.status_code == 409
    html = text_of(clash)
    assert html.lstrip().startswith('<section id="play"')
    assert 'role="alert"' in html
    assert re.search(r"changed|meanwhile|another phone", html, re.IGNORECASE)


@pytest.mark.parametrize("seat", ["0", "1"])
def test_owl_about_hands_stay_on_their_phone(app: Flask, client: FlaskClient, seat: str) -> None:
    links = create_table(client, scenes.PLAYERS)
    play_id = start_owl(client, links.edit)
    assert start_round(client, links.edit, play_id, "Ann").status_code == 200
    ann = Phone(app, links.edit, play_id, "0")
    other = Phone(app, links.edit, play_id, seat)
    hand = ann.post("/owl-about/hand", {"player": "Ann", "hand": "3 5 7 N6 10"}, {})
    assert hand.status_code == 200, text_of(hand)
    ann.take(hand)
    update = other.poll({})
    other.take(update)
    fresh = text_of(app.test_client().get(f"{other.url}?seat={seat}"))
    assert panel_of(other.page) == panel_of(fresh)
    # Ann's own phone holds her hand; Ben's never sees it.
    assert ("3 5 7 N6 10" in text_of(update)) == (seat == "0")
    assert ("3 5 7 N6 10" in other.page) == (seat == "0")
