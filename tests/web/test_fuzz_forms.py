"""No form input, however odd, makes a page answer 500."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import HTMX, TableLinks, create_table, csrf, start_play

KEYS = st.sampled_from(
    [
        "path",
        "value",
        "base",
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
