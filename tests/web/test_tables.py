"""Starting a table, the roster editor, joining by code, links, QR code, totals."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.games import GAMES, odd_world
from support.client import HTMX, create_table, csrf, edit, evening_rows, start_play


def test_home_page_has_roster_and_join_forms(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'id="roster"' in page
    assert 'name="players-0"' in page
    assert "Join code" in page


def test_roster_editing_adds_moves_and_removes_without_storing(client: FlaskClient) -> None:
    token = csrf(client)
    base = {"csrf_token": token, "players-0": "Ann", "players-1": "Ben"}
    added = client.post("/tables", data={**base, "action": "add"}, headers=HTMX)
    assert added.status_code == 200
    assert 'name="players-2"' in added.get_data(as_text=True)
    assert "<html" not in added.get_data(as_text=True)  # only the fragment
    moved = client.post("/tables", data={**base, "action": "up-1"}, headers=HTMX)
    text = moved.get_data(as_text=True)
    assert text.index('value="Ben"') < text.index('value="Ann"')
    removed = client.post("/tables", data={**base, "action": "remove-0"}).get_data(as_text=True)
    assert 'value="Ann"' not in removed
    assert 'value="Ben"' in removed
    assert "<html" in removed  # without htmx the whole page comes back


def test_create_table_and_read_only_link(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben", "Cy"])
    page = client.get(f"/t/{links.edit}").get_data(as_text=True)
    assert "Ann, Ben, Cy" in page
    assert "<svg" in page  # the QR code, drawn on the server
    assert len(links.edit) >= 22
    assert links.edit != links.view
    view = client.get(f"/t/{links.view}").get_data(as_text=True)
    assert "Read-only link" in view
    assert links.edit not in view  # the read-only page never leaks the edit link
    assert 'action="/t/' not in view.split("Bring in another phone")[0]


def test_invalid_roster_is_refused_with_message(client: FlaskClient) -> None:
    token = csrf(client)
    response = client.post(
        "/tables",
        data={"csrf_token": token, "action": "create", "players-0": "Ann", "players-1": " ann "},
        headers=HTMX,
    )
    assert response.status_code == 422
    assert "names must differ" in response.get_data(as_text=True)
    empty = client.post("/tables", data={"csrf_token": token, "action": "create", "players-0": ""})
    assert empty.status_code == 422
    assert "at least one player" in empty.get_data(as_text=True)
    long = client.post(
        "/tables", data={"csrf_token": token, "action": "create", "players-0": "x" * 41}
    )
    assert long.status_code == 422
    seven = {f"players-{i}": f"P{i}" for i in range(7)}
    too_many = client.post("/tables", data={"csrf_token": token, "action": "create", **seven})
    assert too_many.status_code == 422


def test_unknown_token_is_404(client: FlaskClient) -> None:
    assert client.get("/t/not-a-real-token").status_code == 404


def test_join_by_code_opens_the_table(app: Flask, client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    other = app.test_client()
    code = f"{links.code[:3].lower()}-{links.code[3:]}"
    response = other.post("/join", data={"code": code, "csrf_token": csrf(other, "/join")})
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/t/{links.edit}")


def test_wrong_join_codes_are_rate_limited(app: Flask, client: FlaskClient) -> None:
    token = csrf(client, "/join")
    short = client.post("/join", data={"code": "AB", "csrf_token": token})
    assert short.status_code == 422
    assert "6 letters or digits" in short.get_data(as_text=True)
    statuses = [
        client.post("/join", data={"code": "ZZZZZZ", "csrf_token": token}).status_code
        for _ in range(app.config["JOIN_ATTEMPTS"] + 1)
    ]
    assert statuses[0] == 422
    assert statuses[-1] == 429


def test_running_totals_count_finished_games(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    for hoopoes in (3, 1):
        play = start_play(client, links.edit)
        edit(client, links.edit, play, path="players[0].display.hoopoe", value=str(hoopoes))
        token = csrf(client, f"/t/{links.edit}")
        client.post(
            f"/t/{links.edit}/plays/{play}/finish", data={"csrf_token": token, "confirm": "yes"}
        )
    unfinished = start_play(client, links.edit)
    edit(client, links.edit, unfinished, path="players[1].display.hoopoe", value="5")
    page = client.get(f"/t/{links.edit}").get_data(as_text=True)
    assert evening_rows(page) == [("Ann", "2", "2", "4"), ("Ben", "2", "0", "0")]


def test_identity_names_the_phone_in_history(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    token = csrf(client, f"/t/{links.edit}")
    response = client.post(f"/t/{links.edit}/me", data={"name": "Ben", "csrf_token": token})
    assert response.status_code == 303
    refused = client.post(f"/t/{links.edit}/me", data={"name": "Zed", "csrf_token": token})
    assert refused.status_code == 422
    play = start_play(client, links.edit)
    edit(client, links.edit, play, path="players[1].display.hoopoe", value="1", base="0")
    history = client.get(f"/t/{links.edit}/plays/{play}/history").get_data(as_text=True)
    assert '<span class="who">Ben</span>' in history
    assert "Ben&#39;s Hoopoe: 0 → 1." in history


def test_home_lists_this_phones_recent_tables(client: FlaskClient) -> None:
    assert "Your tables" not in client.get("/").get_data(as_text=True)
    links = create_table(client, ["Ann", "Ben"])
    home = client.get("/").get_data(as_text=True)
    assert "Your tables" in home
    assert f"/t/{links.edit}" in home
    assert f"{links.code} · Ann, Ben" in home
    assert 'name="players-1"' in client.get("/").get_data(as_text=True)  # two empty rows


def test_totals_and_the_play_page_agree_after_an_engine_change(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play = start_play(client, links.edit)
    edit(client, links.edit, play, path="players[0].display.hoopoe", value="3")
    token = csrf(client, f"/t/{links.edit}")
    client.post(
        f"/t/{links.edit}/plays/{play}/finish", data={"csrf_token": token, "confirm": "yes"}
    )
    # A new engine version scores differently: the cached result is outdated.
    engine = GAMES["odd-world"]
    monkeypatch.setattr(type(engine), "engine_version", engine.engine_version + 1)
    monkeypatch.setattr(odd_world, "bird_points", lambda count: 10 * count)
    page = client.get(f"/t/{links.edit}/plays/{play}").get_data(as_text=True)
    shown = re.search(r'<span class="who">Ann</span>\s*<span class="score">(\d+)</span>', page)
    assert shown
    assert shown.group(1) == "30"
    page = client.get(f"/t/{links.edit}").get_data(as_text=True)
    assert evening_rows(page) == [("Ann", "1", "1", "30"), ("Ben", "1", "0", "0")]
