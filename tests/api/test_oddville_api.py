"""The OddVille JSON API: ``oddville/score`` per API.md and the ``oddville/build`` check."""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.oddville import RULEBOOK

SCORE = "/api/v1/games/oddville/score"
BUILD = "/api/v1/games/oddville/build"

API_EXAMPLE = {
    "players": ["Blue", "Purple", "Red", "Yellow"],
    "ended_by": "Red",
    "city": [
        {"at": [0, 0], "card": "main-square", "owners": ["Blue", "Red"]},
        {"at": [1, 0], "owner": "Blue", "points": {"kind": "diamond", "value": 4}},
        {
            "at": [0, 1],
            "owner": "Purple",
            "guild": "mask",
            "shield": 1,
            "points": {"kind": "guild", "value": 2, "guild": "mask"},
        },
    ],
    "characters": {"Red": ["traveller"]},
    "resource_workers": {"Blue": 2, "Red": 0},
}


def test_the_api_example_scores(client: FlaskClient) -> None:
    response = client.post(SCORE, json=API_EXAMPLE)
    assert response.status_code == 200
    body = response.get_json()
    assert list(body)[:6] == ["game", "standings", "winners", "decided_by", "finished", "warnings"]
    assert body["game"] == "oddville"
    # Blue 4 + 4 + 2 board workers; Red 4 + Traveller 0 (a worker on the Main Square);
    # Purple 2 + 1 Mask.
    assert [(s["player"], s["score"], s["rank"]) for s in body["standings"]] == [
        ("Blue", 10, 1),
        ("Red", 4, 2),
        ("Purple", 3, 3),
        ("Yellow", 0, 4),
    ]
    blue = body["standings"][0]
    assert blue["breakdown"] == [
        {"label": "Main Square at row 1, col 1: Main Square = 4 to each owner", "points": 4},
        {"label": "Diamond at row 2, col 1: Diamond = 4", "points": 4},
        {"label": "Resources Board: 2 workers", "points": 2},
    ]
    assert blue["tiebreak"] == [{"label": "Seats clockwise from who ended the game", "value": 2}]
    assert body["finished"] is True
    assert body["cards"][2] == {
        "at": [0, 1],
        "owners": ["Purple"],
        "points": 3,
        "words": "2 + 1 Mask card = 3",
        "place": "row 1, col 2",
    }


def test_the_rulebook_example_through_the_api(client: FlaskClient) -> None:
    body = client.post(SCORE, json=RULEBOOK).get_json()
    assert {s["player"]: s["score"] for s in body["standings"]} == {
        "Blue": 8,
        "Purple": 10,
        "Red": 13,
        "Yellow": 7,
    }


def test_a_tie_names_the_clockwise_rule(client: FlaskClient) -> None:
    state = {
        "players": ["Blue", "Purple", "Red"],
        "ended_by": "Purple",
        "city": [{"at": [0, 0], "card": "main-square", "owners": ["Blue", "Red"]}],
    }
    body = client.post(SCORE, json=state).get_json()
    assert body["winners"] == ["Red"]
    assert body["decided_by"] == "Seats clockwise from who ended the game"
    assert body["tiebreak_words"] == "Purple ended the game; Red is next clockwise."


def test_an_impossible_city_is_a_422_with_every_problem(client: FlaskClient) -> None:
    state = {
        "players": ["Ann"],
        "city": [
            {"at": [-1, 0], "owner": "Ann", "points": {"kind": "diamond", "value": 7}},
            {"at": [4, 4], "owner": "Zed", "points": {"kind": "guild", "value": 1}},
        ],
        "characters": {"Ann": ["cheater", "cheater"]},
    }
    response = client.post(SCORE, json=state)
    assert response.status_code == 422
    body = response.get_json()
    assert body["error"] == "invalid_state"
    paths = [p["path"] for p in body["problems"]]
    assert paths == [
        "players",
        "city[0].points.value",
        "city[1].owner",
        "city[1].points.guild",
        "city[0].at",
        "city[1].at",
        "characters.Ann[1]",
    ]


def test_build_answers_legal_with_bonuses(client: FlaskClient) -> None:
    body = {
        "players": ["Ann", "Ben"],
        "city": [
            {"at": [0, 0], "card": "main-square", "owners": []},
            {
                "at": [0, 1],
                "owner": "Ben",
                "points": {"kind": "row"},
                "edges": "HHSS",
                "bonus": "coin",
            },
        ],
        "card": {
            "at": [1, 1],
            "owner": "Ann",
            "points": {"kind": "diamond", "value": 5},
            "edges": "SHHH",
            "bonus": "transform",
            "guild": "lily",
        },
    }
    response = client.post(BUILD, json=body)
    assert response.status_code == 200
    reply = response.get_json()
    assert reply["legal"] is True
    assert reply["problems"] == []
    assert [b["bonus"] for b in reply["bonuses"]] == ["transform", "coin", None]
    assert reply["city"][-1]["at"] == [1, 1]
    assert (
        client.post(SCORE, json={"players": ["Ann", "Ben"], "city": reply["city"]}).status_code
        == 200
    )


