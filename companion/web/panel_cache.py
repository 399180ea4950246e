"""A play's panel rendered once for every phone that shows it the same way.

The phones at a table that show the same view (the "Everyone" view, the read-only link,
or a reload of the same seat) would each render the same panel after every change; the
first one renders it and the others take a copy, the scoring and the queries behind it
included.

What differs from phone to phone is filled in afterwards: the cached markup holds slots
where the CSRF token and each form's one-time submission key go (``web/kept.py``).

The key names everything the panel shows:

* the play's version (every edit, undo, finish or reopening raises it) and status;
* the table's version (the roster, a newer game, any of its games finished or reopened);
* the link (its token and whether it may edit) and the seat the phone shows;
* the versions of the series' games, whose totals it shows;
* whatever else the game's panel shows (Oddland's and OddVille's palettes, kept in the
  phone's session; the versions of the table's other Lucky's plays, whose Mavens it
  offers): ``GamePages.panel_depends_on``.

Versions only grow and tokens are never reused, so a cached panel is right on any worker
of any machine; each process keeps its own copy, bounded in entries and in size. A panel
with errors, a clash, a verdict or anything else an action left for it is never cached.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app

from companion.models import Play
from companion.services.tables import TableAccess
from companion.web import pieces
from companion.web.kept import Kept, slots

#: The panels kept per process, and their total size (characters of markup, counted
#: twice: each piece keeps its own copy).
MAX_PANELS = 256
MAX_CHARACTERS = 16_000_000
EXTENSION_KEY = "companion.panel_cache"


@dataclass(frozen=True)
class Panel:
    """A rendered panel with its slots, and its pieces (for sending only what changed)."""

    html: str
    rendered: pieces.Rendered

    def cost(self) -> int:
        """What it costs the cache: its markup, and the pieces' copies of it."""
        return 2 * len(self.html)


def register(app: Flask) -> None:
    """Give the app its own cache (tests run many apps in one process)."""
    app.extensions[EXTENSION_KEY] = new_cache()


def new_cache(max_panels: int = MAX_PANELS, max_size: int = MAX_CHARACTERS) -> Kept[Panel]:
    """An empty panel cache with these bounds."""
    return Kept(max_panels, max_size, Panel.cost)


def _cache() -> Kept[Panel] | None:
    found: Kept[Panel] | None = current_app.extensions.get(EXTENSION_KEY)
    return found


def key_for(
    found: TableAccess,
    play: Play,
    *,
    token: str,
    seat: int | str,
    depends_on: object,
    shown: Mapping[str, Any],
) -> Hashable | None:
    """The cache key of this phone's panel, or None when it must be rendered afresh."""
    if shown:  # a notice, a confirmation...: this once only
        return None
    return (
        play.id,
        play.game,
        play.version,
        play.status,
        found.table.id,
        found.table.version,
        found.access,
        token,
        seat,
        json.dumps(depends_on, sort_keys=True, default=str),
    )


def panel(key: Hashable | None, render: Callable[[], str]) -> Panel:
    """The panel under ``key``, rendered by ``render`` (with slots) when not kept yet.

    Either way this request's pieces are the panel's, so that only what changed can be
    sent (``pieces.changed_only``)."""
    cache = _cache() if key is not None else None
    kept = cache.get(key) if cache is not None else None
    if kept is None:
        kept = _render_with_slots(render)
        if cache is not None:
            cache.put(key, kept)
    pieces.use(kept.rendered)
    return kept


def _render_with_slots(render: Callable[[], str]) -> Panel:
    pieces.use(pieces.Rendered())
    with slots():
        html = render()
    return Panel(html, pieces.current())
