"""No form input, however odd, makes a page answer 500."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.client import HTMX, TableLinks, create_table, csrf, start_play
from support.every_game import Fixture, table_with_every_game
from support.routes import route_urls
from support.routes import routes as route_rules

KEYS = st.sampled_from(
    [
        "path",
        "value",
        "base",
        "tap",
        "field",
        "player",
        "seat",
        "action",
        "game",
        "series",
        "name",
        "code",
        "players-0",
        "players-1",
        "players-9",
        "version",
    ]
)
VALUES = st.text(max_size=30) | st.sampled_from(
    [
        "players[0].display.hoopoe",
        "players[0].display.hoopoe 1 0",
        "players[0].display.hoopoe  ",
        "machines.tiny-tin 1 0",
        "lucky 9 x",
        "players[1].face_down",
        "players[99].display.x",
        "-1",
        "8",
        "9",
        "1e9",
        "all",
        "up-0",
        "down-5",
        "remove-x",
        "add",
        "create",
        "odd-world",
        "owl-about",
    ]
)
FORMS = st.dictionaries(KEYS, VALUES, max_size=5)


@pytest.fixture
def table(client: FlaskClient) -> tuple[TableLinks, int]:
    """A table with an Odd World play."""
    links = create_table(client, ["Ann", "Ben"])
    return links, start_play(client, links.edit)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(form=FORMS, htmx=st.booleans())
def test_random_forms_never_cause_a_500(
    client: FlaskClient, table: tuple[TableLinks, int], form: dict[str, str], htmx: bool
) -> None:
    links, play = table
    token = csrf(client, f"/t/{links.edit}")
    headers = HTMX if htmx else {}
    posts = [
        "/tables",
        "/join",
        f"/t/{links.edit}/plays",
        f"/t/{links.edit}/me",
        f"/t/{links.edit}/plays/{play}/edit",
        f"/t/{links.edit}/plays/{play}/undo",
        f"/t/{links.edit}/plays/new/odd-world",
        f"/t/{links.view}/plays/{play}/edit",
    ]
    for url in posts:
        response = client.post(url, data={**form, "csrf_token": token}, headers=headers)
        assert response.status_code < 500, (url, response.status_code)
    for url in (f"/t/{links.edit}/plays/{play}", f"/t/{links.edit}/plays/{play}/poll"):
        assert client.get(url, query_string=form, headers=headers).status_code < 500


# --- every game's routes --------------------------------------------------------------

GAME_KEYS = st.sampled_from(
    [
        "card",
        "player",
        "lead",
        "round",
        "rounds",
        "trophies-0",
        "winner",
        "trick",
        "hand",
        "mode",
        "target",
        "variants",
        "row",
        "col",
        "cell",
        "terrain",
        "tool",
        "species",
        "side",
        "points",
        "per",
        "region",
        "laid",
        "top_left",
        "direction",
        "undoes",
        "submission",
        "name",
        "action",
        "seat",
    ]
)
GAME_VALUES = st.text(max_size=20) | st.sampled_from(
    ["0", "-1", "99", "1e9", "N4", "10", "F", "W", ".", "begator", "A", "B", "add", "all"]
)
GAME_FORMS = st.dictionaries(GAME_KEYS, GAME_VALUES, max_size=6)


@pytest.fixture
def every_game(client: FlaskClient) -> Fixture:
    """A table with a play of every game (as the route walk builds it)."""
    return table_with_every_game(client)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(form=GAME_FORMS, htmx=st.booleans())
def test_random_forms_on_every_games_routes_never_cause_a_500(
    app: Flask, client: FlaskClient, every_game: Fixture, form: dict[str, str], htmx: bool
) -> None:
    token = csrf(client, f"/t/{every_game.edit}")
    headers = HTMX if htmx else {}
    posted = 0
    for rule in route_rules(app):
        if "POST" not in (rule.methods or ()) or not rule.rule.startswith("/t/"):
            continue
        for url in route_urls(app, rule, every_game.edit, every_game):
            response = client.post(url, data={**form, "csrf_token": token}, headers=headers)
            assert response.status_code < 500, (url, response.status_code)
            posted += 1
    assert posted > 20
