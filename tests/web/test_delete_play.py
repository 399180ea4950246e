"""Deleting a game started by mistake: through the edit link only, from a link at the foot
of the play to a page that asks first (no JavaScript needed), with its edits, photos and
group results; the table page says so, every other phone on the game is told in place of
the panel at its next live update, a stale tap gets a 404 that offers the table, and in a
series only the newest game can go."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import delete, func, select

from companion.extensions import db
from companion.models import Edit, Photo, Play, PlayResult, Series
from companion.services import photo_store, plays
from support.client import HTMX, TableLinks, create_table, csrf, edit, start_play
from support.groups import create_group, roster_ids, start_group_table
from support.photos import camera_jpeg, send_photo

HOOPOE_ANN = "players[0].display.hoopoe"
HOOPOE_BEN = "players[1].display.hoopoe"
LINK = re.compile(r'id="play-delete"[^>]*><a href="([^"]+)"')
SERIES_ONLY_NEWEST = "Only the newest game of a series can be deleted"
#: The asking page's button: a plain form (boosted by htmx where it runs).
DELETE_BUTTON = re.compile(
    r'<form method="post" action="[^"]+/delete">[\s\S]*?<button class="danger">'
)


@pytest.fixture
def table(client: FlaskClient) -> TableLinks:
    return create_table(client, ["Ann", "Ben"])


def _post(client: FlaskClient, token: str, path: str, *, htmx: bool = False, **data: str) -> Any:
    body = {"csrf_token": csrf(client, f"/t/{token}"), **data}
    return client.post(f"/t/{token}{path}", data=body, headers=HTMX if htmx else {})


def _delete(client: FlaskClient, token: str, play_id: int, *, htmx: bool = False) -> Any:
    return _post(client, token, f"/plays/{play_id}/delete", htmx=htmx)


def _finish(client: FlaskClient, token: str, play_id: int) -> None:
    assert _post(client, token, f"/plays/{play_id}/finish", confirm="yes").status_code == 303


def _count(app: Flask, model: type, *where: Any) -> int:
    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(model).where(*where)) or 0)


def test_the_edit_link_deletes_a_game_and_the_table_page_says_so(
    app: Flask, client: FlaskClient, table: TableLinks
) -> None:
    play_id = start_play(client, table.edit)
    edit(client, table.edit, play_id, path=HOOPOE_ANN, value="3")
    page = client.get(f"/t/{table.edit}/plays/{play_id}").get_data(as_text=True)
    link = LINK.search(page)
    assert link
    asking = client.get(unescape(link.group(1))).get_data(as_text=True)
    assert '<h1 id="delete-title">Delete Odd World?</h1>' in asking
    assert "with its history and its photos" in asking
    assert DELETE_BUTTON.search(asking)
    assert _count(app, Play) == 1  # asking deletes nothing

    answer = _delete(client, table.edit, play_id)

    assert answer.status_code == 303
    assert answer.headers["Location"].endswith(f"/t/{table.edit}")
    table_page = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert "Odd World deleted." in table_page
    assert f"/plays/{play_id}" not in table_page
    assert _count(app, Play) == 0
    assert _count(app, Edit) == 0
    gone = client.get(f"/t/{table.edit}/plays/{play_id}")
    assert gone.status_code == 404
    text = gone.get_data(as_text=True)
    assert "it may have been deleted" in text
    assert f'href="/t/{table.edit}">Open the table</a>' in text


def test_with_htmx_the_phone_is_sent_to_the_table_page(
    client: FlaskClient, table: TableLinks
) -> None:
    play_id = start_play(client, table.edit)
    answer = _delete(client, table.edit, play_id, htmx=True)
    assert answer.status_code == 204
    assert answer.headers["HX-Redirect"] == f"/t/{table.edit}"
    assert "Odd World deleted." in client.get(f"/t/{table.edit}").get_data(as_text=True)


def test_the_read_only_link_neither_offers_nor_deletes(
    app: Flask, client: FlaskClient, table: TableLinks
) -> None:
    play_id = start_play(client, table.edit)
    page = client.get(f"/t/{table.view}/plays/{play_id}").get_data(as_text=True)
    assert not LINK.search(page)
    assert client.get(f"/t/{table.view}/plays/{play_id}/delete").status_code == 403
    assert _delete(client, table.view, play_id).status_code == 403
    assert client.post(f"/t/{table.edit}/plays/{play_id}/delete").status_code == 400  # no CSRF
    assert _count(app, Play) == 1


def test_other_phones_on_the_game_are_told_in_place_and_stale_taps_get_a_404(
    app: Flask, client: FlaskClient, table: TableLinks
) -> None:
    play_id = start_play(client, table.edit)
    other = app.test_client()
    other.get(f"/t/{table.edit}/plays/{play_id}")
    _delete(client, table.edit, play_id)

    poll = other.get(f"/t/{table.edit}/plays/{play_id}/poll?version=0&table=1", headers=HTMX)
    assert poll.status_code == 200
    panel = poll.get_data(as_text=True)
    assert panel.startswith('<section id="play"')  # in place of the panel, nothing moved
    assert "This game was deleted." in panel
    assert f'href="/t/{table.edit}">Open the table</a>' in panel
    assert "data-poll" not in panel  # nothing left to ask about
    # Without htmx (never a live update) the address is just not found.
    assert other.get(f"/t/{table.edit}/plays/{play_id}/poll?version=0").status_code == 404

    tap = edit(other, table.edit, play_id, path=HOOPOE_BEN, value="2")
    assert tap.status_code == 404
    assert "it may have been deleted" in tap.get_data(as_text=True)


@pytest.mark.both_backends("a row deleted by another connection while a request holds it")
def test_a_game_deleted_while_a_tap_was_being_saved_answers_404_not_500(
    client: FlaskClient, table: TableLinks, monkeypatch: pytest.MonkeyPatch
) -> None:
    play_id = start_play(client, table.edit)
    saving = plays.set_value

    def deleted_meanwhile(play: Play, **kwargs: Any) -> Any:
        # Another phone's request deletes the game after this one loaded it.
        with db.engine.begin() as other:
            other.execute(delete(Play).where(Play.id == play_id))
        return saving(play, **kwargs)

    monkeypatch.setattr(plays, "set_value", deleted_meanwhile)
    # The write finds no row at its version, and its re-read finds no row at all.
    tap = edit(client, table.edit, play_id, path=HOOPOE_ANN, value="2", base="0")
    assert tap.status_code == 404
    text = tap.get_data(as_text=True)
    assert "This game was deleted." in text
    assert f'href="/t/{table.edit}">Open the table</a>' in text


def test_the_photos_go_with_their_game(app: Flask, client: FlaskClient, table: TableLinks) -> None:
    play_id = start_play(client, table.edit)
    assert send_photo(client, table.edit, play_id, camera_jpeg()).status_code == 303
    with app.app_context():
        (uid,) = db.session.scalars(select(Photo.uid))
    _delete(client, table.edit, play_id)
    with app.app_context():
        assert not photo_store.store().exists(uid)
    assert _count(app, Photo) == 0


def _series_game(client: FlaskClient, token: str, play_id: int, *, finish: bool) -> int:
    """Finish this game of the series if asked; the next one's id once started."""
    edit(client, token, play_id, path=HOOPOE_ANN, value="3")
    if finish:
        _finish(client, token, play_id)
    started = _post(client, token, f"/plays/{play_id}/next")
    return int(started.headers["Location"].split("/plays/")[1].split("?")[0])


