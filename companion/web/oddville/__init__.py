"""OddVille pages: the city entered on a phone as a grid of cards, characters, Resources
Board workers, who ended the game, and the construction referee.

The city is drawn as an HTML grid of cards in owner colours with an icon, letters and
the owner's mark on each (never colour alone), and each card's points in place. A
palette (tool, victory points, guild, shield, owner, edges, bonus) picks what a tap on a
place does; it is remembered per phone in the session, so live refreshes keep it.

``forms`` (options and palette), ``palette`` (a phone's remembered palette), ``view``
(what the play page draws) and ``routes`` (the actions).
"""

from __future__ import annotations

from companion.web.game_pages import GamePages
from companion.web.oddville import palette, view
from companion.web.oddville.forms import OddVilleOptionsForm
from companion.web.oddville.routes import bp

#: This game's hooks for the shared pages (registered in ``companion.web.games.PAGES``).
GAME_PAGES = GamePages(
    options_form=OddVilleOptionsForm,
    blueprint=bp,
    context=view.context,
    panel_depends_on=palette.kept,
)
