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
and one-time key go (``guard``), a mark stands, filled in afresh for each answer.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import NamedTuple

from flask import current_app
from markupsafe import Markup

from companion.web import idempotency
from companion.web.kept import Kept

#: Stands where ``guard(form)`` would write its hidden inputs; escaped text cannot hold it.
GUARD_MARK = "<!--guard-->"
#: Kept renderings per worker: one per table state, link and phone answer in use lately.
MAX_KEPT = 256
_STORE = "companion.table_pages"


def marked_guard(form: object) -> Markup:
    """The template's ``guard`` while the kept markup is drawn: a mark filled in later."""
    return Markup(GUARD_MARK)


class Drawn(NamedTuple):
    """The page's markup, and its title (the whole page's ``<title>`` says it)."""

    html: str
    title: str


class KeptPage(NamedTuple):
    """A drawn page as kept: its markup split at the marks, and its title."""

    parts: tuple[str, ...]
    title: str


def _kept() -> Kept[KeptPage]:
    kept: Kept[KeptPage] | None = current_app.extensions.get(_STORE)
    if kept is None:
        kept = current_app.extensions.setdefault(_STORE, Kept(MAX_KEPT))
    return kept


def filled(parts: tuple[str, ...]) -> Markup:
    """The markup with a fresh ``guard`` (CSRF token and one-time key) at every mark."""
    csrf = idempotency.csrf_input()
    out = [parts[0]]
    for part in parts[1:]:
        out += (csrf, idempotency.key_input(), part)
    return Markup("".join(out))


def markup(key: Hashable | None, draw: Callable[[], Drawn]) -> Drawn:
    """The page for ``key``: kept from an earlier request, else drawn (``draw`` renders
    with :func:`marked_guard` as ``guard``) and kept; its marks filled in afresh. ``None``
    draws it without keeping it (a form shown with its errors)."""
    kept = _kept()
    found = kept.get(key) if key is not None else None
    if found is None:
        drawn = draw()
        found = KeptPage(tuple(drawn.html.split(GUARD_MARK)), drawn.title)
        if key is not None:
            kept.put(key, found)
    return Drawn(filled(found.parts), found.title)
