"""The JSON API's answers carry the security headers and a request id, and never the
headers of a page that holds a table's link."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from companion.web import security

BODY = {
    "players": [
        {"name": "Ann", "display": {"hoopoe": 5, "shoebill": 1}, "face_down": "shoebill"},
        {"name": "Ben", "display": {"cassowary": 3}},
        {"name": "Cy", "display": {"hornbill": 2, "king-vulture": 1}},
    ]
}
SCORE = "/api/v1/games/odd-world/score"


def test_an_api_call_gets_the_security_headers_and_a_request_id(client: FlaskClient) -> None:
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
