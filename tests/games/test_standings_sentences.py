"""The standings sentence for every shape of tie (issue 8: a dropped player was counted)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games import GAMES
from companion.services.explain import decision
from support.odd_world import made_up


def odd_world(*displays: tuple[str, dict[str, int]]) -> dict[str, Any]:
    """An Odd World result from named displays."""
    state = {"players": [{"name": name, "display": shown} for name, shown in displays]}
    return GAMES["odd-world"].score(state).to_json()


def test_two_tied_without_tiebreakers_share() -> None:
    state = {"players": ["Ann", "Ben", "Cy"], "rounds": []}
    result = GAMES["owl-about"].score(state).to_json()
    assert decision(result) == "Ann, Ben and Cy tie on 0 points: they share the lead."


def test_two_tied_on_every_tiebreaker_share() -> None:
    result = odd_world(("Ann", {"hoopoe": 1}), ("Ben", {"shoebill": 1}), ("Cy", {}))
    assert decision(result, over=True) == (
        "Ann and Ben tie on 1 point and on every tiebreaker: they share the victory."
    )


def test_three_tied_on_every_tiebreaker_share() -> None:
    result = made_up([("Ann", 3, 3, 1), ("Ben", 3, 3, 1), ("Cy", 3, 3, 1)], ["Ann", "Ben", "Cy"])
    assert decision(result) == (
        "Ann, Ben and Cy tie on 3 points and on every tiebreaker: they share the victory."
    )


def test_first_tiebreaker_drops_one_of_three_odd_world() -> None:
    """The case from the issue: Cy's three Scarlet ibis are one species, not three."""
    result = odd_world(
        ("Ann", {"hoopoe": 1, "shoebill": 1, "hornbill": 1}),
        ("Ben", {"hoopoe": 1, "shoebill": 1, "hornbill": 1}),
        ("Cy", {"scarlet-ibis": 3}),
    )
    assert result["winners"] == ["Ann", "Ben"]
    assert decision(result, over=True) == (
        "Ann, Ben and Cy tie on 3 points; Bird species in display leaves Ann and Ben: "
        "Ann 3, Ben 3, Cy 1. Ann and Ben tie on every later tiebreaker: "
        "they share the victory."
    )


def test_last_tiebreaker_drops_one_of_three() -> None:
    result = made_up([("Ann", 3, 3, 3), ("Ben", 3, 3, 3), ("Cy", 3, 3, 1)], ["Ann", "Ben"])
    assert decision(result) == (
        "Ann, Ben and Cy tie on 3 points; Best single bird leaves Ann and Ben: "
        "Ann 3, Ben 3, Cy 1. Ann and Ben share the victory."
    )


def test_one_dropped_at_each_tiebreaker() -> None:
    result = made_up([("Ann", 3, 3, 3), ("Ben", 3, 3, 1), ("Cy", 3, 2, 3)], ["Ann"])
    assert decision(result) == (
        "Ann, Ben and Cy tie on 3 points; Bird species in display leaves Ann and Ben: "
        "Ann 3, Ben 3, Cy 2; Best single bird decides: Ann 3, Ben 1. Ann wins."
    )


def test_oddland_three_on_zero_one_dropped() -> None:
    state = {
        "players": ["Ann", "Ben", "Cy"],
        "map": ["FFFSSS", "W..MMM"],
        "tokens": [
            {"player": name, "species": "flora", "cells": [cell]}
            for name, cell in [("Ann", [0, 0]), ("Ben", [0, 3]), ("Cy", [1, 0])]
        ],
        "sides": {"flora": "A"},
    }
    result = GAMES["oddland"].score(state).to_json()
    assert decision(result) == (
        "Ann, Ben and Cy tie on 0 points; Territories holding tokens, largest first leaves "
        "Ann and Ben: Ann 3, Ben 3, Cy 1. Ann and Ben share the lead."
    )


@pytest.mark.parametrize(
    ("rows", "winners", "expected"),
    [
        ([("Ann", 5, 3, 3), ("Ben", 3, 3, 3)], ["Ann"], "Ann wins with 5 points."),
        (
            [("Ann", 3, 3, 3), ("Ben", 3, 2, 3)],
            ["Ann"],
            "Ann and Ben tie on 3 points; Bird species in display decides: Ann 3, Ben 2. "
            "Ann wins.",
        ),
    ],
)
def test_sentences_as_before(
    rows: list[tuple[str, int, int, int]], winners: list[str], expected: str
) -> None:
    result = made_up(rows, winners)
    if rows[0][1] != rows[1][1]:
        result["decided_by"] = "score"
    assert decision(result) == expected
