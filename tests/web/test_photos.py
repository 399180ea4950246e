"""Photos of the table through the pages: taken with a form that works without JavaScript
(and with htmx), shown on the play to every phone, on the table's evening and in the
group's history, served only through the links, removed with a button or with its play;
caps counted before anything is decoded; and each hostile file refused or cleaned."""

from __future__ import annotations

import io
import re
import uuid
from pathlib import Path

import pytest
from flask import Flask, request
from flask.testing import FlaskClient
from markupsafe import escape
from PIL import Image
from sqlalchemy import select

from companion.cli import tidy_command
from companion.extensions import db
from companion.models import Photo, Play
from companion.services import caps, photo_images, photo_store, photos, plays
from companion.web import gate, uploads
from support.client import HTMX, TableLinks, create_table, csrf, start_play
from support.groups import create_group, roster_ids, start_group_table
from support.photos import (
    BOUNDARY,
    COMMENT,
    PHONE_MAKE,
    PRETENDERS,
    bomb_png,
    camera_jpeg,
    multipart,
    plain_png,
    send_photo,
)

UNPROCESSABLE = 422
THUMBNAIL = re.compile(r'src="(/t/[^"]+/photos/([0-9a-f]{32})-small\.jpg)"')


@pytest.fixture
def table(client: FlaskClient) -> TableLinks:
    return create_table(client, ["Ann", "Ben"])


@pytest.fixture
def play_id(client: FlaskClient, table: TableLinks) -> int:
    return start_play(client, table.edit)


def _stored(app: Flask) -> list[Photo]:
    with app.app_context():
        found = list(db.session.scalars(select(Photo).order_by(Photo.id)))
        db.session.expunge_all()
        return found


def _files(app: Flask, uid: str) -> tuple[bytes, bytes]:
    with app.app_context():
        store = photo_store.store()
        return store.read(uid), store.read(uid, small=True)


def test_a_photo_taken_without_javascript_shows_on_the_play_for_every_link(
    app: Flask, client: FlaskClient, table: TableLinks, play_id: int
) -> None:
    sent = send_photo(client, table.edit, play_id, camera_jpeg())
    assert sent.status_code == 303
    assert sent.headers["Location"].endswith(f"/plays/{play_id}#play-photos")
    (photo,) = _stored(app)
    for token in (table.edit, table.view):
        page = client.get(f"/t/{token}/plays/{play_id}").get_data(as_text=True)
        thumbnails = THUMBNAIL.findall(page)
        assert [uid for _url, uid in thumbnails] == [photo.uid]
        assert f'href="/t/{token}/plays/{play_id}/photos/{photo.uid}.jpg"' in page
        assert 'alt="Photo 1 of the table"' in page
    read_only = client.get(f"/t/{table.view}/plays/{play_id}").get_data(as_text=True)
    assert 'type="file"' not in read_only
    assert "/remove" not in read_only


def test_the_camera_form_works_without_javascript_and_with_htmx(
    client: FlaskClient, table: TableLinks, play_id: int
) -> None:
    page = client.get(f"/t/{table.edit}/plays/{play_id}").get_data(as_text=True)
    form = re.search(r'<form[^>]*class="photo-form"[^>]*>', page)
    assert form
    tag = form.group(0)
    assert 'method="post"' in tag
    assert 'enctype="multipart/form-data"' in tag
    assert 'hx-encoding="multipart/form-data"' in tag
    action = f"/t/{table.edit}/plays/{play_id}/photos?seat=all&amp;anchor=play-photos"
    assert f'action="{action}#play-photos"' in tag
    field = '<input id="photo-file-0" type="file" name="photo" accept="image/*"'
    assert f'{field} capture="environment"' in page
    answer = send_photo(client, table.edit, play_id, camera_jpeg(), htmx=True)
    assert answer.status_code == 200
    assert len(THUMBNAIL.findall(answer.get_data(as_text=True))) == 1


