"""Static files under content-hashed addresses, cached for a year.

Every ``url_for("static", ...)`` gets ``?v=<hash of the file's bytes>``; a request that
names the current hash is answered with ``Cache-Control: public, max-age=31536000,
immutable``, so phones fetch each stylesheet and script once and never revalidate it. A
changed file gets a new address at once, so nobody runs yesterday's script. Other static
requests keep Flask's default revalidating cache. Static files go out compressed like
every other answer.

Our own scripts and stylesheets are written to be read (comments say why); they go out
minified (``rjsmin``, ``rcssmin``: comments and spaces only, names kept), which takes
about 40 % off their compressed size in a phone's first load. Each file is minified once
per version. A file already minified (``*.min.js``) goes out as it is.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

import rcssmin
import rjsmin
from flask import Flask, Response, request

VERSION_ARG = "v"
#: What is minified on the way out (not ``.min.js``: already minified by its makers).
MINIFIED = (".js", ".css")
ALREADY_MINIFIED = ".min.js"
YEAR_SECONDS = 365 * 24 * 60 * 60
HASH_LENGTH = 12


def register(app: Flask) -> None:
    """Version static links and give versioned static answers a long life."""
    folder = Path(app.static_folder or "static")

    @app.url_defaults
    def version_static_links(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values and VERSION_ARG not in values:
            version = current_version(folder, values["filename"])
            if version:
                values[VERSION_ARG] = version

    @app.after_request
    def cache_versioned(response: Response) -> Response:
        if request.endpoint != "static" or response.status_code != 200:
            return response
        # Read the (small) file into the response now: Flask-Compress compresses a whole
        # body, while compressing a streamed file would leave the file open.
        response.direct_passthrough = False
        response.make_sequence()
        filename = (request.view_args or {}).get("filename", "")
        version = current_version(folder, filename)
        if version is not None and filename.endswith(MINIFIED):
            response.set_data(_minified(folder / filename, version))
        asked = request.args.get(VERSION_ARG)
        if asked and asked == version:
            response.cache_control.public = True
            response.cache_control.max_age = YEAR_SECONDS
            response.cache_control.immutable = True
            response.cache_control.no_cache = None
        return response


def current_version(folder: Path, filename: str) -> str | None:
    """The short content hash of a static file (``None`` when there is no such file)."""
    path = folder / filename
    try:
        stat = path.stat()
    except (OSError, ValueError):
        return None
    # Keyed on the modification time too, so an edited file gets a new hash at once.
    return _hash_of(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _hash_of(path: Path, _mtime_ns: int, _size: int) -> str | None:
    if not path.is_file():
        return None
    return hashlib.sha256(path.read_bytes()).hexdigest()[:HASH_LENGTH]


@lru_cache(maxsize=64)
def _minified(path: Path, _version: str) -> bytes:
    """A script or stylesheet without its comments and spare spaces (keyed on the file's
    version: an edited file is minified anew)."""
    data = path.read_bytes()
    if path.name.endswith(ALREADY_MINIFIED):
        return data
    text = data.decode("utf-8")
    small: str = rcssmin.cssmin(text) if path.suffix == ".css" else rjsmin.jsmin(text)
    return small.encode("utf-8")
