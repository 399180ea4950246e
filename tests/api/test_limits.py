"""Oversized requests are refused at once, and a 422 lists at most 50 problems."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

ODD_WORLD = "/api/v1/games/odd-world/score"
SERIES = "/api/v1/games/odd-world/series"
OWL_SCORE = "/api/v1/games/owl-about/score"
OWL_TRICK = "/api/v1/games/owl-about/trick"
ODDLAND_SCORE = "/api/v1/games/oddland/score"
ODDLAND_MAP = "/api/v1/games/oddland/map"
ODDLAND_PLACEMENT = "/api/v1/games/oddland/placement"
#: The contract (API.md, Errors) lists at most 50 problems.
MAX_PROBLEMS = 50
#: Far below the megabytes the same requests used to answer.
SMALL_ANSWER = 20_000
HUGE = 200_000
OWL_PLAYERS = ["Miu", "Carol", "Romi"]
CARD = {"at": [0, 0], "terrains": ["FS", "WM"]}
TOKEN = {"player": "Ann", "species": "begator", "cells": [[0, 0]]}


def post_compact(client: FlaskClient, url: str, body: dict[str, Any]) -> Any:
    """Post JSON without spaces, so that a huge list still fits in the 1 MiB limit."""
    data = json.dumps(body, separators=(",", ":"))
    assert len(data) < 1024 * 1024
    return client.post(url, data=data, content_type="application/json")


@pytest.mark.parametrize(
    ("url", "body", "path"),
    [
        (ODD_WORLD, {"players": [{}] * 262_000}, "players"),
        (ODD_WORLD, {"players": [{"name": "Ann", "display": {}}, {"name": "x" * 500_000}]},
         "players[1].name"),
        (SERIES, {"games": [{}] * HUGE}, "games"),
        (OWL_SCORE, {"players": ["x"] * HUGE}, "players"),
        (OWL_SCORE, {"players": OWL_PLAYERS, "rounds": [{}] * HUGE}, "rounds"),
        (OWL_SCORE, {"players": OWL_PLAYERS,
                     "rounds": [{"tricks": [{"lead": "Miu", "cards": ["1"] * HUGE}]}]},
         "rounds[0].tricks[0].cards"),
        (OWL_SCORE, {"players": OWL_PLAYERS, "rounds": [{"tricks": [{}] * HUGE}]},
         "rounds[0].tricks"),
        (OWL_SCORE, {"players": OWL_PLAYERS, "variants": ["x"] * HUGE}, "variants"),
        (OWL_TRICK, {"lead": "Miu", "players": OWL_PLAYERS, "cards": ["1"] * HUGE}, "cards"),
        (OWL_TRICK, {"lead": "Miu", "players": OWL_PLAYERS, "cards": ["1"],
                     "hands": {"Miu": ["1"] * HUGE}}, "hands.Miu"),
        (ODDLAND_SCORE, {"players": ["Ann"], "tokens": [{}] * HUGE}, "tokens"),
        (ODDLAND_SCORE, {"players": ["Ann"], "map": [""] * HUGE}, "map"),
        (ODDLAND_SCORE, {"players": ["Ann"], "map": ["F" * HUGE]}, "map[0]"),
        (ODDLAND_SCORE, {"players": ["Ann"], "cards": [{}] * HUGE}, "cards"),
        (ODDLAND_SCORE, {"players": ["Ann"], "sides": {f"s{i}": "A" for i in range(HUGE // 4)}},
         "sides"),
        (ODDLAND_MAP, {"map": ["F"], "tokens": [{**TOKEN, "cells": [[0, 0]] * (HUGE // 2)}]},
         "tokens[0].cells"),
        (ODDLAND_PLACEMENT, {"card": {**CARD, "at": [0] * HUGE}}, "card.at"),
        (ODDLAND_PLACEMENT, {"card": CARD, "tokens": [TOKEN] * (HUGE // 20)}, "tokens"),
    ],
)  # fmt: skip
def test_oversized_requests_get_one_short_problem(
    client: FlaskClient, url: str, body: dict[str, Any], path: str
) -> None:
    response = post_compact(client, url, body)
    assert response.status_code == 422
    answer = response.get_json()
    assert [p["path"] for p in answer["problems"]] == [path]
    assert "more_problems" not in answer
    assert len(response.get_data()) < SMALL_ANSWER


def test_262000_players_are_refused_with_the_player_count(client: FlaskClient) -> None:
    response = post_compact(client, ODD_WORLD, {"players": [{}] * 262_000})
    reading = "2 to 5 is the app's reading: the rulebook gives no player count"
    [problem] = response.get_json()["problems"]
    assert problem["path"] == "players"
    assert problem["message"].startswith("This game is for 2 to 5 players, not 262000.")
    assert reading in problem["message"]


def test_422_lists_50_problems_and_counts_the_rest(client: FlaskClient) -> None:
    # 5 players with 12 unknown birds each: 60 problems of a request of allowed size.
    players = [
        {"name": name, "display": {f"dodo-{n}": 1 for n in range(12)}}
        for name in ("Ann", "Ben", "Cy", "Dee", "Eve")
    ]
    response = client.post(ODD_WORLD, json={"players": players})
    assert response.status_code == 422
    answer = response.get_json()
    assert len(answer["problems"]) == MAX_PROBLEMS
    assert answer["more_problems"] == 10
    # The first problems are listed, in the order they were found.
    assert answer["problems"][0] == {
        "path": "players[0].display.dodo-0",
        "message": '"dodo-0" is not an Odd World bird.',
    }
    assert answer["problems"][-1]["path"] == "players[4].display.dodo-1"


def test_exactly_50_problems_need_no_count(client: FlaskClient) -> None:
    players = [
        {"name": name, "display": {f"dodo-{n}": 1 for n in range(10)}}
        for name in ("Ann", "Ben", "Cy", "Dee", "Eve")
    ]
    answer = client.post(ODD_WORLD, json={"players": players}).get_json()
    assert len(answer["problems"]) == MAX_PROBLEMS
    assert "more_problems" not in answer


def test_a_too_long_key_is_named_by_its_object(client: FlaskClient) -> None:
    players = [{"name": "Ann", "display": {"x" * 50_000: 1}}, {"name": "Ben"}]
    response = client.post(ODD_WORLD, json={"players": players})
    assert response.get_json()["problems"] == [
        {
            "path": "players[0].display",
            "message": "A key has 50000 characters; at most 100 fit here.",
        }
    ]


def test_oddland_map_beyond_what_the_cards_make_is_a_422(client: FlaskClient) -> None:
    response = client.post(ODDLAND_MAP, json={"map": ["F"] * 75})
    assert response.status_code == 422
    assert response.get_json()["problems"] == [
        {
            "path": "map",
            "message": "The spaces of this map span 75 rows and 1 column; the 37 map cards "
            "make at most 74 rows or columns, and 112 together.",
        }
    ]
    assert client.post(ODDLAND_MAP, json={"map": ["FF"] * 74}).status_code == 200
