"""Static files under content-hashed addresses, cached for a year.

Every ``url_for("static", ...)`` gets ``?v=<hash of the file's bytes>``; a request that
names the current hash is answered with ``Cache-Control: public, max-age=31536000,
immutable``, so phones fetch each stylesheet and script once and never revalidate it. A
changed file gets a new address at once, so nobody runs yesterday's script. Other static
requests keep Flask's default revalidating cache. Static files go out compressed like
every other answer.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Flask, Response, request

VERSION_ARG = "v"
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
        asked = request.args.get(VERSION_ARG)
        if asked and asked == current_version(folder, filename):
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
