"""Oddland through its pages with the test client, and legal play-along turns to lay."""

from __future__ import annotations

import random
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from companion.extensions import db
from companion.games.grid import components
from companion.games.oddland import Token, TurnModel, check_turn, replay
from companion.games.oddland.state import unmade_spaces
from companion.models import Play
from support.client import csrf, post_game_form

KNOWN = ("begator", "flora", "owloose", "pangeroo", "whalephant", "pigehorse", "grizzsleep")


#: The six cards of the box start on side A (the first game's set-up).
IN_BOX = KNOWN[:6]


def start_oddland(client: FlaskClient, token: str, **options: str) -> int:
    """Start Oddland through its options page; every known species on A unless given."""
    page = client.post(
        f"/t/{token}/plays",
        data={"game": "oddland", "confirm": "yes", "csrf_token": csrf(client, f"/t/{token}")},
    )
    assert page.status_code == 303
    data = {f"side_{key}": "A" for key in IN_BOX}
    data.update(options)
    data["csrf_token"] = csrf(client, f"/t/{token}/plays/new/oddland")
    response = client.post(f"/t/{token}/plays/new/oddland", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return int(response.headers["Location"].split("/plays/")[1].split("?")[0])


CARDS_WIDE = 6


CARDS = 37


TERRAINS = "FSWM"


#: Draws of a card's terrains before giving up on a place where no token fits.
MAX_DRAWS = 200


def _turn_with_a_token(
    rng: random.Random, at: list[int], rows: list[str], tokens: list[Token]
) -> TurnModel:
    """A card at ``at`` with random terrains on which a token fits (every turn places one:
    the rules allow no turn without), drawn again until one does."""
    for _ in range(MAX_DRAWS):
        terrains = ["".join(rng.choice(TERRAINS) for _ in range(2)) for _ in range(2)]
        card = {"at": at, "terrains": terrains}
        for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1)):
            token = {"player": "Ann", "species": "flora", "cells": [[at[0] + dr, at[1] + dc]]}
            trial = TurnModel.model_validate({"card": card, "token": token})
            if not check_turn(rows, trial, tokens=tokens):
                return trial
    raise AssertionError(f"no card at {at} takes a token in {MAX_DRAWS} draws")


def play_along_turns(rng: random.Random) -> list[TurnModel]:
    """37 legal turns laid in reading order, each with a token."""
    turns: list[TurnModel] = []
    rows: list[str] = []
    tokens: list[Token] = []
    for number in range(CARDS):
        at = [2 * (number // CARDS_WIDE), 2 * (number % CARDS_WIDE)]
        turns.append(_turn_with_a_token(rng, at, rows, tokens))
        rows, tokens, problems = replay(turns)
        assert not problems, problems
    return turns


def post(
    client: FlaskClient, token: str, play_id: int, route: str, *, htmx: bool = True, **data: Any
) -> TestResponse:
    """Post one of the Oddland forms (with this phone's CSRF token)."""
    return post_game_form(client, token, play_id, "oddland", route, htmx=htmx, **data)


def state_of(app: Flask, play_id: int) -> dict[str, Any]:
    """The stored state of a play."""
    with app.app_context():
        play = db.session.get(Play, play_id)
        assert play is not None
        return dict(play.state)


def turn_form(row: int, col: int, terrains: str, **token: str) -> dict[str, str]:
    """The next-turn form: four terrain letters, the card's top-left place, the token."""
    tl, tr, bl, br = terrains
    data = {"row": str(row), "col": str(col), "top_left": tl, "top_right": tr,
            "bottom_left": bl, "bottom_right": br, "player": "Ann", "species": "begator",
            "space": "top-left", "second": ""}  # fmt: skip
    data.update(token)
    return data


def tok(player: str, species: str, *cells: tuple[int, int]) -> dict[str, Any]:
    """A token entry as the API takes it."""
    return {"player": player, "species": species, "cells": [list(cell) for cell in cells]}


ROW_TEXT = st.text(alphabet="FSWM.", min_size=0, max_size=8)
MAPS = st.lists(ROW_TEXT, min_size=0, max_size=8)
POOL = ["begator", "flora", "flora", "owloose", "pangeroo", "pigehorse", "grizzsleep"]
PLAYERS = ["Ann", "Ben", "Cy"]


def made_by_cards(rows: list[str], pair: str = "") -> list[str]:
    """The map with the set-up ``pair`` (8 terrain letters, if given) laid at its top left,
    in 2 rows of 4, without the spaces no 2x2 map card can have made (again, until none is
    left: clearing one may leave a neighbour outside every 2x2 block), and only the piece
    holding the pair, else the largest (cards are laid against the map, so a map hangs
    together)."""
    rows = list(rows)
    if pair:
        rows += [""] * (2 - len(rows))
        for r in range(2):
            rows[r] = pair[4 * r : 4 * r + 4] + rows[r][4:]
    while unmade := unmade_spaces(rows):
        for r, c in unmade:
            rows[r] = rows[r][:c] + "." + rows[r][c + 1 :]
    spaces = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."]
    pieces = sorted(components(spaces), key=lambda p: ((0, 0) in p, len(p)), reverse=True)
    for piece in pieces[1:]:  # every piece is whole 2x2 blocks: the rest stays made
        for r, c in piece:
            rows[r] = rows[r][:c] + "." + rows[r][c + 1 :]
    return rows


#: The set-up pair's 8 terrain letters (2 rows of 4), or none (an empty map).
PAIRS = st.text(alphabet="FSWM", min_size=8, max_size=8) | st.just("")


@st.composite
def tables(draw: st.DrawFn) -> dict[str, Any]:
    """A valid three-player table: a map that grew from the set-up pair by 2x2 cards (or
    none yet), tokens on distinct spaces within supply."""
    pair = draw(PAIRS)
    # Without the pair, the map is empty: nothing entered yet.
    rows = made_by_cards(draw(MAPS), pair) if pair else []
    spaces = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."]
    # Each token is a turn, and each turn's card adds at least 2 spaces to the pair's 8.
    most = min(12, max(0, (len(spaces) - 8) // 2))
    chosen = draw(st.lists(st.sampled_from(spaces), unique=True, max_size=most)) if most else []
    tokens = [
        tok(PLAYERS[n % 3], POOL[n // 3], cell) for n, cell in enumerate(chosen[: 3 * len(POOL)])
    ]
    return {
        "players": PLAYERS,
        "map": rows,
        "tokens": tokens,
        "sides": {"begator": "A", "flora": "A", "owloose": "B", "pangeroo": "A"},
        "points": {"Ben": {"pangeroo": 4}},
        "definitions": {"owloose": {"B": {"points": 1, "per": "token", "region": "row"}}},
    }