def test_the_file_is_served_typed_unsniffed_and_kept_by_the_phone_alone(
    app: Flask, client: FlaskClient, table: TableLinks, play_id: int
) -> None:
    send_photo(client, table.edit, play_id, camera_jpeg())
    (photo,) = _stored(app)
    full, small = _files(app, photo.uid)
    for token in (table.edit, table.view):
        for name, stored in ((f"{photo.uid}.jpg", full), (f"{photo.uid}-small.jpg", small)):
            answer = client.get(f"/t/{token}/plays/{play_id}/photos/{name}")
            assert answer.status_code == 200
            assert answer.mimetype == "image/jpeg"
            assert answer.data == stored
            assert answer.headers["X-Content-Type-Options"] == "nosniff"
            assert answer.headers["Cache-Control"] == "private, max-age=31536000, immutable"
            assert answer.headers["X-Robots-Tag"] == "noindex"
            again = client.get(
                f"/t/{token}/plays/{play_id}/photos/{name}",
                headers={"If-None-Match": answer.headers["ETag"]},
            )
            assert again.status_code == 304
    assert len(small) < len(full)
    assert max(Image.open(io.BytesIO(small)).size) == photo_images.THUMBNAIL_SIDE


def test_photos_reach_only_the_holders_of_their_links(
    app: Flask, client: FlaskClient, table: TableLinks, play_id: int
) -> None:
    send_photo(client, table.edit, play_id, camera_jpeg())
    (photo,) = _stored(app)
    other = create_table(client, ["Cy", "Dee"])
    other_play = start_play(client, other.edit)
    for url in (
        f"/t/{other.edit}/plays/{play_id}/photos/{photo.uid}.jpg",  # another table's link
        f"/t/{other.view}/plays/{other_play}/photos/{photo.uid}.jpg",  # and its play
        f"/t/{table.edit}/plays/{play_id + 1}/photos/{photo.uid}.jpg",  # another play
        f"/t/{'x' * 22}/plays/{play_id}/photos/{photo.uid}.jpg",  # no link at all
        f"/t/{table.edit}/plays/{play_id}/photos/{photo.uid}.png",  # no such name
        f"/t/{table.edit}/plays/{play_id}/photos/{photo.uid.upper()}.jpg",
    ):
        answer = client.get(url)
        assert answer.status_code == 404, url
        assert answer.headers["Cache-Control"] == "no-store", url
    forbidden = send_photo(client, table.view, play_id, camera_jpeg())
    assert forbidden.status_code == 403
    assert len(_stored(app)) == 1


def test_every_phone_sees_a_new_photo_at_its_next_poll(
    client: FlaskClient, table: TableLinks, play_id: int
) -> None:
    page = client.get(f"/t/{table.view}/plays/{play_id}").get_data(as_text=True)
    poll = re.search(r'hx-get="([^"]+/poll\?[^"]+)"', page)
    assert poll
    url = poll.group(1).replace("&amp;", "&")
    assert client.get(url, headers=HTMX).status_code == 204
    send_photo(client, table.edit, play_id, camera_jpeg())
    fresh = client.get(url, headers=HTMX)
    assert fresh.status_code == 200
    assert len(THUMBNAIL.findall(fresh.get_data(as_text=True))) == 1


def test_the_table_page_and_the_group_history_show_the_photos(
    app: Flask, client: FlaskClient
) -> None:
    links = create_group(client, "Thursdays", ["Ann", "Ben"])
    seated = roster_ids(client, links.edit)
    table = start_group_table(client, links.edit, seated)
    play_id = start_play(client, table)
    send_photo(client, table, play_id, camera_jpeg())
    (photo,) = _stored(app)
    evening = client.get(f"/t/{table}").get_data(as_text=True)
    assert 'id="evening-photos"' in evening
    assert f"/t/{table}/plays/{play_id}/photos/{photo.uid}-small.jpg" in evening
    finish = {"csrf_token": csrf(client, f"/t/{table}"), "confirm": "yes"}
    assert client.post(f"/t/{table}/plays/{play_id}/finish", data=finish).status_code == 303
    for token in (links.edit, links.view):
        history = client.get(f"/g/{token}/history").get_data(as_text=True)
        assert f"/g/{token}/photos/{photo.uid}-small.jpg" in history
        served = client.get(f"/g/{token}/photos/{photo.uid}.jpg")
        assert served.status_code == 200
        assert served.headers["Cache-Control"] == "private, max-age=31536000, immutable"
    stranger = create_group(client, "Fridays", ["Cy"])
    assert client.get(f"/g/{stranger.view}/photos/{photo.uid}.jpg").status_code == 404


