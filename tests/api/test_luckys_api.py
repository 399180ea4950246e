"""The Lucky's Misadventures JSON API: the contract's shapes, the added checks, 422s, fuzz."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.luckys import facts as f
from companion.games.luckys.referee import ESCAPE_NEEDS
from support.luckys_games import ENDS, end_states

BASE = "/api/v1/games/luckys-misadventures"

API_EXAMPLE: dict[str, Any] = {
    "players": ["Lewis", "Carol"],
    "escaped": None,
    "final_turn_order": ["Lewis", "Carol"],
    "decks": {
        "Lewis": {
            "lucky": 1,
            "hirelings": {"winged-monkey": 1, "clockmakers": 0, "white-rabbit": 1},
            "mavens": [{"name": "The Collector", "faction": "wicked", "vp": 3}],
            "junk": [{"kind": "clockwork-gizmo"}, {"kind": "reactor-pump", "vp": 2}],
            "machines": ["tiny-tin"],
        }
    },
}


def test_score_matches_the_contract(client: FlaskClient) -> None:
    response = client.post(f"{BASE}/score", json=API_EXAMPLE)
    assert response.status_code == 200
    body = response.get_json()
    assert list(body)[:6] == ["game", "standings", "winners", "decided_by", "finished", "warnings"]
    assert body["game"] == "luckys-misadventures"
    lewis = body["standings"][0]
    assert lewis["player"] == "Lewis"
    assert lewis["score"] == 10 + 1 + 1 + 3 + 1 + 2 + 7
    assert sum(line["points"] for line in lewis["breakdown"]) == lewis["score"]
    assert lewis["tiebreak"][0]["label"] == "Has Lucky"
    assert body["winners"] == ["Lewis"]
    assert body["decided_by"] == "score"


def test_an_escape_names_itself(client: FlaskClient) -> None:
    body = {**API_EXAMPLE, "escaped": {"player": "Carol", "by": "pumpkin-ted"}}
    result = client.post(f"{BASE}/score", json=body).get_json()
    assert result["winners"] == ["Carol"]
    assert result["decided_by"] == "pumpkin-ted"
    assert [s["rank"] for s in result["standings"]] == [1, 2]


def test_impossible_decks_are_a_422_with_every_problem(client: FlaskClient) -> None:
    body = {
        "players": ["Lewis", "Carol"],
        "decks": {
            "Lewis": {
                "lucky": 2,
                "mavens": [{"name": "X", "faction": "wicked", "vp": 9}],
                "junk": [{"kind": "reactor-pump"}],
                "machines": ["time-machine", "time-machine", "hover-car"],
                "hirelings": {"white-rabbit": 9},
            }
        },
        "rounds": [["cups-1", "cups-1", "tarot"]],
    }
    response = client.post(f"{BASE}/score", json=body)
    assert response.status_code == 422
    paths = {p["path"] for p in response.get_json()["problems"]}
    assert {
        "decks.Lewis.lucky",
        "decks.Lewis.mavens[0].vp",
        "decks.Lewis.junk[0].vp",
        "decks.Lewis.machines[2]",
        "decks",
        "rounds[0][1]",
        "rounds[0][2]",
    } <= paths
    messages = [p["message"] for p in response.get_json()["problems"]]
    assert "Only 1 Time Machine card exists, but 2 were entered." in messages
    assert "Only 8 White Rabbit cards exist, but 9 were entered." in messages


@pytest.mark.parametrize("count", [1, 5])
def test_player_counts(client: FlaskClient, count: int) -> None:
    body = {"players": [f"P{i}" for i in range(count)]}
    response = client.post(f"{BASE}/score", json=body)
    assert response.status_code == 422
    assert response.get_json()["problems"][0]["path"] == "players"


def test_challenge_and_feed_the_toad_keep_the_contract_shapes(client: FlaskClient) -> None:
    answer = client.post(
        f"{BASE}/challenge",
        json={
            "kind": "tinkerer",
            "powers": {"Lewis": 2, "Carol": 0},
            "turn_order": ["Lewis", "Carol"],
        },
    ).get_json()
    assert {k: answer[k] for k in ("outcome", "winners", "margin")} == {
        "outcome": "crushed-it",
        "winners": ["Lewis"],
        "margin": 2,
    }
    toad = client.post(
        f"{BASE}/feed-the-toad",
        json={
            "players": ["Lewis", "Carol"],
            "holder": "Lewis",
            "fate": ["cups-4", "wands-5", "death"],
        },
    ).get_json()
    assert (toad["holder"], toad["passes"]) == ("Lewis", 2)
    twice = client.post(
        f"{BASE}/feed-the-toad",
        json={
            "players": ["Lewis", "Carol"],
            "holder": "Lewis",
            "fate": ["cups-4", "cups-4", "death"],
        },
    )
    assert twice.status_code == 422
    assert twice.get_json()["problems"][0]["path"] == "fate[1]"


def test_added_endpoints(client: FlaskClient) -> None:
    games = client.get("/api/v1/games").get_json()["games"]
    luckys = next(g for g in games if g["slug"] == "luckys-misadventures")
    assert luckys["players"] == {"min": 2, "max": 4}
    for name in ("score", "challenge", "feed-the-toad", "buy-points", "build-machine", "escape"):
        assert f"{BASE}/{name}" in luckys["endpoints"]
    buy = client.post(
        f"{BASE}/buy-points",
        json={"lucky": True, "scarecrows": ["wands"], "white_rabbits": 2, "fate": ["wands-1"]},
    ).get_json()
    assert buy["points"] == 1 + 2 + 2 + 1
    build = client.post(
        f"{BASE}/build-machine", json={"junk": ["reactor-pump", "luminous-aether"]}
    )
    assert build.get_json()["name"] == "Mech Dragon"
    escape = client.post(f"{BASE}/escape", json={"in_play": ["greed", "despair", "vanity"]})
    assert escape.get_json()["escapes"] == ["three-sisters"]


names = st.sampled_from(["Lewis", "Carol", "", "x" * 41]) | st.text(max_size=6)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 20) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=15,
)
decks = st.dictionaries(
    names,
    st.fixed_dictionaries(
        {},
        optional={
            "lucky": st.integers(-1, 3) | json_values,
            "hirelings": st.dictionaries(
                st.sampled_from(["winged-monkey", "bat"]), st.integers(-1, 9)
            )
            | json_values,
            "mavens": st.lists(
                st.fixed_dictionaries(
                    {
                        "name": names,
                        "faction": st.sampled_from(["wicked", "x"]),
                        "vp": st.integers(0, 9),
                    }
                ),
                max_size=3,
            )
            | json_values,
            "junk": st.lists(
                st.fixed_dictionaries(
                    {"kind": st.sampled_from(["reactor-pump", "clockwork-gizmo", "x"])},
                    optional={"vp": st.integers(-1, 12) | st.none(), "count": st.integers(-1, 20)},
                ),
                max_size=3,
            )
            | json_values,
            "machines": st.lists(st.sampled_from(["tiny-tin", "time-machine", "x"]), max_size=4)
            | st.dictionaries(st.sampled_from(["tiny-tin", "x"]), st.integers(-1, 9))
            | json_values,
        },
    ),
    max_size=3,
)
fate = st.lists(st.sampled_from(["cups-1", "wands-2", "death", "x"]) | json_values, max_size=4)
bodies = st.one_of(
    st.fixed_dictionaries(
        {"players": st.lists(names, max_size=5) | json_values},
        optional={
            "decks": decks | json_values,
            "escaped": st.fixed_dictionaries(
                {"player": names, "by": st.sampled_from(["pumpkin-ted", "x"])}
            )
            | json_values,
            "final_turn_order": st.lists(names, max_size=5) | json_values,
            "rounds": st.lists(fate, max_size=3) | json_values,
            "toad": names | json_values,
        },
    ),
    st.fixed_dictionaries(
        {
            "kind": st.sampled_from(["tinkerer", "x"]) | json_values,
            "powers": st.dictionaries(names, st.integers(-1, 5)) | json_values,
        },
        optional={"turn_order": st.lists(names, max_size=5) | json_values},
    ),
    st.fixed_dictionaries({"players": st.lists(names, max_size=5), "holder": names, "fate": fate}),
    st.fixed_dictionaries(
        {},
        optional={
            "scarecrows": st.lists(st.sampled_from(["cups", "x"]), max_size=4) | json_values,
            "white_rabbits": st.integers(-1, 10) | json_values,
            "oddlings": st.lists(st.integers(-1, 12), max_size=3) | json_values,
            "fate": fate,
            "lucky": st.booleans() | json_values,
        },
    ),
    st.fixed_dictionaries({"junk": st.lists(st.sampled_from(["reactor-pump", "x"]), max_size=3)}),
    st.fixed_dictionaries({"in_play": st.lists(st.sampled_from(["greed", "x"]), max_size=9)}),
    json_values,
)
ENDPOINTS = ("score", "challenge", "feed-the-toad", "buy-points", "build-machine", "escape")


@settings(
    max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None
)
@given(body=bodies)
def test_fuzzed_bodies_never_cause_a_500(client: FlaskClient, body: Any) -> None:
    for name in ENDPOINTS:
        response = client.post(
            f"{BASE}/{name}", data=json.dumps(body), content_type="application/json"
        )
        assert response.status_code in {200, 400, 422}, (name, body)
        if response.status_code == 422:
            problems = response.get_json()["problems"]
            assert problems
            assert all(p["message"].endswith(".") for p in problems)


# --- no legal table refused -----------------------------------------------------------------


@pytest.mark.parametrize("end", ENDS, ids=lambda end: end.value if end else "round-14")
@settings(
    max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None
)
@given(data=st.data())
def test_every_legal_end_state_is_scored(
    client: FlaskClient, end: f.Escape | None, data: st.DataObject
) -> None:
    """Tables drawn from the box's cards, ended by the 14th round or by each escape with
    the cards it needs in play: ``score`` answers every one of them, and the escape check
    given the table lets the escaper have those cards in play."""
    state = data.draw(end_states([end]))
    response = client.post(f"{BASE}/score", json=state)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    if end is None:
        for standing in body["standings"]:
            assert standing["score"] == sum(line["points"] for line in standing["breakdown"])
        return
    escaper = state["escaped"]["player"]
    assert (body["winners"], body["decided_by"]) == ([escaper], end.value)
    needs = [card.value for card in ESCAPE_NEEDS[end]]
    check = {"in_play": needs, "pumpkin_ted_triggered": True, "player": escaper, "table": state}
    answer = client.post(f"{BASE}/escape", json=check)
    assert answer.status_code == 200, answer.get_json()
    assert end.value in answer.get_json()["escapes"]
