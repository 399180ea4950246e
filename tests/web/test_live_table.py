"""The table follows the game: a live table page, the next game offered on a finished one,
Play again, series totals counted once, and the roster changed after the table exists."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from support.client import HTMX, TableLinks, create_table, csrf, edit, evening_rows, start_play

HOOPOE_ANN = "players[0].display.hoopoe"
HOOPOE_BEN = "players[1].display.hoopoe"


def _version(html: str, element: str) -> int:
    found = re.search(rf'id="{element}"[^>]*data-version="(\d+)"', html)
    assert found, element
    return int(found.group(1))


def _post(client: FlaskClient, token: str, path: str, **data: str) -> object:
    body = {"csrf_token": csrf(client, f"/t/{token}"), **data}
    return client.post(f"/t/{token}{path}", data=body)


def _finish(client: FlaskClient, token: str, play_id: int) -> None:
    response = _post(client, token, f"/plays/{play_id}/finish", confirm="yes")
    assert response.status_code == 303  # type: ignore[attr-defined]


def test_the_table_page_polls_and_shows_a_game_started_elsewhere(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    page = client.get(f"/t/{links.edit}").get_data(as_text=True)
    version = _version(page, "table")
    poll = f"/t/{links.view}/poll?version={version}"
    assert client.get(poll, headers=HTMX).status_code == 204
    play_id = start_play(client, links.edit)
    fresh = client.get(poll, headers=HTMX)
    assert fresh.status_code == 200
    html = fresh.get_data(as_text=True)
    assert "Now playing: Odd World" in html
    assert f"/t/{links.view}/plays/{play_id}" in html
    assert _version(html, "table") > version


def test_a_finished_game_offers_the_next_one_and_play_again(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    first = start_play(client, links.edit)
    edit(client, links.edit, first, path=HOOPOE_ANN, value="3")
    _finish(client, links.edit, first)
    page = client.get(f"/t/{links.edit}/plays/{first}").get_data(as_text=True)
    assert "Play again" in page
    table_version = re.search(r"table=(\d+)", page)
    play_version = re.search(r"poll\?version=(\d+)", page)
    assert table_version
    assert play_version
    again = _post(client, links.edit, f"/plays/{first}/again")
    assert again.status_code == 303  # type: ignore[attr-defined]
    second = int(again.headers["Location"].split("/plays/")[1].split("?")[0])  # type: ignore[attr-defined]
    assert second != first
    # The phone still on the finished game learns of it at its next poll.
    poll = (
        f"/t/{links.view}/plays/{first}/poll?version={play_version.group(1)}"
        f"&table={table_version.group(1)}"
    )
    answer = client.get(poll, headers=HTMX)
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    assert "Next game started: Odd World" in html
    assert f"/t/{links.view}/plays/{second}" in html
    assert "Play again" not in html  # it was played again already


def test_play_again_keeps_the_options(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben", "Cy"])
    response = client.post(
        f"/t/{links.edit}/plays", data={"game": "owl-about", "csrf_token": csrf(client)}
    )
    options = response.headers["Location"]
    data = {"mode": "quick", "target": "7", "csrf_token": csrf(client, options)}
    first = int(client.post(options, data=data).headers["Location"].split("/plays/")[1])
    _finish(client, links.edit, first)
    again = _post(client, links.edit, f"/plays/{first}/again")
    second = int(again.headers["Location"].split("/plays/")[1].split("?")[0])  # type: ignore[attr-defined]
    page = client.get(f"/t/{links.edit}/plays/{second}").get_data(as_text=True)
    assert "quick" in page.lower()
    assert "7 VP" in page


def test_a_series_counts_once_in_the_running_totals(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    ids = [start_play(client, links.edit, series=True)]
    for number, hoopoes in enumerate((3, 1, 5), start=1):
        edit(client, links.edit, ids[-1], path=HOOPOE_ANN, value=str(hoopoes))
        edit(client, links.edit, ids[-1], path=HOOPOE_BEN, value="1")
        _finish(client, links.edit, ids[-1])
        page = client.get(f"/t/{links.edit}").get_data(as_text=True)
        rows = evening_rows(page)
        if number < 3:
            # Not counted before the series is over.
            assert rows == []
            nxt = _post(client, links.edit, f"/plays/{ids[-1]}/next")
            ids.append(int(nxt.headers["Location"].split("/plays/")[1].split("?")[0]))  # type: ignore[attr-defined]
    assert rows == [("Ann", "1", "1", "9"), ("Ben", "1", "0", "3")]


def _roster(client: FlaskClient, links: TableLinks, **data: str) -> object:
    return _post(client, links.edit, "/players", **data)


def _player_ids(client: FlaskClient, links: TableLinks) -> list[int]:
    page = client.get(f"/t/{links.edit}").get_data(as_text=True)
    return [int(n) for n in re.findall(r'name="player" value="(\d+)"', page)]


def test_the_roster_changes_after_the_table_exists(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    first = start_play(client, links.edit)
    edit(client, links.edit, first, path=HOOPOE_ANN, value="3")
    _finish(client, links.edit, first)
    assert _roster(client, links, action="add", name="Cy").status_code == 303  # type: ignore[attr-defined]
    ann, ben, cy = _player_ids(client, links)
    assert _roster(client, links, action="rename", player=str(ann), name="Anna").status_code == 303  # type: ignore[attr-defined]
    assert _roster(client, links, action="up", player=str(cy)).status_code == 303  # type: ignore[attr-defined]
    page = client.get(f"/t/{links.edit}").get_data(as_text=True)
    assert '<p class="lead">Anna, Cy, Ben</p>' in page
    # The finished game keeps its names; the totals follow Anna.
    played = client.get(f"/t/{links.edit}/plays/{first}").get_data(as_text=True)
    assert "Ann" in played
    assert "Anna" not in played
    assert ("Anna", "1", "1", "3") in evening_rows(page)
    assert _roster(client, links, action="remove", player=str(ben)).status_code == 303  # type: ignore[attr-defined]
    second = start_play(client, links.edit)
    names = re.findall(
        r'<h3 id="player-\d+-title">([^<]+)</h3>',
        client.get(f"/t/{links.edit}/plays/{second}?seat=all").get_data(as_text=True),
    )
    assert names in ([], ["Anna", "Cy"])  # when the entry names its players, in the new order
    assert '<p class="lead">Anna, Cy</p>' in client.get(f"/t/{links.edit}").get_data(as_text=True)


def test_roster_changes_are_validated_next_to_the_players(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    ann, ben = _player_ids(client, links)
    for data, message in (
        ({"action": "add", "name": "ann"}, "names must differ"),
        ({"action": "add", "name": ""}, "name"),
        ({"action": "rename", "player": str(ben), "name": "A\u202en"}, "U+202E"),
        ({"action": "up", "player": str(ann)}, "cannot move further"),
        ({"action": "rename", "player": "999999", "name": "Zed"}, "not at this table"),
    ):
        response = _roster(client, links, **data)
        assert response.status_code == 422, data  # type: ignore[attr-defined]
        assert message in response.get_data(as_text=True), data  # type: ignore[attr-defined]
    for name in ("Cy", "Di", "Ed", "Flo"):
        _roster(client, links, action="add", name=name)
    full = _roster(client, links, action="add", name="Gus")
    assert full.status_code == 422  # type: ignore[attr-defined]
    assert "at most 6 players" in full.get_data(as_text=True)  # type: ignore[attr-defined]
    assert (
        client.post(
            f"/t/{links.view}/players",
            data={"action": "add", "name": "Zed", "csrf_token": csrf(client, f"/t/{links.view}")},
        ).status_code
        == 403
    )


def test_a_phone_that_joins_is_asked_whose_it_is(app: Flask, client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    phone = app.test_client()
    page = phone.get(f"/t/{links.edit}").get_data(as_text=True)
    assert 'id="who-title"' in page
    assert '<button class="secondary" name="name" value="Ben">Ben</button>' in page
    token = csrf(phone, f"/t/{links.edit}")
    assert (
        phone.post(f"/t/{links.edit}/me", data={"name": "Ben", "csrf_token": token}).status_code
        == 303
    )
    assert 'id="who-title"' not in phone.get(f"/t/{links.edit}").get_data(as_text=True)
    # Renaming follows the phone's owner.
    _ann, ben = _player_ids(client, links)
    _roster(client, links, action="rename", player=str(ben), name="Benji")
    play_id = start_play(phone, links.edit)
    edit(phone, links.edit, play_id, path=HOOPOE_BEN, value="1")
    history = phone.get(f"/t/{links.edit}/plays/{play_id}/history").get_data(as_text=True)
    assert "Benji" in history
    watcher = app.test_client()
    watcher.get(f"/t/{links.edit}")
    token = csrf(watcher, f"/t/{links.edit}")
    watcher.post(f"/t/{links.edit}/me", data={"name": "", "csrf_token": token})
    assert 'id="who-title"' not in watcher.get(f"/t/{links.edit}").get_data(as_text=True)
    # The read-only link never asks.
    assert 'id="who-title"' not in app.test_client().get(f"/t/{links.view}").get_data(as_text=True)


def test_share_buttons_are_offered_for_both_links(client: FlaskClient) -> None:
    links = create_table(client, ["Ann"])
    page = client.get(f"/t/{links.edit}").get_data(as_text=True)
    assert 'data-copy="edit-link"' in page
    assert 'data-share="view-link"' in page
    view = client.get(f"/t/{links.view}").get_data(as_text=True)
    assert 'data-copy="edit-link"' not in view
    assert 'data-copy="view-link"' in view
