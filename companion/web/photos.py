"""Photos of the table with a play: taking one (a camera form that works without
JavaScript), removing one, and serving them to whoever holds the table's or the group's
link (the read-only links too).

Adding or removing a photo answers like any change of the play: htmx gets the panel, a
plain form post is sent back to the play page (at its photos); a refusal (a cap, a file
that is not a photo, a decompression bomb) is a 422 with the reason next to the camera's
field. A photo is decoded outside the request's turn at the gate (Pillow runs without the
interpreter's lock: other tables' taps and polls go meanwhile), and photos sent are
limited per network (``RATE_LIMIT_PHOTOS``). The files are served as JPEG, never sniffed,
kept by the phone that opened them (their names are random and their contents never
change) and never by a shared cache.
"""

from __future__ import annotations

import re
from functools import partial
from http import HTTPStatus

from flask import Blueprint, abort, request
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from werkzeug.wrappers import Response

from companion.games.text import _, sentences
from companion.models import Photo
from companion.services import caps, photo_store, photos
from companion.services.photo_images import EMPTY, MAX_BYTES, PhotoRefused
from companion.web import gate, limits, security, uploads
from companion.web.context import open_table
from companion.web.groups import open_group
from companion.web.limits import limiter
from companion.web.play.actions import load_play
from companion.web.play.panel import OpenPlay, play_response

bp = Blueprint("photos", __name__)

#: Where the play page's photos sit (a plain form post lands back there).
ANCHOR = "play-photos"
#: How a photo's file is named in its address: its uid, and ``-small`` for the thumbnail.
FILE_NAME = re.compile(r"(?P<uid>[0-9a-f]{32})(?P<small>-small)?\.jpg")
JPEG = "image/jpeg"


class PhotoForm(FlaskForm):
    """A photo of the table, taken with the camera or picked from the phone."""

    photo = FileField(
        lazy_gettext("Photo of the table"), validators=[FileRequired(lazy_gettext(EMPTY))]
    )


@bp.app_template_global()
def photos_per_play() -> int:
    """How many photos a play keeps at most (the page stops offering the camera there)."""
    return caps.MAX_PHOTOS_PER_PLAY


def _refused(opened: OpenPlay, message: str) -> Response:
    """The play again, with the reason next to the photos' field (422; never kept)."""
    return play_response(opened, status=HTTPStatus.UNPROCESSABLE_ENTITY, photo_error=message)


@bp.post(uploads.UPLOAD_RULE)
@limiter.limit(limits.photos_limit)
def add(token: str, play_id: int) -> Response:
    """Keep a photo of the table with the play."""
    opened = load_play(token, play_id, edit=True)
    form = PhotoForm()
    if not form.validate():
        return _refused(opened, sentences(*map(str, form.photo.errors)) or _(EMPTY))
    # One byte more than the cap is enough to know the file is too large.
    data = form.photo.data.read(MAX_BYTES + 1)
    try:
        photos.add_photo(
            opened.play,
            data,
            author=opened.author,
            decoding=partial(gate.outside_turn, request.environ),
        )
    except PhotoRefused as refused:
        return _refused(opened, refused.message)
    return play_response(opened)


@bp.post("/t/<token>/plays/<int:play_id>/photos/<photo>/remove")
def remove(token: str, play_id: int, photo: str) -> Response:
    """Remove one of the play's photos."""
    opened = load_play(token, play_id, edit=True)
    try:
        photos.remove_photo(opened.play, photo)
    except PhotoRefused as refused:
        return _refused(opened, refused.message)
    return play_response(opened)


@bp.get("/t/<token>/plays/<int:play_id>/photos/<photo>")
def table_photo(token: str, play_id: int, photo: str) -> Response:
    """A photo of the play (or its thumbnail), through the table's edit or read-only link."""
    uid, small = _named(photo)
    table_access = open_table(token)
    found = photos.in_table(table_access.table.id, uid)
    if found is None or found.play_id != play_id:
        abort(404)
    return _file(found, small=small)


@bp.get("/g/<token>/photos/<photo>")
def group_photo(token: str, photo: str) -> Response:
    """A photo of one of the group's games, through the group's edit or read-only link."""
    uid, small = _named(photo)
    group_access = open_group(token)
    found = photos.in_group(group_access.group.id, uid)
    if found is None:
        abort(404)
    return _file(found, small=small)


def _named(name: str) -> tuple[str, bool]:
    """The uid and size a file's name asks for; 404 for any other name."""
    match = FILE_NAME.fullmatch(name)
    if match is None:
        abort(404)
    return match["uid"], match["small"] is not None


def _file(photo: Photo, *, small: bool) -> Response:
    """The stored JPEG as it is: typed, never sniffed, kept by this phone alone."""
    try:
        data = photo_store.store().read(photo.uid, small=small)
    except FileNotFoundError:
        abort(404)
    response = Response(data, mimetype=JPEG)
    response.set_etag(f"{photo.uid}{'-small' if small else ''}")
    response.headers["Content-Disposition"] = "inline"
    response.headers["Cross-Origin-Resource-Policy"] = "same-origin"
    security.mark_immutable_file()
    return response.make_conditional(request)
