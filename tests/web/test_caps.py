"""Caps on what a table, a group and a roster hold: past them the pages refuse with a
sentence next to the field (422), nothing stored. The caps are lowered here so that a test
reaches them in a few requests; the sentences name the cap in force."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from companion.extensions import db
from companion.models import Edit, GroupPlayer, Play, Table
from companion.services import caps, transfer
from support.client import create_table, csrf, edit, start_play
from support.groups import create_group, start_group_table

UNPROCESSABLE = 422
HOOPOE = "players[0].display.hoopoe"


def _count(app: Flask, model: type) -> int:
    with app.app_context():
        return int(db.session.scalar(select(db.func.count()).select_from(model)) or 0)


def test_a_table_holds_at_most_so_many_plays(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(caps, "MAX_PLAYS_PER_TABLE", 2)
    links = create_table(client, ["Ann", "Ben"])
    start_play(client, links.edit)
    start_play(client, links.edit, series=True)
    data = {"game": "odd-world", "csrf_token": csrf(client, f"/t/{links.edit}"), "confirm": "yes"}
    response = client.post(f"/t/{links.edit}/plays", data=data)
    assert response.status_code == UNPROCESSABLE
    assert "A table holds at most 2 games" in response.get_data(as_text=True)
    assert _count(app, Play) == 2


def test_a_roster_holds_at_most_so_many_members(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(caps, "MAX_GROUP_MEMBERS", 3)
    links = create_group(client, "Fridays", ["Ann", "Ben", "Cy"])
    data = {"csrf_token": csrf(client, f"/g/{links.edit}"), "action": "add", "name": "Dee"}
    response = client.post(f"/g/{links.edit}/players", data=data)
    assert response.status_code == UNPROCESSABLE
    assert "A group holds at most 3 players" in response.get_data(as_text=True)
    assert _count(app, GroupPlayer) == 3
    # A late friend at the group's table still sits down, without joining the full roster.
    with app.app_context():
        ids = [p.id for p in db.session.scalars(select(GroupPlayer).order_by(GroupPlayer.id))]
    table = start_group_table(client, links.edit, ids[:2])
    late = {"csrf_token": csrf(client, f"/t/{table}"), "action": "add", "name": "Dee"}
    assert client.post(f"/t/{table}/players", data=late).status_code == 303
    assert _count(app, GroupPlayer) == 3


def test_a_group_holds_at_most_so_many_tables(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(caps, "MAX_GROUP_TABLES", 1)
    links = create_group(client, "Fridays", ["Ann", "Ben"])
    with app.app_context():
        ids = [p.id for p in db.session.scalars(select(GroupPlayer).order_by(GroupPlayer.id))]
    start_group_table(client, links.edit, ids)
    data = {"seats": ",".join(map(str, ids)), "csrf_token": csrf(client, f"/g/{links.edit}")}
    response = client.post(f"/g/{links.edit}/tables", data=data)
    assert response.status_code == UNPROCESSABLE
    assert "A group holds at most 1 tables" in response.get_data(as_text=True)
    assert _count(app, Table) == 1


def test_a_play_keeps_at_most_so_many_changes(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(caps, "MAX_EDITS_PER_PLAY", 2)
    monkeypatch.setattr(caps, "STATUS_CHANGES_PAST_CAP", 2)
    links = create_table(client, ["Ann", "Ben"])
    play = start_play(client, links.edit)
    for value in ("1", "2"):
        assert edit(client, links.edit, play, path=HOOPOE, value=value).status_code == 200
    refused = edit(client, links.edit, play, path=HOOPOE, value="3")
    assert refused.status_code == UNPROCESSABLE
    assert "A game keeps at most 2 changes" in refused.get_data(as_text=True)
    assert _count(app, Edit) == 2
    # Its results still count: it can be finished (and reopened) a few times past the cap.
    url = f"/t/{links.edit}/plays/{play}"
    data = {"csrf_token": csrf(client, url), "confirm": "yes"}
    assert client.post(f"{url}/finish", data=data).status_code == 303
    assert client.post(f"{url}/reopen", data=data).status_code == 303
    again = client.post(f"{url}/finish", data=data)
    assert again.status_code == UNPROCESSABLE
    assert "finished and reopened too often" in again.get_data(as_text=True)
    assert _count(app, Edit) == 4


def test_an_import_refuses_a_play_past_the_changes_cap(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    links_client = app.test_client()
    links = create_table(links_client, ["Ann", "Ben"])
    play = start_play(links_client, links.edit)
    for value in ("1", "2", "3"):
        edit(links_client, links.edit, play, path=HOOPOE, value=value)
    document = links_client.get(f"/t/{links.edit}/export.json").get_json()
    monkeypatch.setattr(caps, "MAX_EDITS_PER_PLAY", 1)
    monkeypatch.setattr(caps, "STATUS_CHANGES_PAST_CAP", 1)
    with app.app_context(), pytest.raises(transfer.ImportRefused) as refused:
        transfer.check_document(document)
    assert refused.value.lines == ["table.plays[0].edits: " + caps.too_many_edits()]
