"""Oddland through its pages with the test client, and legal play-along turns to lay."""

from __future__ import annotations

import random

from flask.testing import FlaskClient

from companion.games.oddland import Token, TurnModel, check_turn, replay
from support.client import csrf

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
