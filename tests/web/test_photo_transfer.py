"""Photos and ratings through export and import, on SQLite and PostgreSQL: a group's
export (streamed through its link, and the command line's backup) holds every play's
photos; its import restores them byte for byte with their thumbnails, gives the same
ratings, and exports to the same document; an import refuses a hostile photo, too many
photos, or text that is not base64, before anything is stored, and a failed import
takes back the files it wrote."""

from __future__ import annotations

import base64
import copy
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from companion.extensions import db
from companion.models import Group, Photo, Table
from companion.services import caps, photo_store, ratings, transfer
from companion.services.tables import Access, token_for
from support.client import csrf, start_play
from support.groups import create_group, roster_ids, start_group_table
from support.photos import bomb_png, camera_jpeg, plain_png, send_photo

pytestmark = pytest.mark.both_backends("export and import are SQL reads and writes")

NAMES = ["Ann", "Ben", "Cy"]


def _finish(client: FlaskClient, token: str, play_id: int) -> None:
    data = {"csrf_token": csrf(client, f"/t/{token}"), "confirm": "yes"}
    assert client.post(f"/t/{token}/plays/{play_id}/finish", data=data).status_code == 303


def _score(client: FlaskClient, token: str, play_id: int, seat: int, hoopoes: int) -> None:
    data = {
        "path": f"players[{seat}].display.hoopoe",
        "value": str(hoopoes),
        "csrf_token": csrf(client, f"/t/{token}"),
    }
    assert client.post(f"/t/{token}/plays/{play_id}/edit", data=data).status_code == 303


@pytest.fixture
def group_with_photos(client: FlaskClient) -> str:
    """A group whose two tables played finished Odd World games with photos (one game
    with two, one with a screenshot), and one game still going with a photo."""
    links = create_group(client, "Photographers", NAMES)
    ids = roster_ids(client, links.edit)
    first = start_group_table(client, links.edit, ids)
    for number in range(3):
        play_id = start_play(client, first)
        _score(client, first, play_id, number % 3, 3)
        _score(client, first, play_id, (number + 1) % 3, 1)
        if number == 0:
            send_photo(client, first, play_id, camera_jpeg((1800, 1200)))
            send_photo(client, first, play_id, plain_png())
        _finish(client, first, play_id)
    second = start_group_table(client, links.edit, ids[:2])
    going = start_play(client, second)
    send_photo(client, second, going, camera_jpeg((900, 600), colour="navy"))
    return links.edit


def _photos_by_play(group_id: int) -> list[list[bytes]]:
    """Each play's photos' stored JPEGs and thumbnails, plays in export order."""
    store = photo_store.store()
    tables = db.session.scalars(select(Table).where(Table.group_id == group_id).order_by(Table.id))
    return [
        [store.read(p.uid) + store.read(p.uid, small=True) for p in play.photos]
        for table in tables
        for play in table.plays
    ]


def _ratings_by_name(group: Group) -> dict[tuple[str, str], tuple[float, float, int]]:
    names = {p.id: p.name for p in group.players}
    rated = ratings.replay(ratings.placed_plays(group.id))
    return {
        (scope, names[member]): (skill.mu, skill.sigma, skill.games)
        for (scope, member), skill in rated.current.items()
    }


def test_a_group_round_trip_keeps_photos_and_ratings(
    app: Flask, client: FlaskClient, group_with_photos: str
) -> None:
    streamed = client.get(f"/g/{group_with_photos}/export.json")
    document = json.loads(streamed.get_data(as_text=True))
    listed = [play["photos"] for t in document["group"]["tables"] for play in t["plays"]]
    assert [len(photos) for photos in listed] == [2, 0, 0, 1]
    first = listed[0][0]
    assert set(first) == {"created_at", "device", "author", "width", "height", "jpeg"}
    assert (first["width"], first["height"]) == (1067, 1600)  # upright, 1600 px at most
    with app.app_context(), app.test_request_context():
        original = db.session.scalars(select(Group).order_by(Group.id)).first()
        assert original is not None
        assert transfer.export_group(original, complete=True) == document
        before_photos = _photos_by_play(original.id)
        before_ratings = _ratings_by_name(original)
        assert before_ratings, "the finished games are rated"
        ((_kind, token),) = transfer.import_document(copy.deepcopy(document))
        imported = db.session.scalars(select(Group).order_by(Group.id.desc())).first()
        assert imported is not None
        assert imported.id != original.id
        assert _photos_by_play(imported.id) == before_photos
        assert _ratings_by_name(imported) == before_ratings
        assert transfer.export_group(imported, complete=True) == document
    copy_page = client.get(f"/g/{token}/history").get_data(as_text=True)
    assert copy_page.count("-small.jpg") == 2  # the finished game's two photos


