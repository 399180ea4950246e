"""Plays in the middle of a game, for the tests and benchmarks of bytes on the wire."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.games.odd_world import BIRDS
from companion.models import Play
from companion.services import plays
from support.client import TableLinks, create_table, start_play
from support.oddland import play_along_turns, start_oddland
from support.owl_about import deck_rows, start_owl, start_round, tap_all
from support.phones import Phone, panel_of, text_of

PLAYERS = ["Ann", "Ben", "Cy", "Dan"]
#: Oddland with five: 30 tokens (six each) for a late map of 29 laid cards and the tap.
OL_PLAYERS = [*PLAYERS, "Eve"]
AUTHOR = plays.Author("scen", None)
#: Cards on the Oddland map before the taps (26 make a 10 x 12 map; 4 tokens stay for taps).
OL_LAID = 26


@dataclass(frozen=True)
class Scene:
    """A play and its next taps: ``tap(phone, n)`` is the n-th tap from here, as a route
    below the play and its form (or a list of them to try in turn)."""

    links: TableLinks
    play_id: int
    tap: Callable[[Phone, int], Any]


def odd_world(app: Flask, client: FlaskClient) -> Scene:
    """4 players, every display full: a tap adds or takes one bird of Ben's."""
    links = create_table(client, PLAYERS)
    play_id = start_play(client, links.edit)
    with app.app_context():
        play = db.session.get(Play, play_id)
        assert play is not None
        keys = list(BIRDS)
        players = [
            {
                "name": name,
                "display": {k: (i + j) % 3 for j, k in enumerate(keys)},
                "face_down": keys[i],
            }
            for i, name in enumerate(PLAYERS)
        ]
        plays.replace_value(play, path="players", value=players, author=AUTHOR)

    def tap(phone: Phone, step: int) -> tuple[str, dict[str, str]]:
        key = keys[step % len(keys)]
        field = rf'name="path" value="players\[1\]\.display\.{key}">'
        current = re.search(field + r'<input type="hidden" name="base" value="(\d+)"', phone.page)
        assert current, key
        n = int(current.group(1))
        value = n + 1 if n < 2 else n - 1
        return "/edit", {"path": f"players[1].display.{key}", "base": str(n), "value": str(value)}

    return Scene(links, play_id, tap)


def owl_about(_app: Flask, client: FlaskClient) -> Scene:
    """4 players in the fourth trick of round 1: a tap plays the next card."""
    links = create_table(client, PLAYERS)
    play_id = start_owl(client, links.edit)
    start_round(client, links.edit, play_id, "Ann")
    rows = deck_rows(4, 9)
    for row in rows[:3]:
        tap_all(client, links.edit, play_id, row)
    cards = [code for row in rows[3:] for code in row]

    def tap(phone: Phone, step: int) -> tuple[str, dict[str, str]]:
        form = re.search(r'class="owl-picker".*?</form>', phone.page, re.S)
        assert form, "no picker"
        fields = dict(re.findall(r'name="(rounds|trick|seen)" value="([^"]*)"', form.group(0)))
        return "/owl-about/card", {**fields, "card": cards[step]}

    return Scene(links, play_id, tap)


def oddland(app: Flask, client: FlaskClient) -> Scene:
    """A play-along game with 26 cards laid by five players (a 10 x 12 map): a tap lays the
    next card and a token on it (the candidates are tried in turn: the first legal one
    counts)."""
    links = create_table(client, OL_PLAYERS)
    play_id = start_oddland(client, links.edit, play_along="y")
    turns = play_along_turns(random.Random(7))[:36]
    species = ["begator", "owloose", "pangeroo", "pigehorse", "grizzsleep", "flora"]
    with app.app_context():
        play = db.session.get(Play, play_id)
        assert play is not None
        laid: list[dict[str, Any]] = []
        for k, turn in enumerate(turns[:OL_LAID]):
            assert turn.token is not None  # every turn places a token
            cells = [list(cell) for cell in turn.token.cells]
            # Each player holds one token of each species in play: a pair is used once.
            who, kind = OL_PLAYERS[k % 5], species[k // 5 % 6]
            token = {"player": who, "species": kind, "cells": cells}
            laid.append({"card": turn.card.model_dump(), "token": token})
        plays.replace_value(play, path="cards", value=laid, author=AUTHOR)

    def tap(_phone: Phone, step: int) -> list[tuple[str, dict[str, str]]]:
        turn = turns[OL_LAID + step]
        (r, c), t = turn.card.at, turn.card.terrains
        assert turn.token is not None
        (tr, tc), *_ = turn.token.cells  # the space where the turn's token fits
        space = f"{('top', 'bottom')[tr - r]}-{('left', 'right')[tc - c]}"
        card = {"action": "place", "laid": str(OL_LAID + step), "row": str(r), "col": str(c),
                "top_left": t[0][0], "top_right": t[0][1], "bottom_left": t[1][0],
                "bottom_right": t[1][1], "space": space, "second": ""}  # fmt: skip
        return [
            ("/oddland/turn", {**card, "player": who, "species": kind})
            for kind in species
            for who in OL_PLAYERS
        ]

    return Scene(links, play_id, tap)


def tapped(phone: Phone, scene: Scene, step: int, extra: dict[str, str]) -> Any:
    """Phone A's n-th tap of the scene (the first legal one of its candidates), answered
    200."""
    found = scene.tap(phone, step)
    for path, data in found if isinstance(found, list) else [found]:
        response = phone.post(path, data, extra)
        if response.status_code == 200:
            return response
    raise AssertionError(text_of(response)[:500])


@dataclass(frozen=True)
class LiveChange:
    """A tap on phone A and the live update phone B got for it: both answers, both
    phones after taking them, and the page a fresh load shows then."""

    answer: Any
    update: Any
    a: Phone
    b: Phone
    fresh: str


def live_change(app: Flask, scene: Scene, extra: dict[str, str], seat: str = "all") -> LiveChange:
    """Phone A taps (the scene's first tap), phone B polls: each takes its answer, and the
    live path's invariants are checked on the way (each answer is the whole panel, B's
    poll finds the change, both phones then hold what a fresh load shows, and B's next
    poll is 204)."""
    a = Phone(app, scene.links.edit, scene.play_id, seat)
    b = Phone(app, scene.links.edit, scene.play_id, seat)
    answer = tapped(a, scene, 0, extra)
    assert text_of(answer).lstrip().startswith('<section id="play"')
    a.take(answer)
    update = b.poll(extra)
    assert update.status_code == 200
    b.take(update)
    fresh = text_of(app.test_client().get(f"{a.url}?seat={seat}"))
    assert panel_of(a.page) == panel_of(fresh)
    assert panel_of(b.page) == panel_of(fresh)
    # Nothing changed since: B's next poll is the cheap 204.
    assert b.poll({}).status_code == 204
    return LiveChange(answer, update, a, b, fresh)
