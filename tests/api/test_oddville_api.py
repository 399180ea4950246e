"""The OddVille JSON API: ``oddville/score`` per API.md and the ``oddville/build`` check."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.oddville import RULEBOOK
from support.oddville_games import played_games

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


def test_the_api_example_is_a_fragment_the_rules_refuse(client: FlaskClient) -> None:
    """API.md's example is part of a city: Red, entered as the player who ended the game,
    has one worker in the city; Red holds the Traveller, and Blue has a worker on the Main
    Square, without a building with a guild symbol to have taken it. Each is named."""
    problems = refused(client, API_EXAMPLE)
    assert [p["path"] for p in problems] == ["city[0].owners", "characters.Red", "ended_by"]
    assert problems[0]["message"].startswith(
        "Blue has a worker on the Main Square, which only the Traveller (a character) puts"
        " there, but owns no building with a guild symbol:"
    )
    assert problems[1]["message"].startswith(
        "Red holds 1 Character card, but owns no building with a guild symbol:"
    )
    assert problems[2]["message"].startswith(
        "Red is entered as the player who ended the game, but has 1 worker in the city:"
    )


#: API.md's example played to its end: every field of its shape, in a table the rules
#: allow (Red's 6th worker is the one on the Main Square).
API_EXAMPLE_ENDED = {
    **API_EXAMPLE,
    "city": [
        *API_EXAMPLE["city"],
        {
            "at": [1, 1],
            "owner": "Blue",
            "guild": "rooster",
            "shield": 2,
            "points": {"kind": "row"},
        },
        {"at": [0, -1], "owner": "Red", "guild": "lily", "points": {"kind": "adjacent"}},
        {"at": [1, -1], "owner": "Red", "points": {"kind": "diamonds"}},
        {"at": [2, -1], "owner": "Red", "points": {"kind": "column"}},
        {"at": [2, 0], "owner": "Red", "points": {"kind": "row"}},
        {"at": [2, 1], "owner": "Red", "points": {"kind": "shields"}},
    ],
}


def test_the_api_example_played_to_its_end_scores(client: FlaskClient) -> None:
    response = client.post(SCORE, json=API_EXAMPLE_ENDED)
    assert response.status_code == 200
    body = response.get_json()
    assert list(body)[:6] == ["game", "standings", "winners", "decided_by", "finished", "warnings"]
    assert body["game"] == "oddville"
    # Blue: 4 + 4 + (2 + 3 in its row) + 2 board workers; Red: 4 + Traveller 0 (a worker
    # on the Main Square) + (1 + 2 adjacent) + (3 + 1 diamond) + (1 + 3 in its column) +
    # (2 + 3 in its row) + (the shield 2 of Blue's card above); Purple: 2 + 1 Mask.
    assert [(s["player"], s["score"], s["rank"]) for s in body["standings"]] == [
        ("Red", 22, 1),
        ("Blue", 15, 2),
        ("Purple", 3, 3),
        ("Yellow", 0, 4),
    ]
    blue = body["standings"][1]
    assert blue["breakdown"] == [
        {"label": "Main Square at row 1, col 2: Main Square = 4 to each owner", "points": 4},
        {"label": "Diamond at row 2, col 2: Diamond = 4", "points": 4},
        {"label": "Its row at row 2, col 3: 2 + 3 in its row = 5", "points": 5},
        {"label": "Resources Board: 2 workers", "points": 2},
    ]
    assert blue["tiebreak"] == [{"label": "Seats clockwise from who ended the game", "value": 2}]
    assert body["finished"] is True
    assert body["warnings"] == []
    assert body["cards"][2] == {
        "at": [0, 1],
        "owners": ["Purple"],
        "points": 3,
        "words": "2 + 1 Mask card = 3",
        "place": "row 1, col 3",
    }
    # The adjacency and column counts include the Main Square: the app's reading.
    assert [r["id"] for r in body["readings"]] == ["oddville/main-square-counts"]


def test_the_rulebook_example_through_the_api(client: FlaskClient) -> None:
    """The rulebook's scoring example is part of a city, not a finished one: the pages
    score it as printed (tests/games), the API names why it is no end of a game."""
    response = client.post(SCORE, json=RULEBOOK)
    assert response.status_code == 422
    assert [p["path"] for p in response.get_json()["problems"]] == ["city[0].owners", "ended_by"]


def sq(*owners: str) -> dict[str, Any]:
    """The Main Square with whose workers stand on it."""
    return {"at": [0, 0], "card": "main-square", "owners": list(owners)}


def row_of(owners: list[str | None], *, value: int = 4, col: int = 1) -> list[dict[str, Any]]:
    """Diamonds in the Main Square's row, from ``col`` rightwards, one per owner."""
    return [
        {"at": [0, at], "owner": owner, "points": {"kind": "diamond", "value": value}}
        for at, owner in enumerate(owners, start=col)
        if owner is not None
    ]