def test_a_photo_is_removed_with_its_button_and_its_files_go(
    app: Flask, client: FlaskClient, table: TableLinks, play_id: int
) -> None:
    send_photo(client, table.edit, play_id, camera_jpeg())
    (photo,) = _stored(app)
    url = f"/t/{table.edit}/plays/{play_id}/photos/{photo.uid}/remove"
    data = {"csrf_token": csrf(client, f"/t/{table.edit}"), "anchor": "play-photos"}
    read_only = f"/t/{table.view}/plays/{play_id}/photos/{photo.uid}/remove"
    assert client.post(read_only, data=data).status_code == 403
    removed = client.post(url, data=data, headers=HTMX)
    assert removed.status_code == 200
    assert THUMBNAIL.findall(removed.get_data(as_text=True)) == []
    assert _stored(app) == []
    with app.app_context():
        assert not photo_store.store().exists(photo.uid)
    again = client.post(url, data=data, headers=HTMX)
    assert again.status_code == UNPROCESSABLE
    assert photos.NOT_FOUND in again.get_data(as_text=True)


@pytest.mark.parametrize("kind", sorted(PRETENDERS))
def test_a_file_that_only_pretends_to_be_a_jpeg_is_refused(
    app: Flask, client: FlaskClient, table: TableLinks, play_id: int, kind: str
) -> None:
    answer = send_photo(client, table.edit, play_id, PRETENDERS[kind], htmx=True)
    assert answer.status_code == UNPROCESSABLE
    page = answer.get_data(as_text=True)
    message = photo_images.BROKEN if kind == "truncated jpeg" else photo_images.NOT_A_PHOTO
    assert f'<p id="photo-error" class="error" role="alert">{message}</p>' in page
    assert 'aria-invalid="true"' in page
    assert _stored(app) == []


@pytest.mark.parametrize(
    "bomb",
    [bomb_png(), bomb_png(9_000, 9_000)],
    ids=["ten billion pixels", "81 million pixels (below Pillow's own guard)"],
)
def test_a_decompression_bomb_is_refused_next_to_the_field_without_decoding(
    app: Flask, client: FlaskClient, table: TableLinks, play_id: int, bomb: bytes
) -> None:
    assert len(bomb) < 2000
    answer = send_photo(client, table.edit, play_id, bomb)  # no JavaScript: the page again
    assert answer.status_code == UNPROCESSABLE
    page = answer.get_data(as_text=True)
    expected = escape(photo_images.TOO_MANY_PIXELS)
    assert f'<p id="photo-error" class="error" role="alert">{expected}</p>' in page
    assert _stored(app) == []
    with app.app_context():
        assert list(photo_store.store().uids()) == []


def test_a_camera_photo_is_turned_upright_and_kept_without_any_metadata(
    app: Flask, client: FlaskClient, table: TableLinks, play_id: int
) -> None:
    sent = camera_jpeg((2400, 1200))
    assert PHONE_MAKE.encode() in sent
    assert COMMENT.encode() in sent
    send_photo(client, table.edit, play_id, sent)
    (photo,) = _stored(app)
    for stored in _files(app, photo.uid):
        for trace in (
            b"Exif",
            PHONE_MAKE.encode(),
            COMMENT.encode(),
            b"ICC_PROFILE",
            b"http://ns.adobe",
        ):
            assert trace not in stored
        with Image.open(io.BytesIO(stored)) as image:
            assert image.format == "JPEG"
            assert not image.getexif()
            assert image.getexif().get_ifd(0x8825) == {}  # no GPS
            assert [marker for marker, _ in image.applist] == ["APP0"]  # JFIF alone
            assert "comment" not in image.info
            assert image.width < image.height  # orientation 6: turned upright
    assert (photo.width, photo.height) == (800, 1600)  # at most 1600 px on the long side


