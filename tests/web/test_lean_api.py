"""The JSON API's lean path: the hooks only pages need skip it, and no hook is asked on
every request whether it is a coroutine function."""

from __future__ import annotations

from unittest.mock import patch

import flask.app
from flask import Flask
from flask.testing import FlaskClient

from companion.web import idempotency, security

BODY = {
    "players": [
        {"name": "Ann", "display": {"hoopoe": 5, "shoebill": 1}, "face_down": "shoebill"},
        {"name": "Ben", "display": {"cassowary": 3}},
        {"name": "Cy", "display": {"hornbill": 2, "king-vulture": 1}},
    ]
}
SCORE = "/api/v1/games/odd-world/score"


def test_an_api_call_skips_the_page_hooks_and_keeps_its_headers(client: FlaskClient) -> None:
    """No look for an idempotency key (an API call never has one), and still the
    security headers and a request id."""
    with patch.object(idempotency, "_key", side_effect=AssertionError("looked for a key")):
        answer = client.post(SCORE, json=BODY, headers={"X-Request-ID": "abc-123"})
    assert answer.status_code == 200
    assert answer.get_json()["standings"][0]["player"] == "Ann"
    for name, value in security.HEADERS.items():
        assert answer.headers[name] == value
    assert answer.headers["X-Request-ID"] == "abc-123"
    assert "Cache-Control" not in answer.headers  # a score holds no table's link
    made_up = client.post(SCORE, json=BODY).headers["X-Request-ID"]
    assert len(made_up) == 32


def test_an_api_call_over_https_gets_hsts(app: Flask) -> None:
    app.config["HTTPS"] = True
    answer = app.test_client().post(SCORE, json=BODY, base_url="https://localhost")
    assert answer.headers["Strict-Transport-Security"] == security.HSTS


def test_pages_still_get_the_page_hooks(client: FlaskClient) -> None:
    """The home page: no-store (it lists this phone's tables) and its request id."""
    answer = client.get("/")
    assert answer.headers["Cache-Control"] == "no-store"
    assert len(answer.headers["X-Request-ID"]) == 32


def test_each_hook_is_asked_once_whether_it_is_a_coroutine(client: FlaskClient) -> None:
    client.post(SCORE, json=BODY)
    with patch.object(
        flask.app, "iscoroutinefunction", wraps=flask.app.iscoroutinefunction
    ) as asked:
        for _ in range(3):
            assert client.post(SCORE, json=BODY).status_code == 200
    assert asked.call_count == 0
