"""Standings that explain themselves (issue 27): a short line per pair of neighbours says
why one is ahead of the other, or that they tie."""

from __future__ import annotations

from companion.games import GAMES
from companion.services.explain import pairs
from support.odd_world import made_up


def test_points_part_neighbours() -> None:
    result = made_up([("Ann", 12, 5, 3), ("Ben", 9, 5, 3), ("Cy", 4, 2, 1)], ["Ann"])
    for rank, standing in enumerate(result["standings"], start=1):
        standing["rank"] = rank
    assert pairs(result) == [
        "Ann ahead of Ben: 12 points to 9.",
        "Ben ahead of Cy: 9 points to 4.",
    ]


def test_a_tiebreaker_parts_neighbours_on_the_same_points() -> None:
    result = made_up([("Ana", 9, 9, 3), ("Cleo", 9, 8, 5), ("Ben", 9, 8, 2)], ["Ana"])
    for rank, standing in enumerate(result["standings"], start=1):
        standing["rank"] = rank
    assert pairs(result) == [
        "Ana ahead of Cleo: both on 9 points, Bird species in display 9 to 8.",
        "Cleo ahead of Ben: both on 9 points, Best single bird 5 to 2.",
    ]


def test_neighbours_tied_on_everything_share() -> None:
    result = made_up([("Ann", 3, 3, 1), ("Ben", 3, 3, 1)], ["Ann", "Ben"])
    for standing in result["standings"]:
        standing["rank"] = 1
    assert pairs(result) == ["Ann and Ben tie: both on 3 points and on every tiebreaker."]


def test_every_game_scored_gives_one_line_per_pair() -> None:
    state = {"players": ["Ann", "Ben", "Cy"], "rounds": []}
    result = GAMES["owl-about"].score(state).to_json()
    lines = pairs(result)
    assert len(lines) == 2
    assert lines[0] == "Ann and Ben tie: both on 0 points."