@pytest.mark.both_backends("a play and its series deleted in one flush, under foreign keys")
def test_in_a_series_only_the_newest_game_goes_and_the_series_with_its_only_game(
    app: Flask, client: FlaskClient, table: TableLinks
) -> None:
    first = start_play(client, table.edit, series=True)
    second = _series_game(client, table.edit, first, finish=True)

    older = client.get(f"/t/{table.edit}/plays/{first}/delete").get_data(as_text=True)
    assert "Delete Odd World · game 1 of 3?" in older
    assert SERIES_ONLY_NEWEST in older
    assert not DELETE_BUTTON.search(older)
    refused = _delete(client, table.edit, first)
    assert refused.status_code == 422
    assert SERIES_ONLY_NEWEST in refused.get_data(as_text=True)
    assert _count(app, Play) == 2

    assert _delete(client, table.edit, second).status_code == 303
    # The first game offers the next one again, numbered as before.
    again = client.get(f"/t/{table.edit}/plays/{first}").get_data(as_text=True)
    assert "Start game 2 of 3" in again
    assert _count(app, Series) == 1
    assert _delete(client, table.edit, first).status_code == 303
    assert _count(app, Series) == 0
    assert _count(app, Play) == 0


def _ratings(client: FlaskClient, token: str) -> Any:
    answer = client.get(f"/api/v1/groups/{token}/ratings")
    assert answer.status_code == 200
    return answer.get_json()


def test_a_deleted_game_leaves_the_groups_results_and_ratings_as_if_never_played(
    app: Flask, client: FlaskClient
) -> None:
    group = create_group(client, "Thursdays", ["Ann", "Ben"])
    token = start_group_table(client, group.edit, roster_ids(client, group.edit))
    won_by_ann = start_play(client, token)
    edit(client, token, won_by_ann, path=HOOPOE_ANN, value="3")
    _finish(client, token, won_by_ann)
    before = _ratings(client, group.edit)

    won_by_ben = start_play(client, token)
    edit(client, token, won_by_ben, path=HOOPOE_BEN, value="3")
    _finish(client, token, won_by_ben)
    assert _ratings(client, group.edit) != before
    assert _count(app, PlayResult, PlayResult.play_id == won_by_ben) == 2

    assert _delete(client, token, won_by_ben).status_code == 303
    assert _count(app, PlayResult, PlayResult.play_id == won_by_ben) == 0
    assert _ratings(client, group.edit) == before
    history = client.get(f"/g/{group.edit}/history").get_data(as_text=True)
    assert "1 game</h2>" in history


def test_the_asking_page_and_the_gone_panel_speak_the_phones_language(
    client: FlaskClient, table: TableLinks
) -> None:
    german = {"Accept-Language": "de"}
    play_id = start_play(client, table.edit)
    asking = client.get(f"/t/{table.edit}/plays/{play_id}/delete", headers=german)
    assert "Odd World löschen?" in asking.get_data(as_text=True)
    _delete(client, table.edit, play_id)
    poll = f"/t/{table.edit}/plays/{play_id}/poll?version=0"
    panel = client.get(poll, headers={**HTMX, **german}).get_data(as_text=True)
    assert "Dieses Spiel wurde gelöscht." in panel
    assert "Tisch öffnen" in panel
