"""Groups through the pages: links and rotation, roster changes, starting tonight's table
with taps, the leaderboard, charts, head-to-head and history pages, bad input."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.models import Group, Table
from companion.services import groups
from support.client import HTMX, csrf, edit, start_play
from support.groups import create_group, start_group_table


def _members(app: Flask, token: str) -> dict[str, int]:
    with app.app_context(), app.test_request_context():
        found = groups.find(token)
        assert found is not None
        return {p.name: p.id for p in found.group.players}


def _finish(client: FlaskClient, token: str, play_id: int) -> None:
    data = {"csrf_token": csrf(client, f"/t/{token}"), "confirm": "yes"}
    response = client.post(f"/t/{token}/plays/{play_id}/finish", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)


def test_group_page_links_and_read_only(client: FlaskClient) -> None:
    links = create_group(client, "Thursdays", ["Ann", "Ben", "Cy"])
    page = client.get(f"/g/{links.edit}").get_data(as_text=True)
    assert "Thursdays" in page
    assert "Tonight's table" in page
    assert len(links.edit) >= 22
    assert links.edit != links.view
    view = client.get(f"/g/{links.view}").get_data(as_text=True)
    assert "Read-only link" in view
    assert links.edit not in view
    # Nothing to post but the language switch, which changes only the phone's own pick.
    assert re.findall(r'<form[^>]*method="post"[^>]*action="([^"]+)"', view) == ["/language"]
    assert client.get("/g/not-a-token").status_code == 404


def test_rotating_the_edit_link_revokes_the_old_one(client: FlaskClient) -> None:
    links = create_group(client, "Thursdays", ["Ann"])
    data = {"csrf_token": csrf(client, f"/g/{links.edit}")}
    response = client.post(f"/g/{links.edit}/rotate-link", data=data)
    assert response.status_code == 303
    fresh = response.headers["Location"].rsplit("/g/", 1)[1]
    assert fresh != links.edit
    assert client.get(f"/g/{links.edit}").status_code == 404
    assert client.get(f"/g/{fresh}").status_code == 200
    assert client.get(f"/g/{links.view}").status_code == 200  # the read-only link stays


def test_only_hashes_of_the_links_are_stored(app: Flask, client: FlaskClient) -> None:
    links = create_group(client, "Thursdays", ["Ann"])
    with app.app_context():
        from companion.extensions import db

        group = db.session.scalars(db.select(Group)).one()
        stored = " ".join(str(v) for v in vars(group).values())
    assert links.edit not in stored
    assert links.view not in stored


def test_starting_tonights_table_with_taps_in_seating_order(
    app: Flask, client: FlaskClient
) -> None:
    links = create_group(client, "Thursdays", ["Ann", "Ben", "Cy"])
    ids = _members(app, links.edit)
    # Each tap is a link that adds the player after those tapped already.
    page = client.get(f"/g/{links.edit}?pick={ids['Cy']}").get_data(as_text=True)
    assert f"pick={ids['Cy']}%2C{ids['Ann']}" in page or f"pick={ids['Cy']},{ids['Ann']}" in page
    page = client.get(f"/g/{links.edit}?pick={ids['Cy']},{ids['Ann']}").get_data(as_text=True)
    assert "1. Cy, 2. Ann" in page
    odd = client.get(f"/g/{links.edit}?pick=\u00b2,{'9' * 5000},{ids['Ben']},x")
    assert odd.status_code == 200
    assert "1. Ben" in odd.get_data(as_text=True)
    table = start_group_table(client, links.edit, [ids["Cy"], ids["Ann"]], new=["Dee"])
    table_page = client.get(f"/t/{table}").get_data(as_text=True)
    assert "Cy, Ann, Dee" in table_page
    assert _members(app, links.edit).keys() == {"Ann", "Ben", "Cy", "Dee"}
    with app.app_context():
        from companion.extensions import db

        made = db.session.scalars(db.select(Table)).one()
        assert made.group is not None
        assert [p.group_player_id for p in made.players][:2] == [ids["Cy"], ids["Ann"]]


def test_starting_a_table_refuses_bad_picks(app: Flask, client: FlaskClient) -> None:
    links = create_group(client, "Thursdays", ["Ann", "Ben"])
    ids = _members(app, links.edit)
    token = csrf(client, f"/g/{links.edit}")
    cases = {
        "": "Pick tonight",
        "abc": "not one of ours",
        "99999999999": "not one of ours",
        "\u00b2": "not one of ours",
        f"{ids['Ann']},{ids['Ann']}": "only once",
        "123456": "not in this group",
    }
    for seats, message in cases.items():
        response = client.post(
            f"/g/{links.edit}/tables", data={"csrf_token": token, "seats": seats}, headers=HTMX
        )
        assert response.status_code == 422, seats
        assert message in response.get_data(as_text=True), seats
    taken = {"csrf_token": token, "seats": str(ids["Ann"]), "new-0": "ann"}
    response = client.post(f"/g/{links.edit}/tables", data=taken)
    assert response.status_code == 422
    assert "already in the group" in response.get_data(as_text=True)


@pytest.mark.both_backends("merging members rewrites results in SQL")
def test_roster_add_rename_remove_and_merge_through_the_page(
    app: Flask, client: FlaskClient
) -> None:
    links = create_group(client, "Thursdays", ["Ann", "Ben"])
    token = csrf(client, f"/g/{links.edit}")
    url = f"/g/{links.edit}/players"
    assert (
        client.post(url, data={"csrf_token": token, "action": "add", "name": "Bne"}).status_code
        == 303
    )
    ids = _members(app, links.edit)
    rename = {"csrf_token": token, "action": "rename", "player": ids["Ann"], "name": "Anna"}
    assert client.post(url, data=rename).status_code == 303
    clash = {
        "csrf_token": token,
        "action": "rename",
        "player": ids["Anna"] if "Anna" in ids else ids["Ann"],
        "name": "ben",
    }
    response = client.post(url, data=clash)
    assert response.status_code == 422
    assert "merge them" in response.get_data(as_text=True)
    merge = {"csrf_token": token, "action": "merge", "player": ids["Bne"], "into": ids["Ben"]}
    assert client.post(url, data=merge).status_code == 303
    remove = {"csrf_token": token, "action": "remove", "player": ids["Ben"]}
    assert client.post(url, data=remove).status_code == 303
    assert _members(app, links.edit) == {"Anna": ids["Ann"], "Ben": ids["Ben"]}
    page = client.get(f"/g/{links.edit}").get_data(as_text=True)
    assert "Off the roster: Ben" in page
    for bad in (
        {"action": "explode"},
        {"action": "rename", "player": "2147483648", "name": "X"},
        {"action": "rename", "name": "X"},
        {"action": "add", "name": "x" * 41},
        {"action": "add", "name": "A\u202eB"},
        {"action": "merge", "player": ids["Ann"]},
    ):
        response = client.post(url, data={"csrf_token": token, **bad})
        assert response.status_code == 422, bad


@pytest.mark.both_backends("leaderboards are SQL aggregates")
def test_leaderboard_history_and_versus_pages(app: Flask, client: FlaskClient) -> None:
    links = create_group(client, "Thursdays", ["Ann", "Ben"])
    ids = _members(app, links.edit)
    table = start_group_table(client, links.edit, [ids["Ann"], ids["Ben"]])
    for hoopoes in (3, 1):
        play = start_play(client, table)
        edit(client, table, play, path="players[0].display.hoopoe", value=str(hoopoes))
        _finish(client, table, play)
    board = client.get(f"/g/{links.view}/stats?game=odd-world").get_data(as_text=True)
    assert "<svg" in board
    assert "Wins over time" in board
    assert "Scores in Odd World" in board
    row = re.search(r"<th scope=\"row\">Ann</th>\s*<td>(\d+)</td>\s*<td>(\d+)", board)
    assert row
    assert row.groups() == ("2", "2")
    assert client.get(f"/g/{links.view}/stats").status_code == 200
    assert client.get(f"/g/{links.view}/stats?game=nope").status_code == 404
    history = client.get(f"/g/{links.view}/history?game=odd-world&player={ids['Ben']}")
    assert history.status_code == 200
    assert "2 games" in history.get_data(as_text=True)
    for bad in (
        "since=yesterday",
        "game=chess",
        "player=99999",
        "player=-1",
        "since=2026-02-02&until=2026-01-01",
        "player=999999999999",
    ):
        assert client.get(f"/g/{links.view}/history?{bad}").status_code == 422, bad
    versus = client.get(f"/g/{links.view}/versus?a={ids['Ann']}&b={ids['Ben']}")
    assert "Ann against Ben" in versus.get_data(as_text=True)
    for bad in (f"a={ids['Ann']}&b={ids['Ann']}", "a=5&b=x", "a=123456&b=1"):
        assert client.get(f"/g/{links.view}/versus?{bad}").status_code == 422, bad
    home = client.get(f"/g/{links.edit}").get_data(as_text=True)
    assert "2 finished plays" in home
    table_page = client.get(f"/t/{table}").get_data(as_text=True)
    assert "This evening" in table_page
    assert "see its leaderboards" in table_page
    assert "bgstats://app.bgstatsapp.com/createPlay.html?data=" in table_page


def test_new_group_form_refuses_bad_input(client: FlaskClient) -> None:
    token = csrf(client, "/groups/new")
    for bad in (
        {"name": ""},
        {"name": "x" * 61},
        {"name": "G", "players-0": "Ann", "players-1": "ann"},
        {"name": "G", "players-0": "x" * 41},
        {"name": "G\u200b"},
    ):
        response = client.post("/groups", data={"csrf_token": token, **bad}, headers=HTMX)
        assert response.status_code == 422, bad


def test_a_late_friend_at_the_table_joins_the_group(app: Flask, client: FlaskClient) -> None:
    links = create_group(client, "Thursdays", ["Ann", "Ben"])
    ids = _members(app, links.edit)
    table = start_group_table(client, links.edit, [ids["Ann"]])
    data = {"csrf_token": csrf(client, f"/t/{table}"), "action": "add", "name": "Zoe"}
    assert client.post(f"/t/{table}/players", data=data).status_code == 303
    data["name"] = "Ben"  # already in the group: the same person
    assert client.post(f"/t/{table}/players", data=data).status_code == 303
    after = _members(app, links.edit)
    assert set(after) == {"Ann", "Ben", "Zoe"}
    assert after["Ben"] == ids["Ben"]
    with app.app_context():
        from companion.extensions import db

        made = db.session.scalars(db.select(Table)).one()
        assert [p.group_player_id for p in made.players] == [ids["Ann"], after["Zoe"], ids["Ben"]]
