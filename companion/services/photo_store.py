"""Where photos' files are kept: a directory or an object store, through fsspec.

``PHOTO_STORAGE`` names the place: unset, the folder ``photos`` in the instance folder
(beside the SQLite database, for ``./run``); a path, another folder; a URL, any file
system fsspec knows (``s3://bucket/prefix`` with the ``s3fs`` package installed,
``gcs://...``, ``memory://...`` for tests), with ``PHOTO_STORAGE_OPTIONS`` (a JSON object)
handed to it (credentials, an endpoint). Every worker of every machine must reach the same
place (see docs/deploy.md).

A photo is two files named by its random uid, spread over folders by the uid's first two
characters: ``ab/ab12....jpg`` and ``ab/ab12...-small.jpg``. The database row is written
only once both files are (``services/photos.py``), so a row always finds its files.

>>> store = PhotoStore("memory://doctest-photos")
>>> store.write("ab" * 16, b"photo", b"thumb")
>>> store.read("ab" * 16, small=True)
b'thumb'
>>> store.remove(["ab" * 16]); store.exists("ab" * 16)
False
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from flask import current_app
from fsspec.core import url_to_fs

SETTING = "PHOTO_STORAGE"
OPTIONS_SETTING = "PHOTO_STORAGE_OPTIONS"
#: The folder under the instance folder used when ``PHOTO_STORAGE`` is not set.
DEFAULT_FOLDER = "photos"
STORE_KEY = "companion.photo_store"
PHOTO_SUFFIX = ".jpg"
THUMBNAIL_SUFFIX = "-small.jpg"


class PhotoStore:
    """The photos' files at ``location`` (a path or an fsspec URL)."""

    def __init__(self, location: str, options: Mapping[str, Any] | None = None) -> None:
        self.location = location
        self.fs, self.root = url_to_fs(location, **dict(options or {}))

    def _path(self, uid: str, *, small: bool) -> str:
        return f"{self.root}/{uid[:2]}/{uid}{THUMBNAIL_SUFFIX if small else PHOTO_SUFFIX}"

    def write(self, uid: str, photo: bytes, thumbnail: bytes) -> None:
        """Keep a photo's two files (a write that fails half-way takes the first back)."""
        self.fs.makedirs(f"{self.root}/{uid[:2]}", exist_ok=True)
        self.fs.pipe_file(self._path(uid, small=False), photo)
        try:
            self.fs.pipe_file(self._path(uid, small=True), thumbnail)
        except BaseException:
            self.remove([uid])
            raise

    def read(self, uid: str, *, small: bool = False) -> bytes:
        """A photo's file (``small``: its thumbnail); ``FileNotFoundError`` when missing."""
        data: bytes = self.fs.cat_file(self._path(uid, small=small))
        return data

    def exists(self, uid: str) -> bool:
        """Whether the photo's file is there."""
        return bool(self.fs.exists(self._path(uid, small=False)))

    def remove(self, uids: Iterable[str]) -> None:
        """Take these photos' files away (those already gone are no error)."""
        for uid in uids:
            for small in (False, True):
                path = self._path(uid, small=small)
                try:
                    self.fs.rm_file(path)
                except FileNotFoundError:
                    continue

    def uids(self) -> Iterator[str]:
        """The uid of every photo whose file is kept (for tidying up: ``flask photos``)."""
        for path in self.fs.find(self.root):
            name = str(path).rsplit("/", 1)[-1]
            if name.endswith(PHOTO_SUFFIX) and not name.endswith(THUMBNAIL_SUFFIX):
                yield name[: -len(PHOTO_SUFFIX)]


def location_of(config: Mapping[str, Any], instance_path: str) -> str:
    """Where the app's photos are kept (see the module's docstring).

    >>> location_of({}, "/srv/instance"), location_of({"PHOTO_STORAGE": "s3://b/p"}, "/x")
    ('/srv/instance/photos', 's3://b/p')
    """
    configured = config.get(SETTING)
    return str(configured) if configured else str(Path(instance_path) / DEFAULT_FOLDER)


def store() -> PhotoStore:
    """The app's photo storage (made once per app, on first use)."""
    found: PhotoStore | None = current_app.extensions.get(STORE_KEY)
    if found is None:
        location = location_of(current_app.config, current_app.instance_path)
        found = PhotoStore(location, current_app.config.get(OPTIONS_SETTING) or {})
        found = current_app.extensions.setdefault(STORE_KEY, found)
    return found