def test_a_tie_names_the_clockwise_rule(client: FlaskClient) -> None:
    # Purple ended the game on 24; Blue and Red tie on 25, Red next clockwise after Purple.
    state = {
        "players": ["Blue", "Purple", "Red"],
        "ended_by": "Purple",
        "city": [
            sq(),
            *row_of(["Purple"] * 6),
            *row_of(["Blue"] * 5, value=5, col=7),
            *row_of(["Red"] * 5, value=5, col=12),
        ],
    }
    body = client.post(SCORE, json=state).get_json()
    assert body["winners"] == ["Red"]
    assert body["decided_by"] == "Seats clockwise from who ended the game"
    assert body["tiebreak_words"] == "Purple ended the game; Red is next clockwise."
    assert "oddville/tiebreak/clockwise" in [r["id"] for r in body["readings"]]
    # Tied with Purple (25), who ended the game, they lose to Purple without counting
    # seats; the count still puts Red before Blue.
    state["city"][1]["points"]["value"] = 5
    body = client.post(SCORE, json=state).get_json()
    assert body["tiebreak_words"] == "Purple ended the game and wins the tie."
    assert [s["player"] for s in body["standings"]] == ["Purple", "Red", "Blue"]
    assert "oddville/tiebreak/clockwise" in [r["id"] for r in body["readings"]]
    # Only Purple and Blue tied: Purple wins, no seat is counted.
    state["city"][-1]["points"]["value"] = 4
    body = client.post(SCORE, json=state).get_json()
    assert body["winners"] == ["Purple"]
    assert "readings" not in body


def refused(client: FlaskClient, state: dict[str, Any]) -> list[dict[str, str]]:
    """The problems of a 422 answer (fails on any other status)."""
    response = client.post(SCORE, json=state)
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["error"] == "invalid_state"
    problems: list[dict[str, str]] = response.get_json()["problems"]
    return problems


def scored(client: FlaskClient, state: dict[str, Any]) -> dict[str, Any]:
    """The body of a 200 answer (fails on any other status)."""
    response = client.post(SCORE, json=state)
    assert response.status_code == 200, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


#: Ann ended the game with her 6th building; Ben built 5 (a game the rules allow).
ENDED = {
    "players": ["Ann", "Ben"],
    "ended_by": "Ann",
    "city": [sq(), *row_of(["Ann"] * 6), *row_of(["Ben"] * 5, col=7)],
    "characters": {"Ann": [], "Ben": []},
}


def with_guild(state: dict[str, Any], index: int, guild: str = "mask") -> dict[str, Any]:
    """The state with a guild symbol on city card ``index``."""
    city = [dict(card) for card in state["city"]]
    city[index]["guild"] = guild
    return {**state, "city": city}


#: Ann holds the Mistress; Ben has a worker on the Main Square (with 4 buildings).
HOLDS_A_CHARACTER = {**ENDED, "characters": {"Ann": ["mistress"]}}
ON_THE_SQUARE = {**ENDED, "city": [sq("Ben"), *ENDED["city"][1:-1]]}


@pytest.mark.parametrize(
    ("state", "path", "who"),
    [
        (HOLDS_A_CHARACTER, "characters.Ann", "Ann holds 1 Character card"),
        (
            ON_THE_SQUARE,
            "city[0].owners",
            "Ben has a worker on the Main Square, which only the Traveller (a character) puts"
            " there",
        ),
    ],
)
def test_a_character_comes_only_from_a_building_with_a_guild_symbol(
    client: FlaskClient, state: dict[str, Any], path: str, who: str
) -> None:
    assert scored(client, ENDED)["finished"] is True
    message = (
        f"{who}, but owns no building with a guild symbol: building such a card gives its"
        " builder one character, and no character comes any other way."
    )
    assert refused(client, state) == [{"path": path, "message": message}]


def test_each_character_held_is_a_building_with_a_guild_symbol(client: FlaskClient) -> None:
    assert scored(client, with_guild(HOLDS_A_CHARACTER, 1))
    two = with_guild({**ENDED, "characters": {"Ann": ["mistress", "cheater"]}}, 1)
    [problem] = refused(client, two)
    assert problem["message"].startswith(
        "Ann holds 2 Character cards, but owns 1 building with a guild symbol:"
    )
    # A building entered without an owner may be hers.
    unowned = {"at": [1, 1], "guild": "lily", "points": {"kind": "row"}}
    assert scored(client, {**two, "city": [*two["city"], unowned]})
    # Ben took the Traveller with a guild card, whether he still holds it or not.
    assert scored(client, with_guild(ON_THE_SQUARE, 7))


