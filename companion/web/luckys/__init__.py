"""Lucky's Misadventures pages: the end-of-game tally, the round companion and the
referee tools (challenge, buy points, Machine builder, escape check).

``forms`` (the play page's actions), ``view`` (what the play page draws), ``routes``
(its actions) and ``referee`` (the tools page, with or without a table).
"""

from __future__ import annotations

from companion.web.game_pages import GamePages
from companion.web.luckys import referee, view
from companion.web.luckys.routes import bp

#: What the pages add for Lucky's Misadventures (registered in ``web.games.PAGES``).
GAME_PAGES = GamePages(
    blueprint=bp,
    context=view.context,
    tools=(referee.TOOL,),
    panel_depends_on=view.maven_sources,
)
