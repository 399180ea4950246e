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

What must differ on every request is left out of the kept markup: where a form's CSRF token
and one-time key go, a slot stands, filled in afresh for each answer (``web/kept.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import NamedTuple

from flask import current_app
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from companion.web import idempotency, kept
from companion.web.kept import Kept

#: Kept renderings per worker: one per table state, link and phone answer in use lately.
MAX_KEPT = 256
_STORE = "companion.table_pages"


class Drawn(NamedTuple):
    """The page's markup (as kept: with slots), and its title (the whole page's
    ``<title>`` says it)."""

    html: str
    title: str


def _store() -> Kept[Drawn]:
    found: Kept[Drawn] | None = current_app.extensions.get(_STORE)
    if found is None:
        found = current_app.extensions.setdefault(_STORE, Kept(MAX_KEPT))
    return found


def markup(key: Hashable | None, draw: Callable[[], Drawn]) -> Drawn:
    """The page for ``key``: kept from an earlier request, else drawn (with slots for the
    forms' CSRF token and keys) and kept; its slots filled in afresh. ``None`` draws it
    without keeping it (a form shown with its errors)."""
    store = _store()
    found = store.get(key) if key is not None else None
    if found is None:
        with kept.slots():
            found = draw()
        if key is not None:
            store.put(key, found)
    html = kept.fill(found.html, csrf_token=generate_csrf(), new_key=idempotency.new_key)
    return Drawn(Markup(html), found.title)
