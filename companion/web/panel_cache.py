"""A play's panel rendered once for every phone that shows it the same way.

The phones at a table that show the same view (the "Everyone" view, the read-only link,
or a reload of the same seat) would each render the same panel after every change; the
first one renders it and the others take a copy, the scoring and the queries behind it
included.

What differs from phone to phone is filled in afterwards. The cached markup holds slots
where the CSRF token goes (one per session) and where each form's one-time submission key
goes (fresh at every rendering, see ``web/idempotency.py``). A slot holds a random nonce
of this process and a NUL character, which no text typed at a table can contain.

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
import secrets
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app, g
from markupsafe import Markup

from companion.models import Play
from companion.services.tables import TableAccess
from companion.web import pieces
from companion.web.kept import Kept

#: The panels kept per process, and their total size (characters of markup, counted
#: twice: each piece keeps its own copy).
MAX_PANELS = 256
MAX_CHARACTERS = 16_000_000
EXTENSION_KEY = "companion.panel_cache"
#: Set in ``g`` while a panel is rendered for the cache: forms get slots, not values.
SLOTS_KEY = "panel_slots"

_NONCE = secrets.token_hex(8)
#: Where a form's one-time submission key goes.
KEY_SLOT = f"\x00k{_NONCE}"
#: Where the CSRF token goes (the value of the one hidden CSRF input).
CSRF_SLOT = f"\x00c{_NONCE}"


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
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    slot = Markup('<input type="hidden" name="{}" value="{}">').format(field, CSRF_SLOT)
    real = g.pop(pieces.CSRF_INPUT_KEY, None)
    setattr(g, pieces.CSRF_INPUT_KEY, slot)
    setattr(g, SLOTS_KEY, True)
    pieces.use(pieces.Rendered())
    try:
        html = render()
    finally:
        g.pop(SLOTS_KEY, None)
        g.pop(pieces.CSRF_INPUT_KEY, None)
        if real is not None:
            setattr(g, pieces.CSRF_INPUT_KEY, real)
    return Panel(html, pieces.current())


def rendering_with_slots() -> bool:
    """Whether forms are being rendered for the cache (see ``idempotency.guard``)."""
    return bool(g.get(SLOTS_KEY))


def fill(html: str, *, csrf_token: str, new_key: Callable[[], str]) -> str:
    """``html`` with this phone's CSRF token and a fresh submission key in each slot."""
    html = html.replace(CSRF_SLOT, csrf_token)
    if KEY_SLOT not in html:
        return html
    parts = html.split(KEY_SLOT)
    keys = [new_key() for _ in range(len(parts) - 1)]
    return "".join(part + key for part, key in zip(parts, [*keys, ""], strict=True))
