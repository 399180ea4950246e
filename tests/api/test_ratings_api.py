"""``GET /api/v1/groups/<token>/ratings``: a group's skill ratings as JSON, through its edit
or read-only link, of the shape its OpenAPI description gives; an unknown link is a JSON
404; the answer is never stored, nor its link logged."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient

from companion.games import GAMES
from companion.services import groups, ratings
from companion.services.tables import Access
from companion.web import log_redaction
from support.groups import Tally, finish_with, member_ids

PATH = "/api/v1/groups/{token}/ratings"


@pytest.fixture
def rated_group(app: Flask, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, dict[str, int]]:
    """A group whose Ann beat Ben six times at Tally (Cy watched): its two tokens."""
    monkeypatch.setitem(GAMES, Tally.slug, Tally())
    with app.app_context(), app.test_request_context():
        group = groups.create_group("Thursdays", ["Ann", "Ben", "Cy"])
        ids = member_ids(group)
        table = groups.start_table(group, seated=[ids["Ann"], ids["Ben"]])
        for day in range(6):
            at = datetime(2026, 5, 1) + timedelta(days=day)
            finish_with(table, "tally", {"Ann": 9, "Ben": 2}, at=at)
        tokens = groups.token_for(group, Access.EDIT), groups.token_for(group, Access.VIEW)
    return *tokens, ids


def test_the_ratings_come_best_first_with_their_uncertainty(
    client: FlaskClient, rated_group: tuple[str, str, dict[str, int]]
) -> None:
    edit, view, ids = rated_group
    answers = [client.get(f"/api/v1/groups/{token}/ratings") for token in (edit, view)]
    assert answers[0].get_json() == answers[1].get_json()
    body = answers[1].get_json()
    assert (body["group"], body["plays"], body["provisional_games"]) == ("Thursdays", 6, 5)
    assert body["model"] == ratings.MODEL_NAME
    ann, ben = body["overall"]
    assert (ann["player"], ann["id"], ben["player"]) == ("Ann", ids["Ann"], "Ben")
    assert ann["rating"] == pytest.approx(ann["mu"] - 3 * ann["sigma"], abs=0.01)
    assert ann["rating"] > ben["rating"]
    assert (ann["games"], ann["provisional"]) == (6, False)
    assert list(body["games"]) == ["tally"]
    assert body["games"]["tally"]["name"] == "Tally"
    assert body["games"]["tally"]["ratings"] == body["overall"]  # one game only
    assert answers[1].headers["Cache-Control"] == "no-store"
    assert answers[1].headers["X-Robots-Tag"] == "noindex"


def test_the_answer_has_the_described_shape(
    app: Flask, rated_group: tuple[str, str, dict[str, int]]
) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    case = schema[PATH]["GET"].Case(path_parameters={"token": rated_group[1]})
    response = case.call_and_validate(headers={"Accept-Encoding": "identity"})
    assert response.status_code == 200


def test_an_unknown_link_is_a_json_404_and_a_table_link_opens_no_group(
    client: FlaskClient, rated_group: tuple[str, str, dict[str, int]]
) -> None:
    for token in ("nothing-here", rated_group[0][:-1], "a" * 300):
        answer = client.get(f"/api/v1/groups/{token}/ratings")
        assert answer.status_code == 404
        assert answer.get_json() == {"error": "not_found", "message": "No group has this link."}
    assert client.post(f"/api/v1/groups/{rated_group[0]}/ratings").status_code == 405


def test_an_empty_group_has_empty_boards(app: Flask, client: FlaskClient) -> None:
    with app.app_context(), app.test_request_context():
        token = groups.token_for(groups.create_group("New", ["Ann"]), Access.VIEW)
    body = client.get(f"/api/v1/groups/{token}/ratings").get_json()
    assert (body["plays"], body["overall"], body["games"]) == (0, [], {})


def test_the_group_link_in_the_path_is_never_logged() -> None:
    line = log_redaction.redact('"GET /api/v1/groups/Zx_9-secret/ratings HTTP/1.1" 200')
    assert "secret" not in line
    assert "/api/v1/groups/…/ratings" in line
