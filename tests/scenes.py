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
from support.oob import Phone

PLAYERS = ["Ann", "Ben", "Cy", "Dan"]
AUTHOR = plays.Author("scen", None)
#: Cards on the Oddland map before the taps (36 make the 12 x 12 map).
OL_LAID = 32


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
    from tests.web.test_owl_about_pages import deck_rows, start_owl, start_round, tap_all

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
    """A play-along game with 32 cards laid (a 12 x 12 map): a tap lays the next card
    and a token on it (the candidates are tried in turn: the first legal one counts)."""
    from benchmarks.oddland_bench import play_along_turns
    from tests.web.test_oddland_pages import start_oddland

    links = create_table(client, PLAYERS)
    play_id = start_oddland(client, links.edit, play_along="y")
    turns = play_along_turns(random.Random(7))[:36]
    species = ["begator", "owloose", "pangeroo", "pigehorse", "grizzsleep", "flora"]
    with app.app_context():
        play = db.session.get(Play, play_id)
        assert play is not None
        laid: list[dict[str, Any]] = []
        for k, turn in enumerate(turns[:OL_LAID]):
            card = turn.card.model_dump()
            cell = [card["at"][0] + 1, card["at"][1]]
            token = {"player": PLAYERS[k % 4], "species": species[k % 6], "cells": [cell]}
            for tried in ({"card": card, "token": token}, {"card": card}):
                try:
                    plays.replace_value(play, path="cards", value=[*laid, tried], author=AUTHOR)
                except plays.EditRefused:
                    db.session.rollback()
                    continue
                laid.append(tried)
                break

    def tap(_phone: Phone, step: int) -> list[tuple[str, dict[str, str]]]:
        turn = turns[OL_LAID + step]
        (r, c), t = turn.card.at, turn.card.terrains
        card = {"action": "place", "laid": str(OL_LAID + step), "row": str(r), "col": str(c),
                "top_left": t[0][0], "top_right": t[0][1], "bottom_left": t[1][0],
                "bottom_right": t[1][1], "space": "bottom-left", "second": ""}  # fmt: skip
        return [
            ("/oddland/turn", {**card, "player": who, "species": kind})
            for kind in species
            for who in PLAYERS
        ]

    return Scene(links, play_id, tap)
