"""Pure rules engines, one module per game, registered in one place.

Nothing here imports Flask, SQLAlchemy or the web layer: engines take JSON-like states
and return results, so they can be tested and reused anywhere.
"""

from __future__ import annotations

from companion.games import luckys, odd_world, oddland, oddville, owl_about
from companion.games.base import Game

#: Every game the app knows, by its URL slug.
GAMES: dict[str, Game] = {
    odd_world.GAME.slug: odd_world.GAME,
    owl_about.GAME.slug: owl_about.GAME,
    oddland.GAME.slug: oddland.GAME,
    luckys.GAME.slug: luckys.GAME,
    oddville.GAME.slug: oddville.GAME,
}

__all__ = ["GAMES", "Game"]