def test_build_beside_the_main_square_labels_its_missing_bonus_as_a_reading(
    client: FlaskClient,
) -> None:
    square = {"at": [0, 0], "card": "main-square", "owners": []}
    card = {"owner": "Ann", "points": {"kind": "row"}, "edges": "SHHH", "bonus": "coin"}
    below = {"players": ["Ann", "Ben"], "city": [square], "card": {**card, "at": [1, 0]}}
    reply = client.post(BUILD, json=below).get_json()
    assert reply["legal"] is True
    assert [b["bonus"] for b in reply["bonuses"]] == ["coin"]
    assert len(reply["readings"]) == 1
    assert reply["readings"][0]["id"] == "oddville/main-square/no-bonus"
    assert reply["readings"][0]["rule"] == "oddville/main-square/no-bonus"
    assert "The Main Square gives no bonus" in reply["readings"][0]["text"]
    assert "app's reading" in reply["readings"][0]["text"]
    # Away from the Main Square no reading is involved.
    first = {"at": [1, 0], "owner": "Ben", "points": {"kind": "row"}, "edges": "SSHH"}
    away = {**below, "city": [square, first], "card": {**card, "at": [1, 1], "edges": "HHHS"}}
    reply = client.post(BUILD, json=away).get_json()
    assert reply["legal"] is True
    assert "readings" not in reply


def test_build_answers_illegal_with_every_broken_rule(client: FlaskClient) -> None:
    body = {
        "players": ["Ann", "Ben"],
        "city": [{"at": [0, 0], "card": "main-square"}],
        "card": {"at": [2, 2], "owner": "Ann", "points": {"kind": "row"}, "edges": "SSSS"},
        "rotated": True,
    }
    reply = client.post(BUILD, json=body).get_json()
    assert reply["legal"] is False
    assert reply["city"] is None
    assert reply["bonuses"] == []
    assert [p["path"] for p in reply["problems"]] == ["card.at", "rotated"]


def test_a_malformed_build_is_a_422(client: FlaskClient) -> None:
    response = client.post(BUILD, json={"players": ["Ann", "Ben"], "card": {"at": [1]}})
    assert response.status_code == 422
    assert {p["path"] for p in response.get_json()["problems"]} == {"card.at", "card.points"}


def test_the_games_index_lists_oddville(client: FlaskClient) -> None:
    games = client.get("/api/v1/games").get_json()["games"]
    found = next(g for g in games if g["slug"] == "oddville")
    assert found["players"] == {"min": 2, "max": 4}
    assert set(found["endpoints"]) == {SCORE, BUILD}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=12,
)
names = st.sampled_from(["Ann", "Ben", "ann", "", "Cy"]) | json_values
cards = st.fixed_dictionaries(
    {"at": st.lists(st.integers(-2, 3), max_size=3) | json_values},
    optional={
        "card": st.sampled_from(["main-square", "x"]) | json_values,
        "owner": names,
        "owners": st.lists(names, max_size=3) | json_values,
        "guild": st.sampled_from(["mask", "lily", "x"]) | json_values,
        "shield": st.integers(-1, 12) | json_values,
        "points": st.fixed_dictionaries(
            {"kind": st.sampled_from(["diamond", "guild", "row", "x"]) | json_values},
            optional={"value": st.integers(0, 7) | json_values, "guild": json_values},
        )
        | json_values,
        "edges": st.sampled_from(["SSSS", "HSHS", "x"]) | json_values,
        "bonus": st.sampled_from(["coin", "x"]) | json_values,
    },
)
bodies = st.fixed_dictionaries(
    {"players": st.lists(names, max_size=5) | json_values},
    optional={
        "ended_by": names,
        "city": st.lists(cards, max_size=5) | json_values,
        "characters": st.dictionaries(names.filter(lambda n: isinstance(n, str)), json_values)
        | json_values,
        "resource_workers": json_values,
        "card": cards | json_values,
        "rotated": json_values,
    },
)


@settings(
    max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None
)
@given(body=bodies)
def test_fuzzed_bodies_never_cause_a_500(client: FlaskClient, body: Any) -> None:
    for url in (SCORE, BUILD):
        response = client.post(url, data=json.dumps(body), content_type="application/json")
        assert response.status_code in {200, 400, 422}
        if response.status_code == 422:
            problems = response.get_json()["problems"]
            assert problems
            assert all(p["message"].endswith(".") for p in problems)
