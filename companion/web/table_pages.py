"""The table page's markup, rendered once per state of the table and reused.

Drawing the table page (totals, the evening, every game's result, series standings, the
BG Stats links, the QR code) cost many times what serving it does, while what it shows
changes only when the table does. So its markup is kept, in each worker, under a key made
of everything it is drawn from: the table (its random uid; its ``version``, bumped by
every change the page shows; its link and join-code generations; and the time it was
last used, which every edit of one of its plays sets: a series' standings follow the
games still being played, whose edits leave the version alone), the link it was opened
with, the address the links are written for, and this phone's answer to "Whose phone is
this?". Nothing is ever invalidated: a change makes a new key, so workers and machines
each keep their own copy, and none can serve a stale one.

What must differ on every request is put in on the way out: each answer made from the
kept markup gets the asking phone's CSRF token and fresh one-time form keys
(``personal.py``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from typing import Any, NamedTuple

from flask import Flask, current_app
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from companion.web import personal
from companion.web.cache import Cache
from companion.web.languages import language

#: Kept renderings per worker: one per table state, link and phone answer in use lately.
MAX_KEPT = 256
CACHE_KEY = "companion.table_pages"
#: Kept results per worker (each a play's or a series' result, or a BG Stats link): the
#: finished games of a few dozen tables at their caps, and at most so many characters of
#: them as JSON (a result is a few kilobytes; the dicts take several times that).
MAX_RESULTS = 8192
MAX_RESULT_CHARACTERS = 4_000_000
RESULTS_KEY = "companion.table_results"


class Drawn(NamedTuple):
    """The page's markup, and its title (the whole page's ``<title>`` says it)."""

    html: str
    title: str


class _Kept(NamedTuple):
    drawn: Drawn
    #: The CSRF token it was drawn with (each phone gets its own in its place).
    csrf_token: str


def register(app: Flask) -> None:
    """Give the app its own caches (tests run many apps in one process)."""
    app.extensions[CACHE_KEY] = Cache(MAX_KEPT)
    app.extensions[RESULTS_KEY] = Cache(MAX_RESULTS, MAX_RESULT_CHARACTERS, _characters)


def _characters(value: Any) -> int:
    """A kept result's size: its JSON's length (counted once, when it is kept)."""
    return len(json.dumps(value, separators=(",", ":"), default=str))


def kept_results() -> Cache[Any] | None:
    """Where the results the table pages count are kept between drawings
    (``services/table_results.py``): a redrawn page reads and scores only what changed."""
    kept: Cache[Any] | None = current_app.extensions.get(RESULTS_KEY)
    return kept


def markup(key: Hashable | None, draw: Callable[[], Drawn]) -> Drawn:
    """The page for ``key`` in the phone's language: kept from an earlier request, else
    drawn and kept, as this request's phone gets it. ``None`` draws it without keeping it
    (a form shown with its errors)."""
    cache: Cache[_Kept] | None = current_app.extensions.get(CACHE_KEY)
    key = None if key is None else (language(), key)
    found = cache.get(key) if key is not None and cache is not None else None
    if found is None:
        found = _Kept(draw(), generate_csrf())
        if key is not None and cache is not None:
            cache.put(key, found)
    html = personal.for_phone(found.drawn.html, found.csrf_token)
    return Drawn(Markup(html), found.drawn.title)
