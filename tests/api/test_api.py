"""The JSON API: Odd World score and series, and the generic error handling."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.web.api import KEPT_STORE, MAX_KEPT_BODY
from support.client import API_EXAMPLE

SCORE = "/api/v1/games/odd-world/score"
SERIES = "/api/v1/games/odd-world/series"


def test_score_matches_the_contract(client: FlaskClient) -> None:
    response = client.post(SCORE, json=API_EXAMPLE)
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert list(body)[:6] == ["game", "standings", "winners", "decided_by", "finished", "warnings"]
    assert body["game"] == "odd-world"
    assert body["winners"] == ["Ann"]
    assert body["decided_by"] == "score"
    assert body["finished"] is False
    ann = body["standings"][0]
    assert ann == {
        "player": "Ann",
        "score": 5,
        "rank": 1,
        "winner": True,
        "breakdown": [
            {"label": "Hoopoe: 5 cards (odd)", "points": 5},
            {"label": "Shoebill: 2 cards (even)", "points": 0},
        ],
        "tiebreak": [
            {"label": "Bird species in display", "value": 2},
            {"label": "Best single bird", "value": 5},
        ],
    }


def test_series_endpoint(client: FlaskClient) -> None:
    body = client.post(SERIES, json={"games": [API_EXAMPLE, API_EXAMPLE, API_EXAMPLE]}).get_json()
    assert [(s["player"], s["score"]) for s in body["standings"]] == [("Ann", 15), ("Ben", 9)]
    assert [line["label"] for line in body["standings"][0]["breakdown"]] == [
        "Game 1",
        "Game 2",
        "Game 3",
    ]
    assert body["decided_by"] == "score"
    assert len(body["games"]) == 3


def test_422_lists_every_problem(client: FlaskClient) -> None:
    state = {
        "players": [
            {"name": "Ann", "display": {"hoopoe": 5}},
            {"name": "ann", "display": {"hoopoe": 4, "dodo": 1}},
        ]
    }
    response = client.post(SCORE, json=state)
    assert response.status_code == 422
    body = response.get_json()
    assert body["error"] == "invalid_state"
    assert {p["path"] for p in body["problems"]} == {
        "players[1].name",
        "players[1].display.dodo",
        "players[1].display.hoopoe",
    }
    assert "Only 8 Hoopoe cards exist, but 9 were entered." in [
        p["message"] for p in body["problems"]
    ]


@pytest.mark.parametrize(
    ("url", "kwargs", "status", "error"),
    [
        ("/api/v1/games/chess/score", {"json": {}}, 404, "not_found"),
        ("/api/v1/games/odd-world/referee", {"json": {}}, 404, "not_found"),
        ("/api/v1/nothing", {"json": {}}, 404, "not_found"),
        (SCORE, {"data": "{not json", "content_type": "application/json"}, 400, "bad_request"),
        (SCORE, {"data": "[1, 2]", "content_type": "application/json"}, 400, "bad_request"),
        (SCORE, {"data": "[" * 100000, "content_type": "application/json"}, 400, "bad_request"),
        (
            SCORE,
            {"data": "players=1", "content_type": "text/plain"},
            415,
            "unsupported_media_type",
        ),
        (SCORE, {"data": b"\xff\xfe", "content_type": "application/json"}, 400, "bad_request"),
        (
            SCORE,
            {"data": "x" * (2 * 1024 * 1024), "content_type": "application/json"},
            413,
            "payload_too_large",
        ),
    ],
)
def test_generic_errors(
    client: FlaskClient, url: str, kwargs: dict[str, Any], status: int, error: str
) -> None:
    response = client.post(url, **kwargs)
    assert response.status_code == status
    assert response.get_json()["error"] == error
    assert response.get_json()["message"]


def test_wrong_method_is_json_405(client: FlaskClient) -> None:
    response = client.get(SCORE)
    assert response.status_code == 405
    assert response.get_json()["error"] == "method_not_allowed"
    # Found by schemathesis: the JSON answer had dropped the Allow header RFC 9110 requires.
    assert set(response.headers["Allow"].split(", ")) == {"POST", "OPTIONS"}
    trace = client.open("/api/v1/games", method="TRACE")
    assert trace.status_code == 405
    assert set(trace.headers["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS"}


def test_a_page_answering_405_names_the_allowed_methods(client: FlaskClient) -> None:
    response = client.open("/", method="DELETE")
    assert response.status_code == 405
    assert response.mimetype == "text/html"
    assert "GET" in response.headers["Allow"]


def test_api_needs_no_csrf_token(client: FlaskClient) -> None:
    assert client.post(SCORE, json=API_EXAMPLE).status_code == 200


def test_games_index(client: FlaskClient) -> None:
    games = client.get("/api/v1/games").get_json()["games"]
    odd_world = next(g for g in games if g["slug"] == "odd-world")
    assert odd_world["players"] == {"min": 2, "max": 5}
    assert "/api/v1/games/odd-world/series" in odd_world["endpoints"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
birds = st.sampled_from(["hoopoe", "shoebill", "dodo", "", "cassowary"])
players = st.fixed_dictionaries(
    {"name": st.text(max_size=42) | json_values},
    optional={
        "display": st.dictionaries(birds, st.integers(-2, 10) | json_values, max_size=4)
        | json_values,
        "face_down": birds | json_values,
    },
)
bodies = (
    st.fixed_dictionaries({"players": st.lists(players, max_size=7) | json_values}) | json_values
)


@settings(
    max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None
)
@given(body=bodies)
def test_fuzzed_bodies_never_cause_a_500(client: FlaskClient, body: Any) -> None:
    for url in (SCORE, SERIES):
        response = client.post(url, data=json.dumps(body), content_type="application/json")
        assert response.status_code in {200, 400, 422}
        if response.status_code == 422:
            problems = response.get_json()["problems"]
            assert problems
            assert all(p["message"].endswith(".") for p in problems)


def kept_answers(client: FlaskClient) -> int:
    """How many answers the app keeps."""
    return len(client.application.extensions.get(KEPT_STORE) or ())


def test_a_body_sent_again_gets_the_same_answer_from_what_was_kept(client: FlaskClient) -> None:
    first = client.post(SCORE, json=API_EXAMPLE)
    kept = kept_answers(client)
    assert kept >= 1
    again = client.post(SCORE, json=API_EXAMPLE)
    assert kept_answers(client) == kept  # answered from the kept answer
    assert (again.status_code, again.mimetype) == (first.status_code, first.mimetype)
    assert again.get_data() == first.get_data()
    # Another body, or the same body to another endpoint, is answered for itself.
    changed = json.loads(json.dumps(API_EXAMPLE))
    changed["players"][1]["display"]["cassowary"] = 7
    other = client.post(SCORE, json=changed).get_json()
    assert other["winners"] == ["Ben"]
    assert client.post(SERIES, json=API_EXAMPLE).status_code == 422


def test_a_kept_refusal_is_refused_again_and_a_kept_body_needs_json(
    client: FlaskClient,
) -> None:
    bad = {"players": [{"name": "Ann", "display": {"hoopoe": 9}}]}
    first = client.post(SCORE, json=bad)
    again = client.post(SCORE, json=bad)
    assert first.status_code == again.status_code == 422
    assert again.get_json() == first.get_json()
    as_text = client.post(SCORE, data=json.dumps(bad), content_type="text/plain")
    assert as_text.status_code == 415


def test_a_large_body_is_never_kept(client: FlaskClient) -> None:
    padded = {**API_EXAMPLE, "note": "x" * MAX_KEPT_BODY}
    before = kept_answers(client)
    response = client.post(SCORE, json=padded)
    assert response.status_code in (200, 422)
    assert kept_answers(client) == before


NOT_UTF8_BODIES = [
    (
        "/api/v1/games/luckys-misadventures/challenge",
        b'{"kind": "tinkerer", "powers": {"A\xff": 2, "B": 0}, "turn_order": ["A\xff", "B"]}',
    ),
    (
        "/api/v1/games/owl-about/score",
        b'{"players": ["A\xff", "B", "C"], "mode": "basic", "rounds": []}',
    ),
    (
        "/api/v1/games/oddland/score",
        b'{"players": ["A\xff"], "map": ["FF", "FF"], "tokens": [], "sides": {}}',
    ),
    (
        "/api/v1/games/oddville/score",
        b'{"players": ["A\xff", "B"], "ended_by": "B",'
        b' "city": [{"at": [0, 0], "card": "main-square", "owners": []}]}',
    ),
    (
        SCORE,
        b'{"players": [{"name": "A\xff", "display": {"hoopoe": 1}},'
        b' {"name": "B", "display": {}}]}',
    ),
]


@pytest.mark.parametrize(("url", "raw"), NOT_UTF8_BODIES)
def test_a_body_that_is_not_utf8_is_refused_never_mended(
    client: FlaskClient, url: str, raw: bytes
) -> None:
    response = client.post(url, data=raw, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"] == "bad_request"
    assert "UTF-8" in response.get_json()["message"]
    assert "\ufffd" not in response.get_data(as_text=True)


@pytest.mark.parametrize("sign", ["", "-"])
def test_a_5000_digit_count_is_an_impossible_state_not_bad_json(
    client: FlaskClient, sign: str
) -> None:
    digits = sign + "9" * 5000
    raw = '{"players": [{"name": "Ann", "display": {"hoopoe": DIGITS}}, {"name": "Ben"}]}'
    raw = raw.replace("DIGITS", digits)
    response = client.post(SCORE, data=raw, content_type="application/json")
    assert response.status_code == 422
    body = response.get_json()
    assert body["error"] == "invalid_state"
    assert [p["path"] for p in body["problems"]] == ["players[0].display.hoopoe"]
    assert len(body["problems"][0]["message"]) < 200