def test_a_play_and_a_table_export_carry_their_photos(
    app: Flask, client: FlaskClient, group_with_photos: str
) -> None:
    with app.app_context():
        photo = db.session.scalars(select(Photo).order_by(Photo.id)).first()
        assert photo is not None
        play_id, uid = photo.play_id, photo.uid
        table = db.session.get_one(Table, photo.table_id)
        token = token_for(table, Access.VIEW)
        stored = photo_store.store().read(uid)
    play = json.loads(client.get(f"/t/{token}/plays/{play_id}/export.json").data)
    (exported,) = play["table"]["plays"]
    assert base64.b64decode(exported["photos"][0]["jpeg"]) == stored
    whole = json.loads(client.get(f"/t/{token}/export.json").data)
    assert whole["table"]["plays"][0]["photos"] == exported["photos"]
    group = json.loads(client.get(f"/g/{group_with_photos}/export.json").data)
    assert group["group"]["tables"][0]["plays"][0]["photos"] == exported["photos"]


def _first_play(document: dict[str, Any]) -> dict[str, Any]:
    play: dict[str, Any] = document["group"]["tables"][0]["plays"][0]
    return play


@pytest.mark.parametrize(
    ("spoil", "expected"),
    [
        (lambda p: p["photos"][0].update(jpeg="not base64!"), "this is not base64 text"),
        (
            lambda p: p["photos"][0].update(jpeg=base64.b64encode(bomb_png()).decode()),
            "million pixels",
        ),
        (
            lambda p: p["photos"][0].update(jpeg=base64.b64encode(b"<html>").decode()),
            "not a photo the app can read",
        ),
        (
            lambda p: p["photos"].extend(p["photos"] * caps.MAX_PHOTOS_PER_PLAY),
            "keeps at most 4 photos",
        ),
        (lambda p: p["photos"][0].update(author="A\u202eB"), "no invisible characters"),
    ],
    ids=["base64", "bomb", "html", "cap", "author"],
)
def test_an_import_refuses_a_bad_photo_before_storing_anything(
    app: Flask, client: FlaskClient, group_with_photos: str, spoil: Any, expected: str
) -> None:
    document = json.loads(client.get(f"/g/{group_with_photos}/export.json").data)
    spoil(_first_play(document))
    with app.app_context(), app.test_request_context():
        groups_before = db.session.scalar(select(db.func.count()).select_from(Group))
        photos_before = sorted(photo_store.store().uids())
        with pytest.raises(transfer.ImportRefused) as refused:
            transfer.import_document(document)
        assert any(expected in line for line in refused.value.lines), refused.value.lines
        assert refused.value.lines[0].startswith("group.tables[0].plays[0].photos")
        assert db.session.scalar(select(db.func.count()).select_from(Group)) == groups_before
        assert sorted(photo_store.store().uids()) == photos_before


def test_a_failed_import_takes_back_the_photos_it_wrote(
    app: Flask, client: FlaskClient, group_with_photos: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    document = json.loads(client.get(f"/g/{group_with_photos}/export.json").data)
    written = 0
    real = transfer._import_photo

    def then_fail(*args: Any, **kwargs: Any) -> None:
        nonlocal written
        real(*args, **kwargs)
        written += 1
        if written == 3:  # the second table's photo: the first table is committed
            raise ValueError("the disk is full")

    monkeypatch.setattr(transfer, "_import_photo", then_fail)
    with app.app_context(), app.test_request_context():
        before = sorted(photo_store.store().uids())
        with pytest.raises(transfer.ImportRefused):
            transfer.import_document(document)
        assert written == 3
        assert sorted(photo_store.store().uids()) == before
        assert db.session.scalar(select(db.func.count()).select_from(Photo)) == len(before)
