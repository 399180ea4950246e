"""Odd World's end of the game through the API: every legal end state is scored (never
refused) and finished, whichever way the game ended and however the face-down cards are
sent; only displays that all held every bird during play are refused; the readings the
verdict rests on are carried."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.games.odd_world import BIRDS
from support.odd_world_games import Ending, EndState, end_states, play

SCORE = "/api/v1/games/odd-world/score"
SERIES = "/api/v1/games/odd-world/series"
BIRD_KEYS = list(BIRDS)
ALL_NINE = dict.fromkeys(BIRDS, 1)

#: The issue's table: Ann ended the game by taking her ninth bird; Ben held eight and
#: kept the ninth face down. Scored with the face-down cards in the displays, both show
#: all nine, and the app refused it.
ISSUE_TABLE = EndState(
    displays=(
        {**ALL_NINE, "hoopoe": 3},
        {**dict.fromkeys(BIRD_KEYS[:8], 2)},
    ),
    face_down=("shoebill", "cassowary"),
    ending=Ending.KEPT,
)


def _reading_ids(body: dict[str, Any]) -> list[str]:
    return [reading["id"] for reading in body.get("readings", [])]


def _scored(client: FlaskClient, state: dict[str, Any]) -> dict[str, Any]:
    response = client.post(SCORE, json=state)
    assert response.status_code == 200, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


@settings(
    max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None
)
@given(end=end_states(), games=st.integers(min_value=1, max_value=3))
@example(end=ISSUE_TABLE, games=1)
def test_every_legal_end_state_is_scored_and_finished(
    client: FlaskClient, end: EndState, games: int
) -> None:
    for state in (end.apart(), end.folded()):
        body = _scored(client, state)
        assert body["finished"] is True, body
        assert body["warnings"] == []
        seated = len(state["players"])
        assert body["cards_on_table"] == sum(
            sum(p["display"].values()) + (p["face_down"] is not None) for p in state["players"]
        )
        series = client.post(SERIES, json={"games": [state] * games})
        assert series.status_code == 200, series.get_json()
        summed = series.get_json()
        assert all(game["finished"] for game in summed["games"])
        assert summed["finished"] is (games == 3)
        assert len(summed["standings"]) == seated


def test_the_simulated_games_end_in_every_way_the_rules_allow() -> None:
    """The strategy above reaches each ending (kept, received, revealed, piles run out)
    and, now and then, the issue's two complete displays."""
    endings: Counter[Ending] = Counter()
    two_complete = 0
    for seed in range(200):
        end = play(random.Random(seed), 2 + seed % 4)
        endings[end.ending] += 1
        folded = end.folded()["players"]
        two_complete += sum(all(p["display"].get(b) for b in BIRDS) for p in folded) > 1
    assert set(endings) == set(Ending)
    assert two_complete > 0


def test_the_issue_s_table_is_scored_both_ways(client: FlaskClient) -> None:
    folded = ISSUE_TABLE.folded()
    assert all(all(p["display"].get(b) for b in BIRDS) for p in folded["players"])
    for state in (ISSUE_TABLE.apart(), folded):
        body = _scored(client, state)
        assert body["finished"] is True
        assert "odd-world/end-check" not in _reading_ids(body)
    assert _scored(client, folded)["winners"] == ["Ann"]


