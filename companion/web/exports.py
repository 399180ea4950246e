"""Serving exports through a link: streamed, built in turns, kept once built.

An export is sent as a stream (``services/transfer_stream.py``) whose text is built in
turns of about 20 ms at the process's gate (``web/gate.py``), so no export holds the
process for longer than a turn however large the table or group. What was built is kept:
each play's text (an export after a tap builds that play again, not the table), and the
whole file while it is small enough (a repeated download of an unchanged table or group
is copied from memory). Streamed answers are sent uncompressed (``COMPRESS_STREAMS``):
compressing a file of megabytes in one go would hold the process again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator

from flask import Flask, current_app, request
from flask.sansio.app import App
from werkzeug.wrappers import Response

from companion.services import transfer_stream
from companion.web import gate
from companion.web.cache import Cache

JSON_TYPE = "application/json"
CSV_TYPE = "text/csv"
#: Whole exports kept per process, and their total size in characters: repeated
#: downloads of an unchanged table or group are served from here.
MAX_EXPORTS = 64
MAX_EXPORT_CHARACTERS = 32_000_000
#: Plays' texts kept per process (``transfer_stream.Pieces``), and their total size.
MAX_PLAY_PIECES = 200_000
MAX_PLAY_PIECE_CHARACTERS = 64_000_000
#: A kept file is sent in parts of this many characters.
PART = 256 * 1024
EXPORTS_KEY = "companion.exports"
PIECES_KEY = "companion.export_pieces"


def register(app: App) -> None:
    """Give the app its own caches (tests run many apps in one process)."""
    app.extensions[EXPORTS_KEY] = Cache(MAX_EXPORTS, MAX_EXPORT_CHARACTERS, len)
    app.extensions[PIECES_KEY] = Cache(MAX_PLAY_PIECES, MAX_PLAY_PIECE_CHARACTERS, len)


def pieces() -> transfer_stream.Pieces:
    """Where this app keeps plays' texts between exports."""
    kept: Cache[str] = current_app.extensions[PIECES_KEY]
    return kept


def download(key: Hashable, build: Callable[[], Iterator[str]], name: str, kind: str) -> Response:
    """A JSON or CSV export as a file to save, streamed. ``key`` names the state of what
    it holds (see ``transfer.table_fingerprint``): a file kept under it is sent as it is,
    else ``build`` writes it, in turns at the gate."""
    files: Cache[str] = current_app.extensions[EXPORTS_KEY]
    kept = files.get((key, kind))
    if kept is not None:
        text = _parts(kept)
    else:
        turns = transfer_stream.in_turns(build(), gate.turn_of(request.environ))
        text = _kept_once_sent(turns, files, (key, kind))
    response = Response(
        _in_app(current_app._get_current_object(), text),  # type: ignore[attr-defined]
        mimetype=CSV_TYPE if kind == "csv" else JSON_TYPE,
    )
    response.headers["Content-Disposition"] = f'attachment; filename="{name}.{kind}"'
    return response


def _in_app(app: Flask, text: Iterator[str]) -> Iterator[str]:
    """``text`` read inside an app context of its own (a database session that the
    context's end closes), entered only once the server starts reading the body: the
    stream needs the app, not the request, so an answer dropped unread holds nothing."""
    with app.app_context():
        yield from text


def _parts(text: str) -> Iterator[str]:
    for start in range(0, len(text), PART):
        yield text[start : start + PART]


def _kept_once_sent(text: Iterator[str], files: Cache[str], key: Hashable) -> Iterator[str]:
    """``text`` as it comes; once all of it was sent, kept under ``key`` if small enough
    (a download cut short keeps nothing)."""
    sent: list[str] = []
    size = 0
    for part in text:
        size += len(part)
        if size <= MAX_EXPORT_CHARACTERS:
            sent.append(part)
        yield part
    if size <= MAX_EXPORT_CHARACTERS:
        files.put(key, "".join(sent))
