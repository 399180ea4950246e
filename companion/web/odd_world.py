"""Odd World pages: the shared play page with the game's displays (no routes of its own:
steppers and the face-down picker post to the shared edit route)."""

from __future__ import annotations

from typing import Any

from companion.games import odd_world as engine
from companion.games.text import _
from companion.web.game_pages import GamePages, PlayPage


def context(page: PlayPage) -> dict[str, Any]:
    """The birds (named in the reader's language) and the steppers' top, and the points
    each display makes now (its heading shows them)."""
    result = page.view.result
    return {
        "birds": {key: _(name) for key, name in engine.BIRDS.items()},
        "most_cards": engine.CARDS_PER_BIRD,
        "points": {s["player"]: s["score"] for s in result["standings"]} if result else {},
    }


#: What the pages add for Odd World (registered in ``companion.web.games.PAGES``).
GAME_PAGES = GamePages(context=context)