def _two(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    return {"players": [{"name": "Ann", **first}, {"name": "Ben", **second}]}


DOUBLED = dict.fromkeys(BIRDS, 2)


@pytest.mark.parametrize(
    ("ann", "ben", "folded_note"),
    [
        # Both face-down cards apart: each display held all nine during play.
        (
            {"display": ALL_NINE, "face_down": "hoopoe"},
            {"display": ALL_NINE, "face_down": "shoebill"},
            False,
        ),
        # Folded in, but every bird has 2 cards: no face-down card can be the ninth.
        ({"display": DOUBLED}, {"display": DOUBLED}, True),
        ({"display": ALL_NINE, "face_down": "hoopoe"}, {"display": DOUBLED}, True),
    ],
)
def test_displays_that_all_held_every_bird_during_play_are_refused(
    client: FlaskClient, ann: dict[str, Any], ben: dict[str, Any], folded_note: bool
) -> None:
    for body, path in (
        (_two(ann, ben), "players[1].display"),
        ({"games": [_two(ann, ben)]}, "games[0].players[1].display"),
    ):
        url = SCORE if "players" in body else SERIES
        response = client.post(url, json=body)
        assert response.status_code == 422
        [problem] = response.get_json()["problems"]
        assert problem["path"] == path
        assert problem["message"].startswith("Ann and Ben each show all nine birds")
        assert "the game ends the moment one display holds all nine" in problem["message"]
        assert ("that bird's only card" in problem["message"]) is folded_note


@pytest.mark.parametrize(
    ("ann", "ben"),
    [
        # Ben's ninth bird may be his face-down card, already counted: its only card.
        ({"display": ALL_NINE, "face_down": "hoopoe"}, {"display": {**DOUBLED, "cassowary": 1}}),
        # Neither is sure to have been complete in play: one ended it, one at the end.
        ({"display": ALL_NINE}, {"display": ALL_NINE}),
        # Ann's display held nine in play; Ben's face-down card, apart, is his ninth.
        (
            {"display": ALL_NINE, "face_down": "hoopoe"},
            {"display": {**DOUBLED, "cassowary": 0}, "face_down": "cassowary"},
        ),
    ],
)
def test_a_second_complete_display_that_owes_it_to_its_face_down_card_is_scored(
    client: FlaskClient, ann: dict[str, Any], ben: dict[str, Any]
) -> None:
    body = _scored(client, _two(ann, ben))
    assert body["finished"] is True
    assert client.post(SERIES, json={"games": [_two(ann, ben)]}).status_code == 200


def _spread(cards: int) -> list[dict[str, Any]]:
    """Two players holding ``cards`` cards between them, no display holding all nine:
    Ann the first four birds, Ben the last four, the fifth bird split between them."""
    ann: Counter[str] = Counter()
    ben: Counter[str] = Counter()
    for n in range(cards):
        bird = BIRD_KEYS[n // 8]
        (ann if n < 36 else ben)[bird] += 1
    return [{"name": "Ann", "display": dict(ann)}, {"name": "Ben", "display": dict(ben)}]


def test_every_card_on_the_table_ends_the_game(client: FlaskClient) -> None:
    body = _scored(client, {"players": _spread(72)})
    assert body["cards_on_table"] == 72
    assert body["finished"] is True
    assert body["warnings"] == []
    assert "readings" not in body
    # One card short: still in a draw pile, so the game goes on.
    short = _scored(client, {"players": _spread(71)})
    assert short["finished"] is False
    assert short["warnings"] == [
        "Nobody holds all nine birds yet and 71 of the 72 cards are entered, so 1 is still in"
        " the draw piles: the game goes on."
    ]


def test_a_face_down_card_as_the_ninth_bird_is_the_app_s_reading(client: FlaskClient) -> None:
    eight = dict.fromkeys(BIRD_KEYS[:8], 1)
    state = _two({"display": eight, "face_down": "cassowary"}, {"display": {"hoopoe": 3}})
    body = _scored(client, state)
    assert body["finished"] is True
    assert _reading_ids(body) == ["odd-world/face-down", "odd-world/end-check"]
    [_, end_check] = body["readings"]
    assert end_check["rule"] == "odd-world/end-check"
    assert "app's reading" in end_check["text"]
    # The same card folded into the display: the display holds nine, as the rules say.
    folded = _two({"display": {**eight, "cassowary": 1}}, {"display": {"hoopoe": 3}})
    assert "readings" not in _scored(client, folded)


def test_a_face_down_card_counted_before_the_end_is_the_app_s_reading(
    client: FlaskClient,
) -> None:
    going_on = _two(
        {"display": {"hoopoe": 2}, "face_down": "hoopoe"}, {"display": {"shoebill": 3}}
    )
    body = _scored(client, going_on)
    assert body["finished"] is False
    assert _reading_ids(body) == ["odd-world/face-down"]
    # Once the game is over by the rules, adding the card is the rules', not a reading.
    over = _two({"display": ALL_NINE}, {"display": {"shoebill": 3}, "face_down": "hoopoe"})
    assert "readings" not in _scored(client, over)


def test_a_tied_series_says_sharing_is_the_app_s_reading(client: FlaskClient) -> None:
    tied = _two({"display": {"hoopoe": 3}}, {"display": {"shoebill": 3}})
    body = client.post(SERIES, json={"games": [tied, tied]}).get_json()
    assert body["winners"] == ["Ann", "Ben"]
    assert _reading_ids(body) == ["odd-world/series/ties"]
    ahead = _two({"display": {"hoopoe": 3}}, {"display": {"shoebill": 1, "hornbill": 2}})
    body = client.post(SERIES, json={"games": [ahead, tied]}).get_json()
    assert body["winners"] == ["Ann"]
    assert "readings" not in body