def test_a_screenshot_with_transparency_is_kept_as_a_jpeg(
    app: Flask, client: FlaskClient, table: TableLinks, play_id: int
) -> None:
    assert send_photo(client, table.edit, play_id, plain_png(), name="shot.png").status_code == 303
    (photo,) = _stored(app)
    with Image.open(io.BytesIO(_files(app, photo.uid)[0])) as image:
        assert (image.format, image.mode, image.size) == ("JPEG", "RGB", (640, 480))


def test_an_empty_or_too_heavy_file_is_refused(
    app: Flask, client: FlaskClient, table: TableLinks, play_id: int
) -> None:
    empty = send_photo(client, table.edit, play_id, b"", htmx=True)
    assert empty.status_code == UNPROCESSABLE
    assert photo_images.EMPTY in empty.get_data(as_text=True)
    heavy = camera_jpeg() + b"\x00" * photo_images.MAX_BYTES
    refused = send_photo(client, table.edit, play_id, heavy, htmx=True)
    assert refused.status_code == UNPROCESSABLE
    assert photo_images.TOO_LARGE in refused.get_data(as_text=True)
    assert _stored(app) == []


def test_a_body_larger_than_a_photos_room_is_refused_unread(
    client: FlaskClient, table: TableLinks, play_id: int
) -> None:
    body = multipart({}, b"\x00" * (uploads.MAX_BODY + 1))
    answer = client.post(
        f"/t/{table.edit}/plays/{play_id}/photos",
        data=body,
        content_type=f"multipart/form-data; boundary={BOUNDARY}",
    )
    assert answer.status_code == 413


def test_a_play_keeps_at_most_its_cap_counted_before_decoding(
    app: Flask, client: FlaskClient, table: TableLinks, play_id: int
) -> None:
    for _ in range(caps.MAX_PHOTOS_PER_PLAY):
        assert send_photo(client, table.edit, play_id, camera_jpeg()).status_code == 303
    page = client.get(f"/t/{table.edit}/plays/{play_id}").get_data(as_text=True)
    assert 'type="file"' not in page
    assert f"This game has its {caps.MAX_PHOTOS_PER_PLAY} photos" in page
    # A bomb past the cap is refused for the cap: it is never even opened.
    refused = send_photo(client, table.edit, play_id, bomb_png(), htmx=True)
    assert refused.status_code == UNPROCESSABLE
    assert caps.too_many_photos_per_play() in refused.get_data(as_text=True)
    assert len(_stored(app)) == caps.MAX_PHOTOS_PER_PLAY


