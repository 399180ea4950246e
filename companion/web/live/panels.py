"""A play's panel rendered once for every phone that shows it the same way.

The phones at a table that show the same view (the "Everyone" view, the read-only link,
or a reload of the same seat) would each render the same panel after every change; the
first one renders it and the others take a copy, the scoring and the queries behind it
included. The whole play page keeps its frame (everything around the panel) the same way.

What differs from phone to phone is put in on the way out: each answer made from a kept
rendering gets the asking phone's CSRF token and fresh form keys (``personal.py``).

The key names everything the panel shows, all of it read in one indexed query before
anything is loaded (``tables.glance_play``), so a kept panel is served without loading the
play, its table or its players (see ``play.py``):

* the play's version (every edit, undo, finish or reopening raises it) and status;
* the table's version (the roster, a newer game, any of its games finished or reopened)
  and its join code's generation;
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
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from flask import Flask, current_app
from markupsafe import Markup

from companion.services.tables import PlayGlance
from companion.web.cache import Cache
from companion.web.live import personal

#: The panels kept per process, and their total size (characters of markup: a 4-player
#: Odd World panel is about 65,000, a late Oddland map about 200,000).
MAX_PANELS = 256
MAX_CHARACTERS = 16_000_000
#: The page frames kept per process (one per table state, link and game: a few KB each).
MAX_FRAMES = 256
PANELS_KEY = "companion.live.panels"
FRAMES_KEY = "companion.live.frames"
#: Where a page frame takes the panel it is sent with: a string no page can hold (NUL).
PANEL_SLOT = "\x00panel\x00"


@dataclass(frozen=True)
class Panel:
    """A rendered panel and the CSRF token it was rendered with (each phone gets its own
    in its place: ``personal.for_phone``)."""

    html: str
    csrf_token: str

    def cost(self) -> int:
        """What it costs the cache: its markup."""
        return len(self.html)

    def for_phone(self) -> str:
        """The panel as this request's phone gets it."""
        return personal.for_phone(self.html, self.csrf_token)


@dataclass(frozen=True)
class Frame:
    """The whole play page around its panel, cut where the panel goes, and the CSRF token
    it was drawn with."""

    before: str
    after: str
    csrf_token: str

    def around(self, panel: str) -> str:
        """The whole page with ``panel`` (already this phone's) in its place, as this
        request's phone gets it."""
        return (
            personal.for_phone(self.before, self.csrf_token)
            + panel
            + (personal.for_phone(self.after, self.csrf_token))
        )

    def cost(self) -> int:
        """What it costs the cache: its markup."""
        return len(self.before) + len(self.after)


def register(app: Flask) -> None:
    """Give the app its own caches (tests run many apps in one process)."""
    app.extensions[PANELS_KEY] = new_cache()
    app.extensions[FRAMES_KEY] = Cache(MAX_FRAMES, MAX_FRAMES * 16_000, Frame.cost)


def new_cache(max_panels: int = MAX_PANELS, max_size: int = MAX_CHARACTERS) -> Cache[Panel]:
    """An empty panel cache with these bounds."""
    return Cache(max_panels, max_size, Panel.cost)


def _panels() -> Cache[Panel] | None:
    found: Cache[Panel] | None = current_app.extensions.get(PANELS_KEY)
    return found


def _frames() -> Cache[Frame] | None:
    found: Cache[Frame] | None = current_app.extensions.get(FRAMES_KEY)
    return found


def key_for(glance: PlayGlance, *, token: str, seat: int | str, depends_on: object) -> Hashable:
    """The cache key of the panel of the play ``glance`` describes, shown through the link
    ``token`` at ``seat``, with what else it shows (``depends_on``, JSON-able)."""
    return (glance, token, seat, json.dumps(depends_on, sort_keys=True, default=str))


def kept_panel(key: Hashable) -> Panel | None:
    """The panel kept under ``key``, if any."""
    cache = _panels()
    return cache.get(key) if cache is not None else None


def panel(key: Hashable | None, render: Callable[[], str]) -> Panel:
    """The panel under ``key``, rendered by ``render`` when not kept yet; ``None``:
    rendered afresh and not kept."""
    found = kept_panel(key) if key is not None else None
    if found is not None:
        return found
    made = Panel(render(), personal.csrf_token())
    cache = _panels()
    if key is not None and cache is not None:
        cache.put(key, made)
    return made


def kept_frame(key: Hashable) -> Frame | None:
    """The page frame kept under ``key``, if any."""
    frames = _frames()
    return frames.get(key) if frames is not None else None


def frame(key: Hashable | None, draw: Callable[[Markup], str]) -> Frame:
    """The page frame under ``key``, drawn when not kept yet (``None``: drawn and not
    kept). ``draw`` renders the whole page with the markup it is given as its panel."""
    found = kept_frame(key) if key is not None else None
    if found is not None:
        return found
    before, after = draw(Markup(PANEL_SLOT)).split(PANEL_SLOT)
    made = Frame(before, after, personal.csrf_token())
    frames = _frames()
    if key is not None and frames is not None:
        frames.put(key, made)
    return made
