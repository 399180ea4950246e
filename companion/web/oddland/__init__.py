"""Oddland pages: options before the game, the map painted on a phone, tokens, token facts,
species sides (typed points or a saved definition) and the play-along referee.

The map is drawn server-side as SVG (terrain colours with a letter, territory outlines
and sizes, tokens); while it can be edited, a grid of buttons lies over it, one per
space plus a ring of empty spaces around the map to grow it. A palette (terrain, clear,
token, remove token) picks what a tap does; the palette is remembered per phone in the
session so that live refreshes and no-JavaScript round trips keep it.

``forms`` (options and actions), ``palette`` (a phone's remembered palette), ``view``
(what the play page draws) and ``routes`` (the actions and the facts page).
"""

from __future__ import annotations

from companion.web.game_pages import GamePages
from companion.web.oddland import palette, view
from companion.web.oddland.forms import OddlandOptionsForm
from companion.web.oddland.routes import bp

#: This game's hooks for the shared pages (registered in ``companion.web.games.PAGES``).
GAME_PAGES = GamePages(
    options_form=OddlandOptionsForm,
    blueprint=bp,
    context=view.context,
    panel_depends_on=palette.kept,
)