def test_photos_count_in_the_table_and_group_caps(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    links = create_group(client, "Thursdays", ["Ann", "Ben"])
    seated = roster_ids(client, links.edit)
    first = start_group_table(client, links.edit, seated)
    monkeypatch.setattr(caps, "MAX_PHOTOS_PER_TABLE", 2)
    monkeypatch.setattr(caps, "MAX_PHOTOS_PER_GROUP", 3)
    plays = [start_play(client, first) for _ in range(2)]
    assert send_photo(client, first, plays[0], camera_jpeg()).status_code == 303
    assert send_photo(client, first, plays[1], camera_jpeg()).status_code == 303
    table_full = send_photo(client, first, plays[1], camera_jpeg(), htmx=True)
    assert table_full.status_code == UNPROCESSABLE
    assert caps.too_many_photos_per_table() in table_full.get_data(as_text=True)
    second = start_group_table(client, links.edit, seated)
    later = start_play(client, second)
    assert send_photo(client, second, later, camera_jpeg()).status_code == 303
    group_full = send_photo(client, second, later, camera_jpeg(), htmx=True)
    assert group_full.status_code == UNPROCESSABLE
    assert caps.too_many_photos_per_group() in group_full.get_data(as_text=True)
    assert len(_stored(app)) == 3


def test_a_photo_goes_with_its_play_and_a_rolled_back_deletion_keeps_it(
    app: Flask, client: FlaskClient, table: TableLinks, play_id: int
) -> None:
    send_photo(client, table.edit, play_id, camera_jpeg())
    (photo,) = _stored(app)
    with app.app_context():
        db.session.delete(db.session.get_one(Play, play_id))
        db.session.flush()
        db.session.rollback()
        assert photo_store.store().exists(photo.uid)
        db.session.delete(db.session.get_one(Play, play_id))
        db.session.commit()
        assert not photo_store.store().exists(photo.uid)
    assert _stored(app) == []


@pytest.mark.usefixtures("table")
def test_a_failed_commit_leaves_no_file_behind(
    app: Flask, play_id: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(photos, "_record", broken)
    with app.app_context():
        play = db.session.get_one(Play, play_id)
        with pytest.raises(RuntimeError):
            photos.add_photo(play, camera_jpeg(), author=plays.Author("test"))
        assert list(photo_store.store().uids()) == []


def test_the_default_storage_is_a_folder_in_the_instance(
    app: Flask, client: FlaskClient, table: TableLinks, play_id: int
) -> None:
    send_photo(client, table.edit, play_id, camera_jpeg())
    (photo,) = _stored(app)
    folder = Path(app.instance_path) / "photos" / photo.uid[:2]
    assert sorted(path.name for path in folder.iterdir()) == [
        f"{photo.uid}-small.jpg",
        f"{photo.uid}.jpg",
    ]


def test_an_fsspec_location_keeps_the_photos_elsewhere(app: Flask, client: FlaskClient) -> None:
    location = f"memory://photos-{uuid.uuid4().hex}"
    app.config[photo_store.SETTING] = location
    table = create_table(client, ["Ann", "Ben"])
    play_id = start_play(client, table.edit)
    send_photo(client, table.edit, play_id, camera_jpeg())
    (photo,) = _stored(app)
    elsewhere = photo_store.PhotoStore(location)
    assert elsewhere.read(photo.uid)[:2] == photo_images.JPEG_START
    assert not (Path(app.instance_path) / "photos").exists()
    answer = client.get(f"/t/{table.view}/plays/{play_id}/photos/{photo.uid}.jpg")
    assert answer.data == elsewhere.read(photo.uid)
    elsewhere.remove([photo.uid])
    assert client.get(f"/t/{table.view}/plays/{play_id}/photos/{photo.uid}.jpg").status_code == 404


def test_tidying_finds_and_removes_files_no_photo_names(
    app: Flask, client: FlaskClient, table: TableLinks, play_id: int
) -> None:
    send_photo(client, table.edit, play_id, camera_jpeg())
    (photo,) = _stored(app)
    stray = "ab" * 16
    with app.app_context():
        photo_store.store().write(stray, b"stray", b"stray")
    runner = app.test_cli_runner()
    listed = runner.invoke(tidy_command, [])
    assert listed.exit_code == 0, listed.output
    assert stray in listed.output
    assert photo.uid not in listed.output
    removed = runner.invoke(tidy_command, ["--remove"])
    assert "Removed 1 photos' files." in removed.output
    with app.app_context():
        assert sorted(photo_store.store().uids()) == [photo.uid]


def test_a_photo_is_decoded_outside_the_requests_turn_at_the_gate(
    app: Flask,
    client: FlaskClient,
    table: TableLinks,
    play_id: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    turns_held: list[bool] = []
    real = photos.prepare

    def watched(data: bytes) -> photo_images.Prepared:
        turns_held.append(request.environ[gate.TURN].locked())
        return real(data)

    monkeypatch.setattr(photos, "prepare", watched)
    assert send_photo(client, table.edit, play_id, camera_jpeg()).status_code == 303
    assert turns_held == [False], "other requests go while the photo is decoded"
    assert len(_stored(app)) == 1


def test_photos_sent_are_limited_per_network(
    app: Flask, client: FlaskClient, table: TableLinks, play_id: int
) -> None:
    app.config["RATE_LIMIT_PHOTOS"] = "2 per hour"
    answers = [
        send_photo(client, table.edit, play_id, camera_jpeg()).status_code for _ in range(3)
    ]
    assert answers == [303, 303, 429]
    assert len(_stored(app)) == 2
