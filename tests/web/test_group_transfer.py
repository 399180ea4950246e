"""Exports, imports and BG Stats: a JSON export of a play, a table or a group recreates it
exactly (every registered game), CSV has one row per player per play, the CLI backs up
everything, and the BG Stats push link carries the documented createPlay fields."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from companion.extensions import db
from companion.games import GAMES
from companion.models import Group, Play, Table
from companion.services import bgstats, groups, tables, transfer
from companion.services.tables import Access
from support.client import csrf, edit, start_play
from support.every_game import PLAYERS, STARTERS
from support.groups import create_group, start_group_table

pytestmark = pytest.mark.both_backends("export and import are SQL reads and writes of every table")


def _finish(client: FlaskClient, token: str, play_id: int) -> None:
    data = {"csrf_token": csrf(client, f"/t/{token}"), "confirm": "yes"}
    response = client.post(f"/t/{token}/plays/{play_id}/finish", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)


@pytest.fixture
def busy_group(app: Flask, client: FlaskClient) -> tuple[str, str, dict[str, int]]:
    """A group with a table that played every registered game (one finished, with edits
    and an undo), and a second table with a finished Odd World series."""
    links = create_group(client, "Exporters", PLAYERS)
    with app.app_context(), app.test_request_context():
        found = groups.find(links.edit)
        assert found is not None
        ids = [p.id for p in found.group.players]
    table = start_group_table(client, links.edit, ids)
    assert set(STARTERS) == set(GAMES), "start a play of every game in STARTERS"
    started = {slug: start(client, table) for slug, start in STARTERS.items()}
    odd = started["odd-world"]
    edit(client, table, odd, path="players[0].display.hoopoe", value="3")
    edit(client, table, odd, path="players[1].display.shoebill", value="1")
    undo = {"csrf_token": csrf(client, f"/t/{table}")}
    client.post(f"/t/{table}/plays/{odd}/undo", data=undo)
    _finish(client, table, odd)
    for slug, play_id in started.items():
        if slug != "odd-world":
            _finish(client, table, play_id)
    second = start_group_table(client, links.edit, ids[:2])
    series = start_play(client, second, series=True)
    _finish(client, second, series)
    return links.edit, table, started


def test_group_json_round_trip_recreates_everything_with_fresh_links(
    app: Flask, client: FlaskClient, busy_group: tuple[str, str, dict[str, int]]
) -> None:
    group_token, table_token, _started = busy_group
    first = client.get(f"/g/{group_token}/export.json")
    assert first.headers["Cache-Control"] == "no-store"
    document = json.loads(first.get_data(as_text=True))
    assert {p["game"] for t in document["group"]["tables"] for p in t["plays"]} == set(GAMES)
    with app.app_context(), app.test_request_context():
        created = transfer.import_document(json.loads(json.dumps(document)))
        assert [kind for kind, _ in created] == ["group"]
        fresh = created[0][1]
        assert fresh != group_token
        found = groups.find(fresh)
        assert found is not None
        again = transfer.export_group(found.group)
        assert again == document
        # New links for the tables too: none of the old ones opens the copy.
        copies = db.session.scalars(select(Table).where(Table.group_id == found.group.id))
        assert all(tables.token_for(t, Access.EDIT) != table_token for t in copies)
        assert db.session.scalar(select(db.func.count()).select_from(Group)) == 2
    # The imported group's statistics are the same as the original's.
    original = client.get(f"/g/{group_token}/stats").get_data(as_text=True)
    copy = client.get(f"/g/{fresh}/stats").get_data(as_text=True)
    assert (
        original.split('id="board-title"')[1].split("</table>")[0]
        == copy.split('id="board-title"')[1].split("</table>")[0]
    )


@pytest.mark.parametrize("slug", sorted(STARTERS))
def test_play_and_table_round_trip_for_every_game(
    app: Flask, client: FlaskClient, busy_group: tuple[str, str, dict[str, int]], slug: str
) -> None:
    _group, table_token, started = busy_group
    document = json.loads(client.get(f"/t/{table_token}/plays/{started[slug]}/export.json").data)
    assert document["kind"] == "play"
    (play,) = document["table"]["plays"]
    assert play["game"] == slug
    assert play["edits"], "the edit log is exported"
    with app.app_context(), app.test_request_context():
        ((kind, token),) = transfer.import_document(document)
        assert kind == "table"
        found = tables.find(token)
        assert found is not None
        (copy,) = found.table.plays
        assert transfer.export_play(copy) == document
        assert copy.state == play["state"]
    whole = json.loads(client.get(f"/t/{table_token}/export.json").data)
    with app.app_context(), app.test_request_context():
        ((_, token),) = transfer.import_document(whole)
        found = tables.find(token)
        assert found is not None
        assert transfer.export_table(found.table) == whole


def test_csv_has_one_row_per_player_per_play(
    client: FlaskClient, busy_group: tuple[str, str, dict[str, int]]
) -> None:
    group_token, _table, _started = busy_group
    response = client.get(f"/g/{group_token}/export.csv")
    assert response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    document = json.loads(client.get(f"/g/{group_token}/export.json").data)
    expected = sum(
        len(p["result"]["standings"])
        for t in document["group"]["tables"]
        for p in t["plays"]
        if p["result"]
    )
    assert len(rows) == expected
    assert {r["player"] for r in rows} <= set(PLAYERS)
    assert {r["winner"] for r in rows} <= {"yes", "no"}


def test_import_refuses_what_is_not_an_export(app: Flask) -> None:
    with app.app_context(), app.test_request_context():
        for bad in (
            [],
            {"format": "other"},
            {"format": "odd-companion", "version": 2},
            {"format": "odd-companion", "version": 1, "kind": "table", "table": {}},
            {"format": "odd-companion", "version": 1, "kind": "mystery"},
        ):
            with pytest.raises(transfer.ImportRefused):
                transfer.import_document(bad)
        seat_twice = {
            "format": "odd-companion",
            "version": 1,
            "kind": "table",
            "table": {
                "created_at": "2026-01-01T20:00:00",
                "last_used_at": "2026-01-01T20:00:00",
                "version": 0,
                "players": [
                    {"seat": 0, "name": "Ann", "member": None},
                    {"seat": 0, "name": "Ben", "member": None},
                ],
                "series": [],
                "species": [],
                "plays": [{"game": "chess"}],
            },
        }
        with pytest.raises(transfer.ImportRefused):
            transfer.import_document(seat_twice)
        assert db.session.scalar(select(db.func.count()).select_from(Table)) == 0


@pytest.mark.usefixtures("busy_group")
def test_cli_exports_everything_and_imports_it(app: Flask, tmp_path: Path) -> None:
    runner = app.test_cli_runner()
    target = tmp_path / "backup.json"
    result = runner.invoke(args=["export", "--output", str(target)])
    assert result.exit_code == 0, result.output
    document = json.loads(target.read_text())
    assert document["kind"] == "everything"
    assert len(document["groups"]) == 1
    result = runner.invoke(args=["import", str(target)])
    assert result.exit_code == 0, result.output
    assert result.output.count("group: /g/") == 1
    csv_target = tmp_path / "backup.csv"
    result = runner.invoke(args=["export", "--output", str(csv_target), "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert csv_target.read_text().startswith("group,table,play,game")
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert runner.invoke(args=["import", str(broken)]).exit_code != 0


def test_bg_stats_link_carries_the_documented_play(
    app: Flask, busy_group: tuple[str, str, dict[str, int]]
) -> None:
    _group, _table_token, started = busy_group
    with app.app_context(), app.test_request_context():
        play = db.session.get(Play, started["odd-world"])
        assert play is not None
        link = bgstats.push_link(play)
        assert link is not None
        parts = urlsplit(link)
        assert (parts.scheme, parts.netloc, parts.path) == (
            "bgstats",
            "app.bgstatsapp.com",
            "/createPlay.html",
        )
        data = json.loads(parse_qs(parts.query)["data"][0])
        assert set(data) == {
            "sourceName",
            "sourcePlayId",
            "playDate",
            "durationMin",
            "game",
            "players",
        }
        assert data["sourceName"] == "Odd Companion"
        assert data["playDate"] == play.finished_at.strftime("%Y-%m-%d %H:%M:%S")
        assert isinstance(data["durationMin"], int)
        assert data["durationMin"] >= 1
        assert data["game"] == {
            "name": "Odd World",
            "sourceGameId": "odd-world",
            "highestWins": True,
            "noPoints": False,
        }
        result = play.result
        assert result is not None
        by_name = {s["player"]: s for s in result["standings"]}
        assert [p["name"] for p in data["players"]] == PLAYERS  # seating order
        for seat, player in enumerate(data["players"]):
            assert set(player) == {
                "name",
                "sourcePlayerId",
                "score",
                "winner",
                "rank",
                "startPlayer",
                "seatOrder",
            }
            standing = by_name[player["name"]]
            assert player["score"] == standing["score"]
            assert player["rank"] == standing["rank"]
            assert player["winner"] is standing["winner"]
            assert player["seatOrder"] == seat + 1
            assert player["startPlayer"] is (seat == 0)
        assert data["players"][0]["score"] == 3  # Ann's three hoopoes (the shoebill was undone)
        assert len({p["sourcePlayerId"] for p in data["players"]}) == len(PLAYERS)
        # Stable: sending the same play again names the same play and players.
        assert bgstats.push_link(play) == link
        owl = db.session.get(Play, started["owl-about"])
        assert owl is not None
        owl_data = bgstats.play_data(owl)
        if owl_data is not None:
            assert owl_data["game"]["highestWins"] is False  # the fewest points win
        unfinished = play.table.plays[-1]
        assert unfinished.finished or bgstats.push_link(unfinished) is None


def test_shared_exports_leave_hands_out_and_backups_keep_them(
    app: Flask, client: FlaskClient
) -> None:
    from support.client import create_table
    from support.owl_about import MIU_HAND, TABLE, phone_of, play_url, start_owl, start_round

    links = create_table(client, TABLE)
    miu = phone_of(app, links.edit, "Miu")
    play_id = start_owl(miu, links.edit)
    assert start_round(miu, links.edit, play_id, "Miu").status_code == 200
    url = play_url(links.edit, play_id)
    data = {"player": "Miu", "hand": MIU_HAND, "csrf_token": csrf(miu, url)}
    assert miu.post(f"{url}/owl-about/hand", data=data).status_code in (200, 303)
    cards = MIU_HAND.split()
    for token in (links.edit, links.view):
        shared = client.get(f"/t/{token}/plays/{play_id}/export.json").get_data(as_text=True)
        assert json.dumps(cards) not in shared.replace("\n", "").replace(" ", "")
        assert '"N6"' not in shared
    with app.app_context(), app.test_request_context():
        play = db.session.get(Play, play_id)
        assert play is not None
        complete = transfer.export_play(play, complete=True)
        assert "N6" in json.dumps(complete)
        ((_, token),) = transfer.import_document(complete)
        found = tables.find(token)
        assert found is not None
        assert transfer.export_play(found.table.plays[0], complete=True) == complete
        assert found.table.plays[0].state == play.state
