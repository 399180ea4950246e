"""Owl About pages: the options before a game, playing along card by card, rounds,
trophies, penalties, hands, and the standalone trick checker.

``forms`` (options and actions), ``view`` (what the play page draws), ``routes`` (the
play page's actions) and ``checker`` (the trick checker).
"""

from __future__ import annotations

from companion.web.game_pages import GamePages
from companion.web.owl_about import checker, view
from companion.web.owl_about.forms import OwlAboutOptions
from companion.web.owl_about.routes import bp

#: What the pages add for Owl About (registered in ``companion.web.games.PAGES``).
GAME_PAGES = GamePages(
    options_form=OwlAboutOptions, blueprint=bp, context=view.context, tools=(checker.TOOL,)
)