def test_who_ended_the_game_has_6_workers_in_the_city(client: FlaskClient) -> None:
    """Warned before; workers in the city never leave it."""
    early = {**ENDED, "ended_by": "Ben"}
    problems = refused(client, early)
    assert problems[0] == {
        "path": "ended_by",
        "message": "Ben is entered as the player who ended the game, but has 5 workers in the"
        " city: the game ends when a player places their 6th there, and a worker in the city"
        " never leaves it.",
    }
    # ... and Ann, with 6 and no character, cannot be someone who did not end it.
    assert problems[1]["message"].startswith(
        "Ann has 6 workers in the city and no Character card, but did not end the game (Ben did):"
    )


def test_another_player_reaches_6_only_with_a_character(client: FlaskClient) -> None:
    """After Ann's 6th, Ben's 6th is a building with the Builder (or, in his own turn, the
    Traveller's worker): he ends holding a character."""
    six = {**ENDED, "city": [*ENDED["city"], *row_of(["Ben"], col=12)]}
    assert refused(client, six) == [
        {
            "path": "city",
            "message": "Ben has 6 workers in the city and no Character card, but did not end"
            " the game (Ann did): after the 6th worker of the player who ends it, every other"
            " player, who had at most 5 there, adds at most one, by building with the Builder"
            " or, in their own turn, through the Traveller, and keeps a character either way.",
        }
    ]
    builder = with_guild({**six, "characters": {"Ben": ["builder"]}}, 7)
    assert scored(client, builder)["finished"] is True


def test_only_who_ended_the_game_has_a_7th_worker(client: FlaskClient) -> None:
    """Accepted before, and Ben won: 6 buildings and the Traveller's worker."""
    seven = {
        **ENDED,
        "city": [sq("Ben"), *ENDED["city"][1:], *row_of(["Ben"], col=12)],
        "characters": {"Ben": ["traveller"]},
    }
    [problem] = refused(client, with_guild(seven, 7))
    assert problem["path"] == "city"
    assert problem["message"].startswith(
        "Ben has 7 workers in the city, but did not end the game (Ann did):"
    )
    # Had Ben ended it, with Ann on 6 holding a character, it is a table the rules allow.
    ann_builder = with_guild({**seven, "ended_by": "Ben"}, 1)
    ann_builder["characters"] = {"Ben": ["traveller"], "Ann": ["builder"]}
    body = scored(client, with_guild(ann_builder, 7))
    assert "oddville/app/too-many-workers" in [r["id"] for r in body["readings"]]


def test_without_who_ended_it_at_most_one_player_is_past_the_others_limits(
    client: FlaskClient,
) -> None:
    unknown = {**ENDED, "ended_by": None}
    assert scored(client, unknown)["finished"] is False
    both = {**unknown, "city": [*unknown["city"], *row_of(["Ben"], col=12)]}
    [problem] = refused(client, both)
    assert problem["message"].startswith(
        "Ann has 6 workers in the city and no Character card; Ben has 6 workers in the city"
        " and no Character card: only the player who ends the game can have"
    )


def test_the_builders_holder_ends_the_game_in_another_players_turn(client: FlaskClient) -> None:
    """Ann builds her 5th; Ben, with the Builder, builds his 6th and so ends the game;
    Ann, still in her turn, puts a 6th worker on the Main Square with the Traveller."""
    state = {
        "players": ["Ann", "Ben"],
        "ended_by": "Ben",
        "city": [sq("Ann"), *row_of(["Ann"] * 5), *row_of(["Ben"] * 6, col=6)],
        "characters": {"Ann": ["traveller"], "Ben": ["builder"]},
    }
    assert scored(client, with_guild(with_guild(state, 1), 6))["finished"] is True


@settings(
    max_examples=60,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)
@given(state=played_games())
def test_no_game_played_by_the_rules_is_refused(client: FlaskClient, state: Any) -> None:
    """Games played turn by turn by the rules (buildings meeting their neighbours' edges,
    characters taken and given back, the Builder and the Traveller) until a 6th worker in
    the city ends them: each is scored, and finished."""
    body = scored(client, state)
    assert body["finished"] is True


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
    # Legal as its top edge, a street, meets the Main Square's: the streets' reading too.
    assert [r["id"] for r in reply["readings"]] == [
        "oddville/main-square/streets",
        "oddville/main-square/no-bonus",
    ]
    assert reply["readings"][1]["rule"] == "oddville/main-square/no-bonus"
    assert "The Main Square gives no bonus" in reply["readings"][1]["text"]
    assert "app's reading" in reply["readings"][1]["text"]
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
